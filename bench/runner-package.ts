/**
 * Runner package bench (issue 18): the tarball's size, a cold `npm install <url>` of it into an
 * empty folder (fresh npm cache, so every dependency comes from the registry), and `rehearse run`
 * start-up — process start to the first step — from the installed package against today's tsx
 * start-up from the TypeScript source (medians of several runs each).
 *
 *   npx tsx bench/runner-package.ts [--reps 5] [--json]     (also part of `npm run bench`)
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerDownloadPath } from '@rehearse/contract';
import { buildRunnerPackage } from '@rehearse/cli/pack';
import { startTestApp } from '../apps/server/src/testing/test-app.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_BIN = path.join(REPO, 'packages', 'runner', 'bin', 'rehearse.mjs');
const args = process.argv.slice(2);
const REPS = Number(args[args.indexOf('--reps') + 1] ?? '') || 5;
const LIMIT_BYTES = 2 * 1024 * 1024;

function exec(command: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A one-scenario workspace whose first step writes the time it ran: start-up is that minus the spawn time. */
function workspace(dir: string, stampFile: string): void {
  mkdirSync(path.join(dir, 'features', 'step_definitions'), { recursive: true });
  mkdirSync(path.join(dir, 'environments'), { recursive: true });
  writeFileSync(path.join(dir, 'environments', 'local.json'), JSON.stringify({ name: 'local', baseUrl: 'about:blank' }));
  writeFileSync(path.join(dir, 'rehearse.config.json'), JSON.stringify({ screenshots: 'off' }));
  writeFileSync(path.join(dir, 'features', 'start.feature'), 'Feature: Start\n  Scenario: First step\n    Given the first step runs\n');
  writeFileSync(
    path.join(dir, 'features', 'step_definitions', 'start.mjs'),
    `import { writeFileSync } from 'node:fs';\nimport { Given } from '@cucumber/cucumber';\nimport { context } from '@rehearse/runner';\n\nGiven('the first step runs', function () {\n  void context;\n  writeFileSync(${JSON.stringify(stampFile)}, String(Date.now()));\n});\n`,
  );
}

async function startUp(bin: string, cwd: string, stampFile: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = Date.now();
  const result = await exec(
    process.execPath,
    [bin, 'run', '--env', 'environments/local.json', '--headless', '--out', path.join(cwd, 'out')],
    cwd,
    env,
  );
  if (result.code !== 0) throw new Error(`rehearse run failed (${result.code}):\n${result.out}`);
  return Number(readFileSync(stampFile, 'utf8')) - started;
}

const built = await buildRunnerPackage();
const test = await startTestApp('pglite');
await test.app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}${runnerDownloadPath('latest')}`;
const scratch = mkdtempSync('/tmp/rehearse-bench-package-');
try {
  const load = loadavg()[0]!;
  const home = path.join(scratch, 'home');
  const install = path.join(scratch, 'install');
  mkdirSync(home);
  mkdirSync(install);
  const cleanEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CI: 'true',
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  };
  const installStarted = Date.now();
  const installed = await exec('npm', ['install', '--no-save', '--no-audit', '--no-fund', url], install, cleanEnv);
  const installMs = Date.now() - installStarted;
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.out}`);

  // The built package's workspace sits under its install (as the CI instructions lay it out); the
  // source's sits outside the repository and is resolved through the runner's loader hooks.
  const builtWs = path.join(install, 'ws');
  const sourceWs = path.join(scratch, 'source-ws');
  const builtStamp = path.join(scratch, 'built.stamp');
  const sourceStamp = path.join(scratch, 'source.stamp');
  workspace(builtWs, builtStamp);
  workspace(sourceWs, sourceStamp);
  cpSync(path.join(builtWs, 'rehearse.config.json'), path.join(sourceWs, 'rehearse.config.json'));
  const builtBin = path.join(install, 'node_modules', '@rehearse', 'runner', 'bin', 'rehearse.mjs');
  const runEnv = { ...process.env, CI: 'true' };
  const builtMs: number[] = [];
  const sourceMs: number[] = [];
  // Alternated, so a change in the machine's load hits both alike.
  for (let rep = 0; rep < REPS; rep += 1) {
    builtMs.push(await startUp(builtBin, builtWs, builtStamp, runEnv));
    sourceMs.push(await startUp(SOURCE_BIN, sourceWs, sourceStamp, runEnv));
  }
  const result = {
    tarballBytes: built.bytes,
    tarballWithinLimit: built.bytes <= LIMIT_BYTES,
    coldInstallMs: installMs,
    startUpBuiltMedianMs: median(builtMs),
    startUpTsxMedianMs: median(sourceMs),
    startUpBuiltMs: builtMs,
    startUpTsxMs: sourceMs,
    loadAverage1m: load,
  };
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    process.stdout.write(
      [
        `Runner package bench (load average ${load.toFixed(2)} on ${REPS} reps)`,
        `  tarball                         ${(built.bytes / 1024).toFixed(0)} KiB (limit 2048 KiB: ${result.tarballWithinLimit ? 'ok' : 'OVER'})`,
        `  cold npm install <url>          ${(installMs / 1000).toFixed(1)} s (empty folder, empty npm cache)`,
        `  rehearse run → first step       built ${median(builtMs)} ms   tsx source ${median(sourceMs)} ms   (medians; includes Chromium launch)`,
        `    built: ${builtMs.join(', ')} ms`,
        `    tsx:   ${sourceMs.join(', ')} ms`,
        '',
      ].join('\n'),
    );
  }
  mkdirSync(path.join(REPO, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(REPO, 'bench', 'results', 'runner-package.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await test.close();
  rmSync(scratch, { recursive: true, force: true });
}
