/**
 * Runs inside a network namespace made by egress-netns.test.ts (loopback only, with the metadata
 * addresses on its `lo` and /etc/hosts names for them): listens on those addresses as a logger,
 * serves a "good" app on 127.0.0.1, then sends every door of the product that connects for a user
 * at every spelling of a metadata address. Prints one JSON line: what reached the logger, what
 * reached the good app, and each door's own verdicts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEgressProxy } from '@rehearse/egress';
import { createJobFolder, runJobProcess } from '@rehearse/processes';
import { RUNNER_BIN } from '../../processes/programs.js';
import { startRecorderProcess } from '../../recorder/recorder-process.js';
import { probe } from '../../recorder/reachability.js';
import { Git } from '../../workspace/git.js';

/** The metadata endpoints the namespace answers on, and the spellings a user may write for them. */
export const LOGGER_ADDRESSES = [
  { host: '169.254.169.254', port: 80 },
  { host: '169.254.169.254', port: 443 },
  { host: '100.100.100.200', port: 80 },
  { host: 'fd00:ec2::254', port: 80 },
];
export const METADATA_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0xA9FEA9FE/latest/meta-data/',
  'http://0251.0376.0251.0376/latest/meta-data/',
  'http://169.254.43518/latest/meta-data/',
  'https://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://100.100.100.200/latest/meta-data/',
  'http://metadata.evil.test/latest/meta-data/',
  'http://rebind.test/latest/meta-data/',
];
const GOOD_PORT = 8080;
const GOOD = `http://good.test:${GOOD_PORT}`;

const loggerHits: string[] = [];
const goodHits: string[] = [];

async function listenLogger({ host, port }: { host: string; port: number }): Promise<Server> {
  const server = createServer((socket) => {
    loggerHits.push(`${host}:${port}`);
    socket.destroy();
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ready());
  });
  return server;
}

