import { connect, createServer, type AddressInfo } from 'node:net';
import { pipeBoth } from './proxy.js';

/**
 * Inside a sandbox without a network, the only way out: a loopback port of the sandbox's own
 * network namespace whose connections go to the egress proxy's unix socket, bound into the sandbox.
 * Chromium and Node take a TCP proxy address, not a socket path, hence the relay.
 */
export async function startRelay(socketPath: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((client) => {
    const upstream = connect(socketPath);
    // An idle keep-alive connection (undici keeps the server's for seconds) must not keep the job
    // alive after its work: it held every `rehearse run --server` in a sandbox about 5 s past its
    // end. A connection in use is still held by its own client, outside the relay.
    client.unref();
    upstream.unref();
    pipeBoth(client, upstream);
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  // Not a reason to keep the process alive: the run ends when its work does.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}
