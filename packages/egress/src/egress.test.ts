import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetch, ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from './addresses.js';
import { EgressRefused, resolveAllowed, type Lookup } from './policy.js';
import { REFUSAL_HEADER, startEgressProxy, type EgressProxy } from './proxy.js';

describe('address classes', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.0.1', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['fe80::1%eth0', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['::169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['[::ffff:169.254.169.254]', 'metadata'],
    ['127.0.0.1', 'private'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['not an address', 'metadata'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

const table =
  (answers: Record<string, string[]>): Lookup =>
  async (host) => {
    const list = answers[host];
    if (!list) throw new Error(`ENOTFOUND ${host}`);
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('resolving under the rules', () => {
  const lookup = table({
    'shop.test': ['127.0.0.1'],
    'public.test': ['93.184.216.34'],
    'rebind.test': ['93.184.216.34', '169.254.169.254'],
    'mapped.test': ['::ffff:169.254.169.254'],
  });

  it('refuses metadata names and any name with one metadata address among good ones', async () => {
    for (const host of ['metadata.google.internal', 'METADATA.GOOG.', 'rebind.test', 'mapped.test', '169.254.169.254', '[fd00:ec2::254]']) {
      const error = await resolveAllowed(host, 80, { allowPrivate: true }, lookup).catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(EgressRefused);
      expect((error as EgressRefused).reason, host).toBe('metadata');
      expect((error as EgressRefused).message).toContain('cloud metadata or link-local address');
    }
  });

  it('lets private targets through only when allowed, or when they are the server itself', async () => {
    expect(await resolveAllowed('shop.test', 80, { allowPrivate: true }, lookup)).toEqual({ address: '127.0.0.1', family: 4 });
    const refused = await resolveAllowed('shop.test', 80, { allowPrivate: false }, lookup).catch((e: unknown) => e);
    expect((refused as EgressRefused).reason).toBe('private');
    const self = { allowPrivate: false, alwaysAllow: [{ address: '127.0.0.1', port: 3000 }] };
    expect((await resolveAllowed('shop.test', 3000, self, lookup)).address).toBe('127.0.0.1');
    expect(((await resolveAllowed('shop.test', 5432, self, lookup).catch((e: unknown) => e)) as EgressRefused).reason).toBe('private');
    expect((await resolveAllowed('public.test', 443, { allowPrivate: false }, lookup)).address).toBe('93.184.216.34');
    expect(
      ((await resolveAllowed('nowhere.test', 80, { allowPrivate: true }, lookup).catch((e: unknown) => e)) as EgressRefused).reason,
    ).toBe('unresolvable');
  });
});

describe('the egress proxy', () => {
  let target: Server;
  let targetPort: number;
  let proxy: EgressProxy;
  let answers: Record<string, string[]>;

  beforeAll(async () => {
    target = createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://metadata.test/latest/meta-data/' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.headers.host} ${req.url}`);
    });
    target.on('upgrade', (req, socket) => {
      socket.end('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n');
    });
    await new Promise<void>((ready) => target.listen(0, '127.0.0.1', ready));
    targetPort = (target.address() as AddressInfo).port;
    answers = { 'shop.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'] };
    proxy = await startEgressProxy({ policy: { allowPrivate: true }, lookup: async (host) => table(answers)(host) });
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((done) => target?.close(done));
  });

  it('tunnels to an allowed target and refuses a metadata one with 403 and the reason', async () => {
    const agent = new ProxyAgent(proxy.url);
    const ok = await fetch(`http://shop.test:${targetPort}/page`, { dispatcher: agent });
    expect(await ok.text()).toBe(`hello from shop.test:${targetPort} /page`);
    const refused = await fetch('http://metadata.test/latest/meta-data/', { dispatcher: agent }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(proxy.refusals().at(-1)).toEqual({ host: 'metadata.test', port: 80, reason: 'metadata' });
    await agent.close();
  });

  /** A plain http request sent to the proxy with its absolute URL, as a browser sends one. */
  const get = (url: string) =>
    new Promise<{ status: number; refused: boolean; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, refused: res.headers[REFUSAL_HEADER] === '1', body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('forwards plain http requests and answers a refused one itself, marked, and a redirect meets the same rules', async () => {
    expect(await get(`http://shop.test:${targetPort}/x?y=1`)).toEqual({
      status: 200,
      refused: false,
      body: `hello from shop.test:${targetPort} /x?y=1`,
    });
    const redirect = await get(`http://shop.test:${targetPort}/redirect`);
    expect(redirect.status).toBe(302);
    const followed = await get('http://metadata.test/latest/meta-data/');
    expect(followed).toMatchObject({ status: 403, refused: true });
    expect(followed.body).toBe('Refused by the egress rules: metadata.test is a cloud metadata or link-local address.');
  });

  it('carries many requests over one kept-alive connection to the target without adding a listener to it per request', async () => {
    // A page's requests reuse the proxy's pooled connection; each used to add a 'close' listener
    // to it, which Node reports at the eleventh (seen in CI as MaxListenersExceededWarning).
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    let connections = 0;
    const countConnection = () => (connections += 1);
    process.on('warning', onWarning);
    target.on('connection', countConnection);
    try {
      for (let i = 0; i < 15; i++) expect((await get(`http://shop.test:${targetPort}/asset-${i}`)).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
      target.off('connection', countConnection);
    }
    // The requests did share a connection (the case that leaked), and nothing warned.
    expect(connections).toBeLessThan(15);
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });

  it('checks each connection anew: a name that rebinds to metadata is refused on the next connection', async () => {
    answers['rebind.test'] = ['127.0.0.1'];
    const agent = new ProxyAgent(proxy.url);
    expect((await fetch(`http://rebind.test:${targetPort}/`, { dispatcher: agent })).status).toBe(200);
    await agent.close();
    answers['rebind.test'] = ['169.254.169.254'];
    const again = new ProxyAgent(proxy.url);
    await expect(fetch(`http://rebind.test:${targetPort}/`, { dispatcher: again })).rejects.toThrow();
    await again.close();
    expect(proxy.refusals().at(-1)).toMatchObject({ host: 'rebind.test', reason: 'metadata' });
  });

  it('refuses CONNECT tunnels and websocket upgrades to metadata addresses in every spelling a client may send', async () => {
    /** Sends a raw request to the proxy and returns the status line it answers. */
    const statusLine = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(proxy.port, '127.0.0.1', () => socket.write(head));
        let answer = '';
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString();
          if (answer.includes('\r\n')) {
            socket.destroy();
            resolve(answer.split('\r\n')[0]!);
          }
        });
        socket.on('error', reject);
      });
    const connectLine = (authority: string) => statusLine(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`);
    for (const authority of [
      '169.254.169.254:80',
      '[::ffff:169.254.169.254]:80',
      '[::ffff:a9fe:a9fe]:443',
      '[fd00:ec2::254]:80',
      '100.100.100.200:80',
      'metadata.google.internal:80',
      'metadata.test:443',
    ]) {
      expect(await connectLine(authority), authority).toBe('HTTP/1.1 403 Forbidden');
    }
    expect(await connectLine(`shop.test:${targetPort}`)).toBe('HTTP/1.1 200 Connection Established');
    const upgrade = (url: string) =>
      statusLine(
        `GET ${url} HTTP/1.1\r\nhost: ${new URL(url).host}\r\nconnection: upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
    expect(await upgrade('http://metadata.test/socket')).toBe('HTTP/1.1 403 Refused');
    expect(await upgrade(`http://shop.test:${targetPort}/socket`)).toBe('HTTP/1.1 101 Switching Protocols');
  });
});

describe('the relay a sandboxed job reaches the proxy through', () => {
  it('keeps nothing open once the job’s calls are answered, so the job ends when its work does', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-relay-'));
    const socketPath = path.join(dir, 'proxy.sock');
    const proxy = await startEgressProxy({ policy: { allowPrivate: true }, socketPath });
    // A server that keeps connections alive, as the Rehearse API does for the runner's calls.
    const server = createServer((_request, response) => response.end('answered'));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      // A job process: its fetches go through the relay (useEgressProxyFromEnv); once answered, what
      // still keeps its event loop alive is written down. A relay connection there held every
      // sandboxed `rehearse run --server` open for seconds after its work.
      const job = path.join(dir, 'job.mts');
      const client = fileURLToPath(new URL('./client.ts', import.meta.url));
      writeFileSync(
        job,
        `import { writeFileSync } from 'node:fs';
import { useEgressProxyFromEnv } from ${JSON.stringify(client)};
await useEgressProxyFromEnv();
const answer = await fetch('http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health');
const text = await answer.text();
await new Promise((resolve) => setTimeout(resolve, 100));
writeFileSync(${JSON.stringify(path.join(dir, 'after.json'))}, JSON.stringify({ text, alive: process.getActiveResourcesInfo() }));
`,
      );
      // No pipes to this test (stdio ignored): any pipe or socket left is the relay's.
      const child = spawn(process.execPath, ['--import', 'tsx', job], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, REHEARSE_EGRESS_SOCKET: socketPath },
        stdio: 'ignore',
      });
      expect(await new Promise((done) => child.on('close', done))).toBe(0);
      const after = JSON.parse(readFileSync(path.join(dir, 'after.json'), 'utf8')) as { text: string; alive: string[] };
      expect(after.text).toBe('answered');
      expect(after.alive.filter((resource) => resource === 'TCPSocketWrap' || resource === 'PipeWrap')).toEqual([]);
    } finally {
      await proxy.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a proxy that lives as long as its process', () => {
  it('does not keep a finished process alive when started with unref (the process-wide job proxy)', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-unref-'));
    try {
      const script = path.join(dir, 'owner.mts');
      const proxyModule = fileURLToPath(new URL('./proxy.ts', import.meta.url));
      // A process (a bench, a server under test) that starts the proxy, uses it once and never closes it.
      writeFileSync(
        script,
        `import { startEgressProxy } from ${JSON.stringify(proxyModule)};
const proxy = await startEgressProxy({ policy: { allowPrivate: true }, socketPath: ${JSON.stringify(path.join(dir, 'proxy.sock'))}, unref: process.argv[2] === 'unref' });
const answer = await fetch(proxy.url + '/').catch(() => undefined);
console.log('started', typeof answer);
`,
      );
      // Whether the process ends within 4 s of its last line: counted from that line, not from the
      // spawn, since starting Node and compiling the module under tsx took over 6 s on a slow, busy
      // machine (a CI run found 'still running' there before the script had even used the proxy).
      const ends = (mode: string) =>
        new Promise<string>((done) => {
          const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
            cwd: fileURLToPath(new URL('..', import.meta.url)),
            stdio: ['ignore', 'pipe', 'ignore'],
          });
          let timer: NodeJS.Timeout | undefined;
          child.stdout.on('data', (chunk: Buffer) => {
            if (timer || !chunk.toString().includes('started')) return;
            timer = setTimeout(() => {
              child.kill('SIGKILL');
              done('still running');
            }, 4_000);
          });
          child.on('close', () => {
            clearTimeout(timer);
            done(timer ? 'ended' : 'ended before it used the proxy');
          });
        });
      expect(await ends('unref')).toBe('ended');
      // Without it, the proxy's listeners are what keeps the process running.
      expect(await ends('ref')).toBe('still running');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
