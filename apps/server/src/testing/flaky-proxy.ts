import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A proxy between a worker and the server that refuses workspace downloads when told to. */
export interface FlakyProxy {
  server: Server;
  /** Where the worker reaches the server through it (once `listen` resolved). */
  url: () => string;
  listen: () => Promise<void>;
  /** Answers 503 to the next workspace download, once. */
  refuseNextDownload: () => void;
  /** How many downloads it refused so far. */
  refused: () => number;
  close: () => Promise<void>;
}

/**
 * Stands between a worker and the server, as a flaky network or load balancer would: it relays
 * every request, except that it answers 503 to the next workspace download when told to. The
 * server has no test hook for this; the failure is the network's.
 */
export function flakyProxy(target: string): FlakyProxy {
  let refuse = false;
  let refused = 0;
  const server = createServer((incoming, outgoing) => {
    if (refuse && incoming.url?.startsWith('/api/workspace/download')) {
      refuse = false;
      refused += 1;
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ status: false, error: 'Service unavailable (the test proxy refused this download)' }));
      return;
    }
    const upstream = request(`${target}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  return {
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    refuseNextDownload: () => (refuse = true),
    refused: () => refused,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      // A worker's long-poll claim would otherwise hold the close for its whole wait.
      server.closeAllConnections();
      await closed;
    },
  };
}
