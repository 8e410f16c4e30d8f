import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { chmodSync } from 'node:fs';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { EgressRefused, resolveAllowed, type EgressPolicy, type Lookup } from './policy.js';

/** Header on a plain-HTTP refusal, so a browser step can tell the proxy's answer from the site's. */
export const REFUSAL_HEADER = 'x-rehearse-egress-refused';

/** How long a connection to a target may take to open. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface EgressRefusal {
  host: string;
  port: number;
  reason: EgressRefused['reason'];
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`: for Chromium's --proxy-server and an undici ProxyAgent. */
  url: string;
  port: number;
  /** Refusals so far, oldest first (the last 1,000). */
  refusals(): EgressRefusal[];
  close(): Promise<void>;
}

/** `host:port` of a CONNECT line (IPv6 in brackets); null when it is not one. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.%]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1]!, port } : null;
}

/** Hop-by-hop headers are the proxy's business, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardedHeaders(request: IncomingMessage, keepUpgrade: boolean): Record<string, string | string[]> {
  const named = new Set(
    String(request.headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((name) => name.trim()),
  );
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const upgradeHeader = keepUpgrade && (name === 'upgrade' || name === 'connection');
    if (!upgradeHeader && (HOP_BY_HOP.has(name) || named.has(name))) continue;
    headers[name] = value;
  }
  return headers;
}

function refusalText(error: unknown): { status: number; text: string } {
  if (error instanceof EgressRefused) return { status: 403, text: error.message };
  return { status: 502, text: `The egress proxy could not reach the target: ${error instanceof Error ? error.message : String(error)}` };
}

/**
 * This process's proxied connections, by their local end (`address|port`), naming the proxy they
 * went out through. A server in the same process asks `egressClientOf` about a request's peer: job
 * traffic reaches it from here, and must never count as a trusted proxy hop whose
 * `X-Forwarded-For` names the client (step code would pick its own address).
 */
const proxiedConnections = new Map<string, string>();

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) and plain IPv4 name the same end. */
const endKey = (address: string, port: number) => `${address.replace(/^::ffff:/i, '')}|${port}`;

/** Sockets already marked: a kept-alive one carries many requests, and is marked (and listened to) once. */
const markedSockets = new WeakSet<Socket>();

function markProxied(socket: Socket, identity: string): void {
  if (markedSockets.has(socket)) return;
  markedSockets.add(socket);
  const remember = () => {
    if (socket.localAddress === undefined || socket.localPort === undefined) return;
    const key = endKey(socket.localAddress, socket.localPort);
    proxiedConnections.set(key, identity);
    socket.once('close', () => {
      if (proxiedConnections.get(key) === identity) proxiedConnections.delete(key);
    });
  };
  if (socket.localPort !== undefined) remember();
  else socket.once('connect', remember);
}

/**
 * The egress proxy a connection from `address:port` came out of, when it is one of this process's
 * proxied connections (`egress:<proxy port>`); undefined for any other peer.
 */
export function egressClientOf(address: string | undefined, port: number | undefined): string | undefined {
  if (address === undefined || port === undefined) return undefined;
  return proxiedConnections.get(endKey(address, port));
}

function openTarget(address: string, port: number, identity: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, timeout: CONNECT_TIMEOUT_MS });
    markProxied(socket, identity);
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('timeout', () => socket.destroy(new Error(`connecting to port ${port} timed out`)));
    socket.once('error', reject);
  });
}

/** Joins two connections both ways; either end closing or failing closes the other. */
export function pipeBoth(a: Duplex, b: Duplex): void {
  a.pipe(b).on('error', () => a.destroy());
  b.pipe(a).on('error', () => b.destroy());
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
}

/**
 * A forward proxy that applies the egress rules to the address each connection actually goes to:
 * CONNECT tunnels (https, wss), absolute-URI requests (http) and their websocket upgrades. Every
 * connection resolves its host once, checks every address, and connects to that literal address,
 * so a redirect, a subresource or a rebinding name meets the same rules as the first request.
 * It listens on loopback only and relays bytes; it never reads a tunnel's content.
 */
