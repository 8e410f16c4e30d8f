import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authCalls } from '@rehearse/contract';
import { createApiClient } from '@rehearse/api-client';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from './env.js';
import { decideStartMode } from './start-mode.js';
import { freePort } from './testing/ports.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');
const REFUSAL =
  'Tenant code cannot be sandboxed on this machine: bubblewrap is not installed (no bwrap on PATH in /usr/bin, /bin, /usr/local/bin, /usr/sbin, /sbin; Debian package "bubblewrap"). ' +
  'Rehearse would listen on 0.0.0.0, where anyone who reaches it could sign up and run code on this machine. ' +
  'Either give it a sandbox (install bubblewrap, or run the container image: docs/deploy.md), or set REHEARSE_UNSANDBOXED_WORKERS=1 to run jobs without one on a network you trust. ' +
  'Without HOST, Rehearse starts as a local single-user install on 127.0.0.1.';

describe('start mode on a machine that cannot sandbox', () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  const folder = (prefix: string) => {
    const made = mkdtempSync(path.join(tmpdir(), prefix));
    folders.push(made);
    return made;
  };
  const noSandbox = async () => ({ ok: false as const, missing: 'bubblewrap is not installed' });

  it('starts as a local single-user install unless HOST asks for more, and leaves a machine that can sandbox alone', async () => {
    const settings = loadSettings({ DATA_DIR: folder('rehearse-mode-') });
    expect((await decideStartMode(settings, {}, noSandbox)).settings).toMatchObject({
      HOST: '127.0.0.1',
      REHEARSE_UNSANDBOXED_WORKERS: true,
      localSingleUser: true,
    });
    expect((await decideStartMode({ ...settings, HOST: '127.0.0.1' }, { HOST: '127.0.0.1' }, noSandbox)).settings).toMatchObject({
      localSingleUser: true,
    });
    await expect(decideStartMode({ ...settings, HOST: '0.0.0.0' }, { HOST: '0.0.0.0' }, noSandbox)).rejects.toThrow(
      'Either give it a sandbox (install bubblewrap, or run the container image: docs/deploy.md), or set REHEARSE_UNSANDBOXED_WORKERS=1',
    );
    const trusted = { ...settings, REHEARSE_UNSANDBOXED_WORKERS: true };
    expect((await decideStartMode(trusted, { HOST: '0.0.0.0' }, noSandbox)).settings).toBe(trusted);
    expect(
      (await decideStartMode(settings, {}, async () => ({ ok: true, limits: 'cgroup v2', dropsUser: true, namesHost: true }))).settings,
    ).toBe(settings);
  });

  /** `npm start`'s server (main.ts) with a PATH that has node and git but no bubblewrap. */
  function startWithoutBubblewrap(env: Record<string, string>) {
    const bin = folder('rehearse-path-');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    symlinkSync('/usr/bin/git', path.join(bin, 'git'));
    const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
      env: {
        PATH: bin,
        HOME: folder('rehearse-home-'),
        DATA_DIR: folder('rehearse-data-'),
        WEB_DIST_DIR: '/nonexistent',
        LOG_LEVEL: 'warn',
        WORKER_PROCESSES: '1',
        LOCAL_WORKERS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  it(
    'serves one user on 127.0.0.1, says so at start and in its health answer, and refuses a second sign-up',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const server = startWithoutBubblewrap({ PORT: String(port) });
      try {
        const base = `http://127.0.0.1:${port}`;
        const deadline = Date.now() + 90_000;
        let health: Response | undefined;
        while (!health?.ok) {
          if (Date.now() > deadline) throw new Error(`not up: ${server.output()}`);
          health = await fetch(`${base}/api/health`).catch(() => undefined);
          if (!health?.ok) await new Promise((resolve) => setTimeout(resolve, 300));
        }
        expect(await health.json()).toMatchObject({ status: true, install: 'local-single-user' });
        expect(server.output()).toContain(
          'Local single-user install: this machine cannot sandbox test code (bubblewrap is not installed (no bwrap on PATH in',
        );
        // Not on any other address of this machine.
        const outside = Object.values(networkInterfaces())
          .flat()
          .find((address) => address && address.family === 'IPv4' && !address.internal);
        if (outside) await expect(fetch(`http://${outside.address}:${port}/api/health`)).rejects.toThrow();

        const api = createApiClient({ baseUrl: base, getToken: () => null });
        const body = (email: string) => ({ email, password: 'correct horse battery', firstname: 'Lap', lastname: 'Top' });
        expect((await api.call(authCalls.signup, { body: body('me@laptop.test') })).status).toBe(true);
        const second = await fetch(`${base}/api/auth/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body('colleague@laptop.test')),
        });
        expect([second.status, ((await second.json()) as { error: string }).error]).toEqual([
          403,
          'This Rehearse is a local single-user install (this machine cannot sandbox test code), and it has its user already. Run Rehearse on a server or in its container image to share it with a team.',
        ]);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    },
  );

  it('refuses to start on HOST=0.0.0.0 without a sandbox, naming both ways out', { timeout: 120_000 }, async () => {
    const server = startWithoutBubblewrap({ PORT: String(await freePort()), HOST: '0.0.0.0' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(REFUSAL);
  });
});
