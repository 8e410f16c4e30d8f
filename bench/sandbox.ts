// npx tsx bench/sandbox.ts — what the job sandbox costs (issue 17; target: ≤ 150 ms per job and
// ≤ 5 % CPU per scenario). Each job is what a worker thread now starts per scenario: one
// `rehearse run` process for one scenario (Node start, support code, a headless browser launch,
// the scenario, the report), through packages/runner/src/sandbox.ts, sandboxed and, for
// comparison, unsandboxed (the same clean environment, no bubblewrap, no cgroup, no user switch).
// Also the bare sandbox: `node -e 0` both ways. Modes alternate job by job so a change in machine
// load hits both alike. CPU is the jobs' own: unsandboxed, user + system of the waited-for process
// tree (/proc/self/stat); sandboxed, the job cgroup's count (bubblewrap's outer process does not
// wait for the tree, so its CPU never reaches ours). Wall is spawn to exit. Medians are printed.
import { readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJobFolder, probeSandbox, runJobProcess, type SandboxMode } from '../packages/processes/src/index.js';

const RUNNER_BIN = fileURLToPath(new URL('../packages/cli/bin/rehearse.mjs', import.meta.url));
const JOBS = Number(process.env.BENCH_SANDBOX_JOBS ?? 9);
const BARE = 15;
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds of this process's waited-for children so far (cutime + cstime). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // Fields after "(comm) ": state is index 0, so cutime/cstime (fields 16/17) are 13/14.
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const page = '<!doctype html><title>Bench</title><h1>Hello from the bench</h1><button>Go</button>';
const server = createServer((_request, response) => response.end(page));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const template = await createJobFolder('bench-template');
await mkdir(path.join(template, 'features'), { recursive: true });
await mkdir(path.join(template, 'environments'), { recursive: true });
await writeFile(path.join(template, 'environments', 'bench.json'), JSON.stringify({ name: 'bench', baseUrl: base }));
await writeFile(
  path.join(template, 'features', 'bench.feature'),
  'Feature: Bench\n\n  Scenario: Opens\n    Given I open "/"\n    Then I should see "Hello from the bench"\n',
);

async function job(mode: SandboxMode, kind: 'scenario' | 'bare'): Promise<{ wall: number; cpu: number }> {
  const dir = await createJobFolder(`bench-${mode}`);
  const workspace = path.join(dir, 'workspace');
  await cp(template, workspace, { recursive: true });
  const nodeArgs =
    kind === 'bare'
      ? ['-e', '0']
      : [
          RUNNER_BIN,
          'run',
          '--env',
          'environments/bench.json',
          '--headless',
          '--screenshots',
          'off',
          '--out',
          path.join(dir, 'report'),
          'features/bench.feature',
        ];
  const cpuBefore = childrenCpu();
  const started = performance.now();
  // Sandboxed, the job has no network but the egress proxy (how jobs run); unsandboxed, the plain
  // host network: the difference is the whole cost of isolation.
  const egress = mode === 'sandboxed' ? { allowPrivate: true } : undefined;
  const result = await runJobProcess({
    mode,
    workDir: dir,
    cwd: workspace,
    nodeArgs,
    env: {},
    timeoutMs: 120_000,
    egress,
    runnerBin: RUNNER_BIN,
  });
  const wall = performance.now() - started;
  // Sandboxed: the job's cgroup counted every process of it; unsandboxed: the waited-for tree.
  const cpu = result.cpuSeconds ?? childrenCpu() - cpuBefore;
  await rm(dir, { recursive: true, force: true });
  if (result.code !== 0)
    throw new Error(`${mode} ${kind} job failed (${String(result.code)}): ${result.stderr.slice(-400)}${result.stdout.slice(-400)}`);
  return { wall, cpu };
}

const probe = await probeSandbox();
if (!probe.ok) throw new Error(`no sandbox here: ${probe.missing}`);
console.log(
  `sandbox: bubblewrap, limits by ${probe.limits}${probe.dropsUser ? ', drops to nobody' : ''}; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`,
);

const rows: string[] = [];
for (const kind of ['bare', 'scenario'] as const) {
  const runs = kind === 'bare' ? BARE : JOBS;
  const seen: Record<SandboxMode, { wall: number[]; cpu: number[] }> = {
    sandboxed: { wall: [], cpu: [] },
    unsandboxed: { wall: [], cpu: [] },
  };
  const loadBefore = loadavg()[0]!;
  // One warm-up each (file cache, tsx's cache of the runner outside the sandbox).
  await job('unsandboxed', kind);
  await job('sandboxed', kind);
  for (let i = 0; i < runs; i++) {
    for (const mode of i % 2 ? (['sandboxed', 'unsandboxed'] as const) : (['unsandboxed', 'sandboxed'] as const)) {
      const { wall, cpu } = await job(mode, kind);
      seen[mode].wall.push(wall);
      seen[mode].cpu.push(cpu);
    }
  }
  const s = { wall: median(seen.sandboxed.wall), cpu: median(seen.sandboxed.cpu) };
  const u = { wall: median(seen.unsandboxed.wall), cpu: median(seen.unsandboxed.cpu) };
  rows.push(
    `${kind.padEnd(8)} n=${runs}  wall ${u.wall.toFixed(0)} → ${s.wall.toFixed(0)} ms (${s.wall >= u.wall ? '+' : ''}${(s.wall - u.wall).toFixed(0)} ms)  ` +
      `cpu ${u.cpu.toFixed(2)} → ${s.cpu.toFixed(2)} s (${(((s.cpu - u.cpu) / u.cpu) * 100).toFixed(1)} %)  load ${loadBefore.toFixed(2)}→${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(rows.at(-1));
}
console.log('median per job, unsandboxed → sandboxed');
await rm(template, { recursive: true, force: true });
server.close();
// The jobs' shared egress proxy keeps listening for the next job: this process is done with it.
process.exit(0);
