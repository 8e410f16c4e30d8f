#!/usr/bin/env node
// `npm run check`: the gate's four tools side by side, each one's output printed whole as soon as
// it ends (never interleaved), and every 30 s a line naming the tools still at work, so a tool that
// hangs shows in the log as the one that never ended.
//
// Why side by side and ESLint on one thread: ESLint's type-aware rules spend half their time
// building TypeScript programs, and `--concurrency 2` builds them again in each worker (one thread
// 126 CPU-s / 90 s, two threads 136 CPU-s / 72 s on a two-core machine). One thread of ESLint
// beside `tsc -b`, Prettier and knip keeps both cores busy without that second build. The gate is
// bound by CPU (about 200 CPU-s on two cores), so this saves its idle gaps, not more: measured on
// a quiet two-core machine, 120 s of back-to-back tools became ~100 s.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { clearInterval, setInterval } from 'node:timers';

const TOOLS = [
  { name: 'eslint', args: ['eslint', '.'] },
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
