#!/usr/bin/env node
// `npm run check`: the gate's tools side by side, each one's output printed whole as soon as
// it ends (never interleaved), and every 30 s a line naming the tools still at work, so a tool that
// hangs shows in the log as the one that never ended.
//
// Why side by side, and ESLint as two processes of one thread each: ESLint's type-aware rules spend
// half their time building TypeScript programs. `--concurrency 2` builds every program again in
// each worker thread (126 → 136 CPU-s on a two-core machine); split by files instead, each process
// builds only the programs of its own files. On a quiet two-core machine one process took 126 s and
// 172 CPU-s, the web app and the rest side by side 71 s and ~125 CPU-s; in CI a single ESLint had
// run on alone for a minute, with a core idle, after the other tools and the image build ended.
// Every file is still linted once, with the same configuration.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { clearInterval, setInterval } from 'node:timers';

/** Where ESLint's files are split: this folder in one process, everything else in the other. */
const ESLINT_SPLIT = 'apps/web';

const TOOLS = [
  { name: `eslint ${ESLINT_SPLIT}`, args: ['eslint', ESLINT_SPLIT] },
  { name: 'eslint (the rest)', args: ['eslint', '.', '--ignore-pattern', `${ESLINT_SPLIT}/**`] },
  { name: 'tsc -b', args: ['tsc', '-b'] },
  { name: 'prettier --check', args: ['prettier', '--check', '.'] },
  { name: 'knip', args: ['knip'] },
];

/** Runs one tool with npx-free resolution (node_modules/.bin is on npm run's PATH); answers its exit code and output. */
function run({ name, args }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '1' } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${error.message}\n`, seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString(), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const PROGRESS_EVERY_MS = 30_000;
const startedAt = Date.now();
const running = new Set(TOOLS.map((tool) => tool.name));
const progress = setInterval(() => {
  console.log(`check: still running after ${Math.round((Date.now() - startedAt) / 1000)} s: ${[...running].join(', ')}`);
}, PROGRESS_EVERY_MS);
const results = await Promise.all(
  TOOLS.map(async (tool) => {
    const result = await run(tool);
    running.delete(tool.name);
    process.stdout.write(`\n> ${result.name}${result.code === 0 ? '' : ` (exit ${result.code})`}\n${result.output}`);
    return result;
  }),
);
clearInterval(progress);
const failed = results.filter((result) => result.code !== 0);
console.log(`\ncheck: ${results.map((r) => `${r.name} ${r.code === 0 ? 'ok' : 'FAILED'} ${r.seconds.toFixed(0)} s`).join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