export async function startEgressProxy(options: {
  policy: EgressPolicy;
  lookup?: Lookup;
  host?: string;
  /** Also accept connections on this unix socket (what a network-less sandbox is given). */
  socketPath?: string;
  /**
   * Its listeners do not keep the process alive (a process-wide proxy that lives as long as the
   * process: nothing closes it, so it must not be what keeps a finished process running).
   */
  unref?: boolean;
}): Promise<EgressProxy> {
  const refusals: EgressRefusal[] = [];
  const sockets = new Set<Socket>();
  // Known once the proxy listens; no connection goes out before that.
  let identity = 'egress';
  // Its own connection pool: a pooled socket marked as proxied must never carry the process's own requests.
  const agent = new HttpAgent({ keepAlive: true });
  const resolve = async (host: string, port: number) => {
    try {
      return await resolveAllowed(host, port, options.policy, options.lookup);
    } catch (error) {
      if (error instanceof EgressRefused) {
        refusals.push({ host, port, reason: error.reason });
        if (refusals.length > 1000) refusals.shift();
      }
      throw error;
    }
  };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      let target: URL;
      try {
        target = new URL(request.url ?? '');
        if (target.protocol !== 'http:') throw new Error('not an absolute http URL');
      } catch {
        response
          .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
          .end('This is an egress proxy: send absolute http:// URLs or CONNECT.');
        return;
      }
      const port = Number(target.port || 80);
      let address: string;
      try {
        ({ address } = await resolve(target.hostname, port));
      } catch (error) {
        const { status, text } = refusalText(error);
        response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', [REFUSAL_HEADER]: '1' }).end(text);
        return;
      }
      const upstream = httpRequest({
        host: address,
        port,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: forwardedHeaders(request, false),
        setHost: false,
        agent,
        timeout: CONNECT_TIMEOUT_MS,
      });
      upstream.on('socket', (socket: Socket) => markProxied(socket, identity));
      upstream.once('timeout', () => upstream.destroy(new Error('the target did not answer in time')));
      upstream.on('response', (answer) => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(response);
      });
      upstream.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(refusalText(error).text);
        else response.destroy();
      });
      request.pipe(upstream);
    })();
  });

  // https and wss: a byte tunnel to the checked address.
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => undefined);
    const authority = parseAuthority(request.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    void (async () => {
      try {
        const { address } = await resolve(authority.host, authority.port);
        const upstream = await openTarget(address, authority.port, identity);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        pipeBoth(client, upstream);
      } catch (error) {
        const { status, text } = refusalText(error);
        client.end(
          `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\n${REFUSAL_HEADER}: 1\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      }
    })();
  });

  // ws:// through the proxy: the upgrade request goes to the checked address, then bytes flow.
  server.on('upgrade', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => undefined);
    void (async () => {
      try {
        const target = new URL(request.url ?? '');
        const port = Number(target.port || 80);
        const { address } = await resolve(target.hostname, port);
        const upstream = await openTarget(address, port, identity);
        const headers = forwardedHeaders(request, true);
        const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
        for (const [name, value] of Object.entries(headers)) for (const one of [value].flat()) lines.push(`${name}: ${one}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        pipeBoth(client, upstream);
      } catch (error) {
        const { status, text } = refusalText(error);
        client.end(`HTTP/1.1 ${status} Refused\r\n${REFUSAL_HEADER}: 1\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
      }
    })();
  });

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, options.host ?? '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  identity = `egress:${port}`;
  // The socket's connections are served by the same HTTP server as the TCP port's.
  const socketServer = options.socketPath ? createNetServer((socket) => server.emit('connection', socket)) : null;
  if (socketServer) {
    await new Promise<void>((ready, fail) => {
      socketServer.once('error', fail);
      socketServer.listen(options.socketPath, () => ready());
    });
    // The sandbox user (nobody) connects to it.
    chmodSync(options.socketPath!, 0o666);
  }
  if (options.unref) {
    server.unref();
    socketServer?.unref();
  }
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    refusals: () => [...refusals],
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        socketServer?.close();
        server.close(() => done());
      }),
  };
}
