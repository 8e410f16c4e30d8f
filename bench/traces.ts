/**
 * Traces bench (issue 20): the same 20-step scenario against the demo shop, as whole processes,
 * through `rehearse run` (the built package, as users install it, with its default capture:
 * a screenshot per command, network, console, ARIA) and through Playwright Test (the same 20
 * actions in one test), each with `trace: retain-on-failure` (the scenario passes, so both record
 * and drop the trace) and with `trace: on` (both write it). Wall time and CPU (user + system of
 * the process and every child it reaped: Node, the test worker, Chromium) come from GNU time;
 * the pairs are interleaved and medians compared. Both use the same Chromium executable, flags
 * aside.
 *
 *   npx tsx bench/traces.ts [--reps 5] [--json]      (also part of `npm run bench`)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRunnerPackage } from '@rehearse/cli/pack';
import { findBrowserExecutable } from '../packages/runner/src/browser.js';
import { makeWorkspace, startDemoShop } from '../packages/runner/src/testing/shop-workspace.js';
import { ACTIONS, FEATURE } from '../packages/runner/bench/twenty-steps.js';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const REPS = Math.max(1, Number(values.reps));
const REPO = fileURLToPath(new URL('../', import.meta.url));
const MODES = ['retain-on-failure', 'on'] as const;
type Mode = (typeof MODES)[number];

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs `argv` under GNU time; answers its wall and CPU (children included). */
function timed(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const report = path.join(mkdtempSync(path.join(tmpdir(), 'rehearse-bench-time-')), 'time.txt');
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/time',
      ['-f', '%e %U %S', '-o', report, ...argv],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${argv.join(' ')} failed:\n${stdout}\n${stderr}`));
        const [wall, user, system] = readFileSync(report, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        rmSync(path.dirname(report), { recursive: true, force: true });
        resolve({ wallMs: wall! * 1000, cpuMs: (user! + system!) * 1000 });
      },
    );
  });
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The built runner package unpacked beside the repository's node_modules (its dependencies). */
async function installedRunner(root: string): Promise<string> {
  const { tarball } = await buildRunnerPackage();
  await new Promise<void>((resolve, reject) =>
    execFile('tar', ['xzf', tarball, '-C', root], (error) => (error ? reject(new Error(error.message)) : resolve())),
  );
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'package', 'node_modules'));
  return path.join(root, 'package', 'bin', 'rehearse.mjs');
}

/** A Playwright Test project with the same 20 actions in one test. */
function playwrightProject(root: string, base: string, executablePath: string): string {
  const dir = path.join(root, 'pw');
  mkdirSync(dir);
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  const calls = ACTIONS.map(([step, act]) => `  // ${step}\n  await (${act.toString()})(page, ${JSON.stringify(base)});`).join('\n');
  writeFileSync(
    path.join(dir, 'twenty.spec.mjs'),
    `import { test } from '@playwright/test';\n\ntest('Twenty steps', async ({ page }) => {\n${calls}\n});\n`,
  );
  writeFileSync(
    path.join(dir, 'playwright.config.mjs'),
    `export default {
  testDir: '.',
  workers: 1,
  reporter: 'dot',
  outputDir: 'test-results',
  use: {
    trace: process.env.BENCH_TRACE,
    viewport: { width: 1024, height: 768 },
    headless: true,
    launchOptions: { executablePath: ${JSON.stringify(executablePath)}, args: ['--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage', '--no-sandbox'] },
  },
};
`,
  );
  return dir;
}

if (!existsSync('/usr/bin/time')) throw new Error('This bench times whole processes with GNU time: apt-get install -y time');
const root = mkdtempSync(path.join(tmpdir(), 'rehearse-bench-traces-'));
const shop = await startDemoShop(50);
try {
  const executablePath = findBrowserExecutable('chromium', process.env, true);
  if (!executablePath) throw new Error('No Chromium for the bench');
  const rehearse = await installedRunner(root);
  const ws = makeWorkspace({ baseUrl: shop.baseUrl, feature: FEATURE, steps: '', config: { commandTimeoutMs: 10_000 } });
  const pw = playwrightProject(root, shop.baseUrl, executablePath);
  const env = { ...process.env, CHROMIUM_PATH: executablePath, NODE_OPTIONS: '' };
  const ours = (mode: Mode) =>
    timed([process.execPath, rehearse, 'run', '--headless', '--trace', mode, '--out', path.join(root, 'out')], ws, env);
  const theirs = (mode: Mode) =>
    timed(
      [process.execPath, path.join(REPO, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', 'playwright.config.mjs'],
      pw,
      { ...env, BENCH_TRACE: mode },
    );
  const samples = Object.fromEntries(
    MODES.flatMap((mode) => [
      [`ours:${mode}`, [] as Sample[]],
      [`playwright:${mode}`, [] as Sample[]],
    ]),
  ) as Record<string, Sample[]>;
  // One untimed round of each: disk caches and the first Chromium start.
  for (const mode of MODES) {
    await ours(mode);
    await theirs(mode);
  }
  const load = [loadavg()[0]!];
  for (let rep = 0; rep < REPS; rep++) {
    for (const mode of MODES) {
      samples[`ours:${mode}`]!.push(await ours(mode));
      samples[`playwright:${mode}`]!.push(await theirs(mode));
    }
  }
  load.push(loadavg()[0]!);
  const result = {
    reps: REPS,
    loadAverage: load.map((value) => +value.toFixed(2)),
    medians: Object.fromEntries(
      Object.entries(samples).map(([key, list]) => [
        key,
        { wallMs: Math.round(median(list.map((s) => s.wallMs))), cpuMs: Math.round(median(list.map((s) => s.cpuMs))) },
      ]),
    ),
    ratios: Object.fromEntries(
      MODES.map((mode) => {
        const a = samples[`ours:${mode}`]!;
        const b = samples[`playwright:${mode}`]!;
        return [
          mode,
          {
            wall: +(median(a.map((s) => s.wallMs)) / median(b.map((s) => s.wallMs))).toFixed(2),
            cpu: +(median(a.map((s) => s.cpuMs)) / median(b.map((s) => s.cpuMs))).toFixed(2),
          },
        ];
      }),
    ),
  };
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `traces, 20-step scenario, whole processes, median of ${REPS}, load average ${result.loadAverage.join(' → ')}: ${JSON.stringify(result.medians)}`,
    );
    for (const mode of MODES) {
      console.log(
        `  trace ${mode}: rehearse run ${result.ratios[mode]!.wall}× the wall and ${result.ratios[mode]!.cpu}× the CPU of Playwright Test (target ≤ 1.0 with traces on)`,
      );
    }
  }
} finally {
  await shop.app.close();
  rmSync(root, { recursive: true, force: true });
}
