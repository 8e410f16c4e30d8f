import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '@rehearse/runner/testing/output';
import { REHEARSE_BIN, runCli } from './index.js';

const SERVER = 'http://rehearse.acme.test:4000';
const LINK = `rehearse://recorder?project_id=p1&env_name=staging.json&git_branch=main&feature_file=Checkout.feature&scenario_name=Pay+now&server=${encodeURIComponent(`${SERVER}/`)}&token=rhk_launch`;

describe("rehearse: the runner's commands and the recorder's, composed", () => {
  it('lists record beside run, pull and worker, and refuses an unknown command with the usage', async () => {
    const help = captureIo();
    expect(await runCli(['help'], help)).toBe(0);
    for (const command of ['rehearse run', 'rehearse pull', 'rehearse worker', 'rehearse record', 'rehearse setup'])
      expect(help.out()).toContain(command);
    const unknown = captureIo();
    expect(await runCli(['juggle'], unknown)).toBe(2);
    expect(unknown.err()).toContain('rehearse: Unknown command "juggle"');
  });

  it('hands record to the recorder, which names what it is missing', async () => {
    const io = captureIo();
    expect(await runCli(['record', '--server', SERVER], { ...io, env: {} })).toBe(2);
    expect(io.err()).toContain('rehearse record: --token and --env are required');
  });

  it('is the executable its bin starts', () => {
    expect(REHEARSE_BIN).toMatch(/packages\/cli\/bin\/rehearse\.mjs$/);
  });

  it('loads cucumber-js and Playwright only for the commands that run scenarios', { timeout: 60_000 }, async () => {
    // What a fresh `rehearse` process has loaded when it exits (both are CommonJS, so they are in
    // require.cache however they were imported). `pull` is half of every sandboxed job.
    const loaded = async (...args: string[]) => {
      const atExit = `import { createRequire } from 'node:module'; const cache = createRequire(process.execPath).cache;
        process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(cache))));`;
      const { stderr } = await new Promise<{ stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          ['--import', `data:text/javascript,${encodeURIComponent(atExit)}`, REHEARSE_BIN, ...args],
          (_error, _stdout, stderr) => resolve({ stderr }),
        ),
      );
      const files = JSON.parse(stderr.slice(stderr.lastIndexOf('LOADED ') + 7)) as string[];
      return ['@cucumber/cucumber', 'playwright-core'].filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));
    };
    expect(await loaded('--help')).toEqual([]);
    expect(await loaded('pull', '--server', 'http://127.0.0.1:9', '--project', 'p1', '--dir', 'here')).toEqual([]);
    // The check can fail: `run` loads both (before it finds no server to run against).
    expect(await loaded('run', '--server', 'http://127.0.0.1:9', '--project', 'p1')).toEqual(['@cucumber/cucumber', 'playwright-core']);
  });
});

describe.runIf(process.platform === 'linux')('rehearse setup: the desktop answers rehearse:// links with rehearse open', () => {
  const homes: string[] = [];
  afterAll(() => {
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  function freshHome() {
    const home = mkdtempSync(path.join(tmpdir(), 'rehearse-setup-'));
    homes.push(home);
    // XDG_* unset: the defaults under HOME are what a desktop session reads.
    return { home, env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' } };
  }

  it('registers a desktop entry that xdg-mime names as the handler, for the named servers only, and removes it again', async () => {
    const { home, env } = freshHome();
    mkdirSync(path.join(home, '.config'));
    writeFileSync(path.join(home, '.config', 'mimeapps.list'), '[Default Applications]\ntext/html=firefox.desktop\n');
    const io = captureIo();
    expect(await runCli(['setup', '--server', `${SERVER}/`], { ...io, env })).toBe(0);
    const entry = readFileSync(path.join(home, '.local', 'share', 'applications', 'rehearse-recorder.desktop'), 'utf8');
    expect(entry).toContain('MimeType=x-scheme-handler/rehearse;');
    // Plain words: xdg-open without a desktop session splits Exec on spaces and does not unquote.
    expect(entry).toMatch(/^Exec=\/\S*node \/\S*rehearse\.mjs open --allow-server http:\/\/rehearse\.acme\.test:4000 %u$/m);
    expect(readFileSync(path.join(home, '.config', 'mimeapps.list'), 'utf8')).toContain('text/html=firefox.desktop');

    // The desktop's own tool agrees (it reads the same files a browser's "open link" does).
    const query = () =>
      new Promise<string>((resolve) =>
        execFile('xdg-mime', ['query', 'default', 'x-scheme-handler/rehearse'], { env }, (_error, stdout) => resolve(stdout.trim())),
      );
    const hasXdgMime = await new Promise<boolean>((resolve) => execFile('xdg-mime', ['--version'], (error) => resolve(!error)));
    if (hasXdgMime) expect(await query()).toBe('rehearse-recorder.desktop');

    expect(await runCli(['setup', '--remove'], { ...captureIo(), env })).toBe(0);
    expect(readFileSync(path.join(home, '.config', 'mimeapps.list'), 'utf8')).toBe('[Default Applications]\ntext/html=firefox.desktop\n');
    if (hasXdgMime) expect(await query()).toBe('');
  });

  it('is what xdg-open runs for a rehearse:// link: the link becomes a rehearse record of that server', { timeout: 60_000 }, async () => {
    const hasXdgOpen = await new Promise<boolean>((resolve) => execFile('xdg-open', ['--version'], (error) => resolve(!error)));
    if (!hasXdgOpen) return;
    const { env } = freshHome();
    // A server that is not there: the recorder starts, asks it, and says it did not answer.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const server = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    expect(await runCli(['setup', '--server', server], { ...captureIo(), env })).toBe(0);
    const link = `rehearse://recorder?project_id=p1&env_name=staging.json&server=${encodeURIComponent(server)}&token=rhk_launch`;
    // Without a desktop session xdg-open takes its generic path, which needs a display name only.
    const opened = await new Promise<string>((resolve) =>
      execFile('xdg-open', [link], { env: { ...env, DISPLAY: ':99' }, timeout: 50_000 }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`),
      ),
    );
    expect(opened).toContain(`Opening the recorder: rehearse record --server ${server} --env staging --project p1`);
    expect(opened).toContain('rehearse: the server did not answer (ECONNREFUSED');
  });

  it('will not register without a server to trust, and open refuses a link to another server', async () => {
    const { env } = freshHome();
    const setup = captureIo();
    expect(await runCli(['setup'], { ...setup, env })).toBe(2);
    expect(setup.err()).toContain('rehearse setup needs --server: links are followed only to the servers you name');
    const open = captureIo();
    const elsewhere = LINK.replace(encodeURIComponent(`${SERVER}/`), encodeURIComponent('https://evil.example'));
    expect(await runCli(['open', '--allow-server', SERVER, elsewhere], { ...open, env })).toBe(2);
    expect(open.err()).toContain("which is not one of this handler's servers");
  });
});
