import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface GitHttpServer {
  /** URL of the bare repository `name.git` (created on demand with `createRepo`). */
  url(name: string): string;
  createRepo(name: string): string;
  root: string;
  requests: number;
  close(): Promise<void>;
}

/**
 * A real git remote for tests: bare repositories served by `git http-backend` (smart HTTP) on
 * loopback, behind HTTP basic auth with one username and token.
 */
export async function startGitHttpServer(credentials: { username: string; token: string }): Promise<GitHttpServer> {
  const root = mkdtempSync(path.join(tmpdir(), 'rehearse-remote-'));
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64')}`;
  const state = { requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests += 1;
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://git.test');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        REMOTE_USER: credentials.username,
        REMOTE_ADDR: '127.0.0.1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    request.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf('\r\n\r\n');
      const headerText = output.subarray(0, split).toString('utf8');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of headerText.split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else if (name) headers[name] = value;
      }
      response.writeHead(status, headers).end(output.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root,
    get requests() {
      return state.requests;
    },
    url: (name) => `http://127.0.0.1:${port}/${name}.git`,
    createRepo(name) {
      const dir = path.join(root, `${name}.git`);
      spawnSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', dir]);
      spawnSync('git', ['--git-dir', dir, 'config', 'http.receivepack', 'true']);
      return dir;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
