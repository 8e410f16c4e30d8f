import { createServer, type AddressInfo } from 'node:net';

/** A port nobody listens on now, so a server's own URL (PUBLIC_URL, an OIDC redirect) is known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