function goodApp() {
  return createHttpServer((request, response) => {
    goodHits.push(request.url ?? '');
    const url = request.url ?? '/';
    if (url.startsWith('/redirect')) {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (url === '/subresources') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Subresources</title><h1>Good page</h1>
<img src="http://169.254.169.254/a.png"><img src="http://[::ffff:169.254.169.254]/b.png"><script src="http://2852039166/c.js"></script>
<iframe src="http://metadata.evil.test/"></iframe>
<script>
fetch('http://100.100.100.200/').catch(() => {});
try { new WebSocket('ws://169.254.169.254/socket'); } catch {}
setTimeout(() => { location.href = 'http://0xA9FEA9FE/latest/meta-data/'; }, 200);
</script>`);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Good</title><h1>Good page</h1>');
    }
  });
}

async function reachability(): Promise<Record<string, string>> {
  const verdicts: Record<string, string> = {};
  for (const url of [...METADATA_URLS, `${GOOD}/redirect`]) {
    const verdict = await probe(url, true, 3000);
    verdicts[url] = verdict.ok ? `ok ${verdict.statusCode}` : verdict.reason;
  }
  return verdicts;
}

async function recorder(proxyUrl: string): Promise<string[]> {
  const events: string[] = [];
  const process = await new Promise<ReturnType<typeof startRecorderProcess>>((resolve, reject) => {
    const started = startRecorderProcess(
      // A first page that leads to metadata is refused before the session starts (recorder.service
      // answers "not reachable"); the redirect is followed here as a navigation of a live session.
      { url: `${GOOD}/`, baseUrl: GOOD, viewport: { width: 800, height: 600 }, testData: [] },
      'egress-probe',
      proxyUrl,
      {
        onMessage: (message) => {
          if (message.type === 'ready') resolve(started);
          if (message.type === 'failed') events.push(`failed: ${message.message}`);
          if (message.type === 'page') events.push(`page ${JSON.stringify(message.page).slice(0, 120)}`);
        },
        onExit: (code, stderr) => {
          events.push(`exit ${code} ${stderr.slice(-300)}`);
          reject(new Error(`recorder exited ${code}: ${stderr.slice(-300)}`));
        },
      },
    );
  });
  events.push('ready');
  for (const url of [`${GOOD}/redirect`, ...METADATA_URLS, `${GOOD}/subresources`]) {
    process.send({ type: 'input', input: { kind: 'navigate', url } });
    await new Promise((resolve) => setTimeout(resolve, url.endsWith('subresources') ? 2500 : 400));
  }
  await process.stop(3000);
  return events;
}

async function runnerJob(policyAllowPrivate: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = await createJobFolder('egress-probe');
  const ws = path.join(dir, 'workspace');
  await mkdir(path.join(ws, 'features', 'step_definitions'), { recursive: true });
  await mkdir(path.join(ws, 'environments'));
  await writeFile(path.join(ws, 'environments', 'good.json'), JSON.stringify({ name: 'good', baseUrl: `${GOOD}/` }));
  const scenarios = [
    `  Scenario: Browser follows a redirect\n    Given I open "${GOOD}/redirect"\n`,
    `  Scenario: Browser loads subresources and navigates in the page\n    Given I open "${GOOD}/subresources"\n    Then I should see "Good page"\n`,
    ...METADATA_URLS.map((url, index) => `  Scenario: Browser opens spelling ${index}\n    Given I open "${url}"\n`),
    ...METADATA_URLS.map((url, index) => `  Scenario: API step to spelling ${index}\n    When I send a GET request to "${url}"\n`),
    `  Scenario: API step to the good app\n    When I send a GET request to "${GOOD}/api"\n    Then the response status should be 200\n`,
    `  Scenario: Step code opens raw sockets\n    Given step code connects straight to the metadata addresses\n`,
  ];
  await writeFile(path.join(ws, 'features', 'egress.feature'), `Feature: Egress\n\n${scenarios.join('\n')}`);
  await writeFile(
    path.join(ws, 'features', 'step_definitions', 'raw.mjs'),
    `import { Given } from '@cucumber/cucumber';
import net from 'node:net';
const attempt = (host, port) => new Promise((resolve) => {
  const socket = net.connect({ host, port, timeout: 2000 }, () => { socket.destroy(); resolve('connected'); });
  socket.on('error', (error) => resolve(error.code));
  socket.on('timeout', () => { socket.destroy(); resolve('timeout'); });
});
Given('step code connects straight to the metadata addresses', async function () {
  const results = [];
  for (const [host, port] of [['169.254.169.254', 80], ['100.100.100.200', 80], ['fd00:ec2::254', 80], ['127.0.0.1', ${GOOD_PORT}]]) results.push(host + ' ' + (await attempt(host, port)));
  try { await fetch('http://169.254.169.254/'); results.push('fetch answered'); } catch (error) { results.push('fetch ' + (error.cause?.code ?? error.message)); }
  this.attach(results.join('\\n'));
  console.log('RAW ' + results.join('; '));
});
`,
  );
  try {
    const result = await runJobProcess({
      mode: 'sandboxed',
      workDir: dir,
      cwd: ws,
      env: {},
      egress: { allowPrivate: policyAllowPrivate },
      timeoutMs: 240_000,
      runnerBin: RUNNER_BIN,
      nodeArgs: [
        RUNNER_BIN,
        'run',
        '--env',
        'environments/good.json',
        '--headless',
        '--out',
        path.join(dir, 'report'),
        'features/egress.feature',
      ],
    });
    return { code: result.code, stdout: result.stdout.slice(-6000), stderr: result.stderr.slice(-3000) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function gitRemotes(proxyUrl: string): Promise<Record<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'egress-git-'));
  const verdicts: Record<string, string> = {};
  try {
    const git = (await Git.initBare(dir)).forRemote({ username: 'u', token: 't' }, proxyUrl);
    for (const url of [...METADATA_URLS.map((u) => `${u}repo.git`), `${GOOD}/redirect/repo.git`]) {
      verdicts[url] = await git.lsRemote(url).then(
        () => 'listed',
        (error: Error) => `refused: ${error.message.slice(0, 120)}`,
      );
    }
    await git.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return verdicts;
}

async function main(): Promise<void> {
  const loggers = await Promise.all(LOGGER_ADDRESSES.map(listenLogger));
  const good = goodApp();
  await new Promise<void>((ready) => good.listen(GOOD_PORT, '127.0.0.1', () => ready()));
  const proxy = await startEgressProxy({ policy: { allowPrivate: true } });
  const doors: Record<string, unknown> = {};
  const only = process.argv[2];
  if (!only || only === 'reachability') doors.reachability = await reachability();
  if (!only || only === 'git') doors.git = await gitRemotes(proxy.url);
  if (!only || only === 'recorder') doors.recorder = await recorder(proxy.url);
  if (!only || only === 'runner') doors.runner = await runnerJob(true);
  doors.proxyRefusals = proxy.refusals().length;
  await proxy.close();
  for (const server of [good, ...loggers]) server.close();
  process.stdout.write(`EGRESS-RESULT ${JSON.stringify({ loggerHits, goodHits, doors })}\n`);
  process.exit(0);
}

await main();
