import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_UID_CLAIMS, jobUidRange } from './job-uids.js';
import {
  createJobFolder,
  probeSandbox,
  requireSandbox,
  runJobProcess,
  startJobProcess,
  UNSANDBOXED_VARIABLE,
  usableBrowserCache,
} from './sandbox.js';

// These tests run real bubblewrap and real cgroups: they prove what a job's process can and cannot
// see, not what our argument list looks like.

let root: string;
let secretDir: string;
let otherJob: string;
let job: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rehearse-sandbox-test-'));
  secretDir = path.join(root, 'data');
  otherJob = path.join(root, 'jobs', 'other');
  job = await createJobFolder('sandbox-test');
  await mkdir(secretDir, { recursive: true });
  await mkdir(otherJob, { recursive: true });
  await writeFile(path.join(secretDir, 'secret.key'), 'server-key\n');
  await writeFile(path.join(otherJob, 'steps.mjs'), 'other tenant\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(job, { recursive: true, force: true });
});

/** Runs a script in the job sandbox and answers what it printed as JSON. */
async function probeInside(script: string, extra: Partial<Parameters<typeof runJobProcess>[0]> = {}) {
  await writeFile(path.join(job, 'probe.mjs'), script);
  const result = await runJobProcess({
    mode: 'sandboxed',
    workDir: job,
    cwd: job,
    nodeArgs: [path.join(job, 'probe.mjs')],
    env: { REHEARSE_TOKEN: 'rhk_job' },
    timeoutMs: 60_000,
    ...extra,
  });
  return result;
}

const ATTEMPTS = `
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
const tryIt = (fn) => { try { return 'GOT ' + String(fn()).slice(0, 40); } catch (e) { return e.code ?? e.message; } };
console.log(JSON.stringify({
  uid: process.getuid(),
  env: Object.keys(process.env).sort(),
  secretKey: tryIt(() => readFileSync(${JSON.stringify('SECRET')}, 'utf8')),
  otherJob: tryIt(() => readFileSync(${JSON.stringify('OTHER')}, 'utf8')),
  shadow: tryIt(() => readFileSync('/etc/shadow', 'utf8')),
  rootHome: tryIt(() => readdirSync('/root')),
  writeUsr: tryIt(() => writeFileSync('/usr/rehearse-escape', 'x')),
  writeOutside: tryIt(() => writeFileSync(${JSON.stringify('OUTSIDE')}, 'x')),
  writeOwn: tryIt(() => { writeFileSync('own.txt', 'mine'); return 'ok'; }),
  parentEnviron: tryIt(() => readFileSync('/proc/1/environ', 'utf8')),
  processes: readdirSync('/proc').filter((entry) => /^\\d+$/.test(entry)).length,
}));
`;

