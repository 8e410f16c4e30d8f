import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './test-app.js';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
/**
 * tsx as a loader in the server's own process, not tsx's CLI: the CLI runs the server as its child
 * and, when the child has not acknowledged a relayed SIGTERM within 30 ms (a loaded machine), kills
 * it with SIGKILL and exits 143, so a test's graceful stop was not graceful.
 */
const TSX_LOADER = import.meta.resolve('tsx');
/** A server that has not said it is ready by then failed to start (a loaded machine compiles main.ts slowly). */
const READY_WITHIN_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real server process (main.ts) started by a test, with what it said so far. */
export interface ServerProcess {
  child: ChildProcess;
  /** Every line it printed (pino JSON), standard output and error together. */
  log: string[];
  /** The addresses Fastify says it listens at. */
  addresses: string[];
  /** The instance id it logs at start (owner of its jobs, name of its schedule fires). */
  instance: string | undefined;
  /** The settings it was started with (beyond the shared schema, data folder and key). */
  env: Record<string, string>;
}

/**
 * Starts `main.ts` as its own process on the test's PostgreSQL schema, data folder and secret key,
 * with these settings on top (PORT 0 and debug logs unless given). Without `waitUntilReady` it
 * answers at once (tests whose clocks must start together); otherwise once the server logged
 * "Rehearse is ready", or it throws with the server's output.
 */
export async function startServerProcess(
  test: Pick<TestApp, 'settings' | 'schemaName'>,
  env: Record<string, string>,
  { waitUntilReady = true }: { waitUntilReady?: boolean } = {},
): Promise<ServerProcess> {
  if (!test.schemaName) throw new Error('server processes share a PostgreSQL schema: start the test app on postgres');
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: test.settings.dataDir,
      DATABASE_SCHEMA: test.schemaName,
      REHEARSE_SECRET_KEY: test.settings.secretKey.toString('hex'),
      LOG_LEVEL: 'debug',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: ServerProcess = { child, log: [], addresses: [], instance: undefined, env };
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      server.log.push(line);
      const listening = /Server listening at (\S+?)"/.exec(line);
      if (listening?.[1]) server.addresses.push(listening[1]);
      server.instance ??= /"instance":"([^"]+)"/.exec(line)?.[1];
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  if (!waitUntilReady) return server;
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!server.log.some((line) => line.includes('Rehearse is ready'))) {
    if (child.exitCode !== null) throw new Error(`server exited: ${server.log.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`server not ready in ${READY_WITHIN_MS / 1000} s: ${server.log.join('\n')}`);
    await sleep(250);
  }
  if (server.addresses.length === 0) throw new Error(`server did not start: ${server.log.join('\n')}`);
  return server;
}

/** Stops a server process the way an operator does (SIGTERM: it closes and exits); resolves once it exited. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/**
 * Stops a server and starts it again on the same schema and the same port (so its workers find it
 * where they left it), with its first settings and `changes` on top; answers the new process once ready.
 */
export async function restartServerProcess(
  test: Pick<TestApp, 'settings' | 'schemaName'>,
  server: ServerProcess,
  changes: Record<string, string> = {},
): Promise<ServerProcess> {
  const address = server.addresses[0];
  if (!address) throw new Error('a server that never listened cannot be restarted at its address');
  const port = new URL(address).port;
  await stopServerProcess(server);
  return startServerProcess(test, { ...server.env, PORT: port, ...changes });
}