describe('the job sandbox', () => {
  it('is available on this machine (bubblewrap, user namespaces, a cgroup)', async () => {
    const probe = await probeSandbox();
    expect(probe).toMatchObject({ ok: true });
    await expect(requireSandbox({})).resolves.toBe('sandboxed');
  });

  it("keeps a job away from the server's key, other jobs, /etc/shadow and the host's environment", async () => {
    process.env.SMTP_URL = 'smtp://canary:canary@mail.invalid';
    const script = ATTEMPTS.replace('SECRET', path.join(secretDir, 'secret.key'))
      .replace('OTHER', path.join(otherJob, 'steps.mjs'))
      .replace('OUTSIDE', path.join(root, 'escaped.txt'));
    const result = await probeInside(script);
    delete process.env.SMTP_URL;
    expect(result.stderr).toBe('');
    // The job's cgroup counted its CPU.
    expect(result.cpuSeconds).toBeGreaterThan(0);
    const seen = JSON.parse(result.stdout.trim());
    expect(seen.uid).toBe(65534);
    expect(seen.env).not.toContain('SMTP_URL');
    expect(seen.env).toContain('REHEARSE_TOKEN');
    const allowed = [
      'PATH',
      'PWD',
      'HOME',
      'TMPDIR',
      'LANG',
      'NO_COLOR',
      'REHEARSE_TOKEN',
      'REHEARSE_NO_SANDBOX',
      'PLAYWRIGHT_BROWSERS_PATH',
      'CHROMIUM_PATH',
      'CHROMIUM_HEADLESS_SHELL_PATH',
      'REHEARSE_HEADLESS_SHELL',
      'TZ',
    ];
    expect((seen.env as string[]).filter((name) => !allowed.includes(name))).toEqual([]);
    expect(seen.secretKey).toBe('ENOENT');
    expect(seen.otherJob).toBe('ENOENT');
    expect(seen.shadow).toBe('ENOENT');
    expect(seen.rootHome).toBe('ENOENT');
    expect(seen.writeUsr).toBe('EROFS');
    expect(seen.writeOwn).toBe('GOT ok');
    // Its own pid namespace: process 1 is the job's, and few processes are visible.
    expect(seen.parentEnviron).not.toMatch(/SMTP_URL/);
    expect(seen.processes).toBeLessThan(5);
    expect(existsSync(path.join(root, 'escaped.txt'))).toBe(false);
    expect(existsSync('/usr/rehearse-escape')).toBe(false);
    expect(existsSync(path.join(job, 'own.txt'))).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)(
    'runs each job as a host uid of its own, so a job that escaped still finds the next job closed',
    async () => {
      const range = jobUidRange();
      const folders = [await createJobFolder('uid-a'), await createJobFolder('uid-b')];
      // Each job keeps a secret in its folder and waits: both run at once.
      const jobs = await Promise.all(
        folders.map(async (folder) => {
          await writeFile(
            path.join(folder, 'wait.mjs'),
            "import { writeFileSync } from 'node:fs';\nwriteFileSync('secret.txt', 'mine');\nconsole.log('ready');\nprocess.stdin.resume();\n",
          );
          const live = await startJobProcess({
            mode: 'sandboxed',
            workDir: folder,
            cwd: folder,
            nodeArgs: [path.join(folder, 'wait.mjs')],
            env: {},
          });
          await new Promise<void>((ready) => live.onLine((line) => line === 'ready' && ready()));
          return live;
        }),
      );
      const owners = folders.map((folder) => statSync(folder));
      const uids = owners.map((info) => info.uid);
      try {
        expect(new Set(uids).size).toBe(2);
        for (const info of owners) {
          expect(info.uid).toBeGreaterThanOrEqual(range.first);
          expect(info.uid).toBeLessThan(range.first + range.count);
          expect(info.mode & 0o777).toBe(0o700);
          expect(info.uid).not.toBe(65534);
        }
        // An escape: job A's host user, outside any sandbox, reaching for job B's folder.
        const escaped = await new Promise<string>((resolve) =>
          execFile(
            '/usr/bin/setpriv',
            [`--reuid=${uids[0]}`, `--regid=${uids[0]}`, '--clear-groups', '--', '/bin/cat', path.join(folders[1]!, 'secret.txt')],
            (error, stdout, stderr) => resolve(error ? stderr : `READ ${stdout}`),
          ),
        );
        expect(escaped).toMatch(/Permission denied/);
      } finally {
        for (const live of jobs) live.end();
        await Promise.all(jobs.map((live) => live.exited));
        await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
      }
      // Both uids were given back.
      for (const uid of uids) expect(existsSync(path.join(JOB_UID_CLAIMS, String(uid)))).toBe(false);
    },
  );

  it('hides a folder that sits inside the code the job reads (DATA_DIR inside the checkout)', async () => {
    const inCheckout = path.resolve(import.meta.dirname, '../.data-sandbox-test');
    await mkdir(inCheckout, { recursive: true });
    await writeFile(path.join(inCheckout, 'secret.key'), 'k');
    try {
      const script = `import { readdirSync } from 'node:fs'; console.log(JSON.stringify(readdirSync(${JSON.stringify(inCheckout)})));`;
      const visible = await probeInside(script);
      const hidden = await probeInside(script, { hidden: [inCheckout] });
      expect(visible.stdout).toContain('secret.key');
      expect(hidden.stdout.trim()).toBe('[]');
    } finally {
      await rm(inCheckout, { recursive: true, force: true });
    }
  });

  it('stops a job that forks without end at its task limit', async () => {
    const script = `
      import { spawn } from 'node:child_process';
      let started = 0, refused = '';
      for (let i = 0; i < 200 && !refused; i++) {
        try { const c = spawn('/usr/bin/sleep', ['30']); c.on('error', (e) => { refused ||= e.code; }); started++; } catch (e) { refused = e.code; }
        await new Promise((r) => setTimeout(r, 5));
      }
      console.log(JSON.stringify({ started, refused }));
      process.exit(0);
    `;
    const result = await probeInside(script, { limits: { memoryBytes: 512 * 1024 ** 2, tasks: 40 } });
    const seen = JSON.parse(result.stdout.trim());
    expect(seen.refused).toBe('EAGAIN');
    expect(seen.started).toBeLessThan(40);
  });

  it('kills a job that outgrows its memory limit', async () => {
    const script = `const keep = []; for (;;) { keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); }`;
    const result = await probeInside(script, { limits: { memoryBytes: 256 * 1024 ** 2, tasks: 64 } });
    expect(result.code).not.toBe(0);
    expect(result.timedOut).toBe(false);
  });

  it('kills the whole job at its deadline, children included', async () => {
    const script = `
      import { spawn } from 'node:child_process';
      import { writeFileSync } from 'node:fs';
      const child = spawn('/usr/bin/sleep', ['300'], { detached: true, stdio: 'ignore' });
      writeFileSync('child.pid', String(child.pid));
      setInterval(() => {}, 1000);
    `;
    const started = Date.now();
    const result = await probeInside(script, { timeoutMs: 3_000 });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    // No `sleep 300` of ours is left on the host, whichever job uid ran it.
    const { spawnSync } = await import('node:child_process');
    // The group kill is a signal: give the kernel a moment to take the process away.
    await expect
      .poll(() => spawnSync('/usr/bin/pgrep', ['-f', '^/usr/bin/sleep 300$']).stdout.toString().trim(), { timeout: 3000 })
      .toBe('');
  });

  it('refuses to run without the sandbox, naming the missing piece, unless the operator says so', async () => {
    const missing = { bwrap: '/nonexistent/bwrap' };
    await expect(requireSandbox({}, missing)).rejects.toThrow(
      'Tenant code cannot be sandboxed on this machine: bubblewrap is not installed (/nonexistent/bwrap; Debian package "bubblewrap"). Install what is missing, or set REHEARSE_UNSANDBOXED_WORKERS=1',
    );
    await expect(requireSandbox({ [UNSANDBOXED_VARIABLE]: '1' }, missing)).resolves.toBe('unsandboxed');
  });
});

describe("Playwright's browser cache in a job", () => {
  it('is bound only when it holds a browser that the job user can reach', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'rehearse-cache-'));
    try {
      await chmod(root, 0o755);
      const cache = path.join(root, 'ms-playwright');
      // What an npx run of playwright leaves behind: the registry of links, no browser.
      await mkdir(path.join(cache, '.links'), { recursive: true });
      await chmod(cache, 0o755);
      expect(usableBrowserCache(cache)).toBe(false);
      await mkdir(path.join(cache, 'chromium_headless_shell-1200'));
      expect(usableBrowserCache(cache)).toBe(true);
      // Under a private HOME (root's is 0700), nobody cannot reach it: bubblewrap would refuse to start.
      await chmod(root, 0o700);
      expect(usableBrowserCache(cache)).toBe(false);
      expect(usableBrowserCache(path.join(root, 'missing'))).toBe(false);
    } finally {
      await chmod(root, 0o755);
      await rm(root, { recursive: true, force: true });
    }
  });
});
