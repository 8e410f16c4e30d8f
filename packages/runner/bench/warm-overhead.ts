/**
 * A warm worker's cost per scenario (issue 48): CPU and wall of one 20-step scenario run the way
 * a warm runner runs it (`runRun` in this process, support code loaded once, the browser kept, a
 * fresh context per scenario), next to raw playwright-core doing the same 20 actions in a fresh
 * context of a browser it launched once, taking the same CDP screenshot after each action.
 * Nothing paid once per process (Node's start, loading cucumber and the step files, launching the
 * browser) is counted on either side: this is what a team pays per scenario on a busy worker.
 *
 * CPU is this process's and its whole process tree's (the browsers, their zygotes and
 * renderers, live or already reaped): Σ utime+stime+cutime+cstime over /proc. Both sides run in
 * the same process with the same demo shop, alternating, `--reps` pairs (medians).
 *
 * Then, with `--phases`, where the runner's share goes: this process's CPU profile over a few
 * more runs (node:inspector), self time by the code it was spent in, and the browser's CPU as
 * the tree's rest, printed per scenario beside raw's.
 *
 *   npx tsx packages/runner/bench/warm-overhead.ts [--reps 7] [--phases] [--json]
 *     [--screenshots every-command|off] [--trace off|retain-on-failure]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../src/browser.js';
import type { CliIo } from '../src/cli/io.js';
import { runRun, SupportCache, warmUp } from '../src/cli/run.js';
import { closeSharedBrowser } from '../src/support/world.js';
import { makeWorkspace, startDemoShop } from '../src/testing/shop-workspace.js';
import { ACTIONS as ALL_ACTIONS } from './twenty-steps.js';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '7' },
    phases: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    screenshots: { type: 'string', default: 'every-command' },
    trace: { type: 'string', default: 'off' },
    /** The first N of the 20 steps (what a scenario costs beyond its steps shows at --steps 1). */
    steps: { type: 'string', default: '20' },
  },
});
const REPS = Math.max(1, Number(values.reps));
const SCREENSHOTS = values.screenshots === 'off' ? 'off' : 'every-command';
/** `off`, or `retain-on-failure` (the runner's default): raw then traces each context as Playwright Test does and drops it. */
const TRACE = values.trace === 'retain-on-failure' ? 'retain-on-failure' : 'off';
const TICK_MS = 10;
const ACTIONS = ALL_ACTIONS.slice(0, Math.max(1, Number(values.steps)));
const FEATURE = `Feature: Bench\n  Scenario: Steps\n${ACTIONS.map(([step]) => `    ${step}`).join('\n')}\n`;

/** Σ utime+stime+cutime+cstime (ms) of `pid` and every live descendant. */
function treeCpuMs(root = process.pid): number {
  const children = new Map<number, number[]>();
  const own = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const pid = Number(entry);
    const parent = Number(fields[1]);
    own.set(pid, [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) * TICK_MS);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += own.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

interface Spent {
  wall: number;
  cpu: number;
}

async function measured(run: () => Promise<void>): Promise<Spent> {
  const cpu = treeCpuMs();
  const started = performance.now();
  await run();
  return { wall: performance.now() - started, cpu: treeCpuMs() - cpu };
}

/**
 * Raw playwright-core: a fresh context of its kept browser, the 20 actions, a CDP screenshot
 * after each. Without source-mapped stack traces, as a plain script under plain Node runs (this
 * bench runs under tsx, which turns them on for the whole process; the runner turns them off).
 */
async function rawScenario(browser: Browser, base: string): Promise<void> {
  const sourceMaps = process.sourceMapsEnabled;
  process.setSourceMapsEnabled(false);
  try {
    await rawActions(browser, base);
  } finally {
    process.setSourceMapsEnabled(sourceMaps);
  }
}

async function rawActions(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  if (TRACE !== 'off') await context.tracing.start({ screenshots: true, snapshots: true });
  const page = await context.newPage();
  const cdp = SCREENSHOTS === 'off' ? undefined : await context.newCDPSession(page);
  for (const [, act] of ACTIONS) {
    await act(page, base);
    if (!cdp) continue;
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true }).catch(() => undefined);
    if (shot) Buffer.from(shot.data, 'base64');
    else await page.screenshot({ type: 'png' });
  }
  if (TRACE !== 'off') await context.tracing.stop();
  await context.close();
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Where a profile sample's own time counts: the phase its code belongs to. */
const PHASES: Array<[string, RegExp]> = [
  ['screenshots, ARIA, network, console (capture)', /runner\/src\/support\/(capture|attachments|trace)\b/],
  ['report: builder, formats, writing', /runner\/src\/report\//],
  ['runner commands and steps', /runner\/src\/support\//],
  ['runner CLI (run, upload)', /runner\/src\/cli\//],
  ['cucumber-js', /node_modules\/@cucumber\//],
  ['playwright-core client', /node_modules\/playwright-core\//],
  ['zip, tar, compression', /node_modules\/(yazl|jszip|tar|fflate|archiver)|zlib/],
  ['demo shop (the app, both sides)', /fastify|apps\/server|demo-shop|find-my-way|avvio|pino/],
  ['garbage collection', /^\(garbage collector\)$/],
  // The profiler's own work (stopping it serialises the profile): not the scenario's.
  ['profiler', /^node:inspector/],
  ['idle', /^\((idle|program)\)$/],
];

const NODE_INTERNALS = 'Node internals (streams, sockets, buffers)';

function phaseOf(url: string, name: string): string {
  const where = url || `(${name.replace(/[()]/g, '')})`;
  for (const [phase, pattern] of PHASES) if (pattern.test(where)) return phase;
  if (/^node:|^$/.test(url)) return NODE_INTERNALS;
  return 'other';
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

/**
 * Self time (ms) per phase over the profile. Time in Node's own code (streams, sockets, buffers,
 * the event loop) counts for the nearest caller that has a phase: a socket write for Playwright
 * counts as Playwright's.
 */
function byPhase(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const phases = new Map<number, string>();
  const phaseOfNode = (id: number): string => {
    const known = phases.get(id);
    if (known) return known;
    const node = nodes.get(id)!;
    let phase = phaseOf(node.callFrame.url, node.callFrame.functionName);
    const parent = parents.get(id);
    if (phase === NODE_INTERNALS && parent !== undefined) {
      const above = phaseOfNode(parent);
      if (above !== 'other' && above !== 'idle') phase = above;
    }
    phases.set(id, phase);
    return phase;
  };
  const spent = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    if (!nodes.has(samples[i]!)) continue;
    const phase = phaseOfNode(samples[i]!);
    spent.set(phase, (spent.get(phase) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return spent;
}

const quiet = { write: () => true };

const shop = await startDemoShop(50);
const ws = makeWorkspace({ baseUrl: shop.baseUrl, feature: FEATURE, steps: '', config: { commandTimeoutMs: 10_000 } });
const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-bench-warm-'));
const cache = new SupportCache(scratch);
const io: CliIo = { cwd: ws, env: process.env, stdout: quiet, stderr: process.stderr, fetch: globalThis.fetch.bind(globalThis) };
const rawBrowser = await launchBrowser({ browser: 'chromium', headless: true });

async function oursScenario(): Promise<void> {
  const out = mkdtempSync(path.join(scratch, 'out-'));
  const result = await runRun(['--headless', '--screenshots', SCREENSHOTS, '--trace', TRACE, '--out', out], io, {
    keepBrowser: true,
    supportCache: cache,
    keptReportsOnly: true,
  });
  rmSync(out, { recursive: true, force: true });
  if (result.exitCode !== 0) throw new Error(`the bench scenario failed (${result.reason ?? result.exitCode})`);
}

try {
  await warmUp(ws, io, cache);
  // Untimed: the first run of each side pays what a warm worker paid before its first request.
  await oursScenario();
  await rawScenario(rawBrowser, shop.baseUrl);
  const load = [loadavg()[0]!];
  const raw: Spent[] = [];
  const ours: Spent[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    // Alternate who goes first, so a drift in the machine's load falls on both alike.
    if (rep % 2 === 0) {
      raw.push(await measured(() => rawScenario(rawBrowser, shop.baseUrl)));
      ours.push(await measured(oursScenario));
    } else {
      ours.push(await measured(oursScenario));
      raw.push(await measured(() => rawScenario(rawBrowser, shop.baseUrl)));
    }
  }
  load.push(loadavg()[0]!);
  const ratios = ours.map((one, i) => one.cpu / raw[i]!.cpu);
  const result = {
    reps: REPS,
    screenshots: SCREENSHOTS,
    trace: TRACE,
    loadAverage: load.map((value) => +value.toFixed(2)),
    medianCpuMs: { raw: median(raw.map((one) => one.cpu)), ours: median(ours.map((one) => one.cpu)) },
    medianWallMs: { raw: Math.round(median(raw.map((one) => one.wall))), ours: Math.round(median(ours.map((one) => one.wall))) },
    /** Median of the paired ratios (issue 48: ≤ 1.2). */
    cpuVsRaw: +median(ratios).toFixed(2),
    wallVsRaw: +median(ours.map((one, i) => one.wall / raw[i]!.wall)).toFixed(2),
    phases: undefined as Array<{ phase: string; ours: number; raw: number }> | undefined,
  };

  if (values.phases) {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    const runs = 3;
    const tree = { ours: 0, raw: 0 };
    const phases = new Map<string, number>();
    const rawPhases = new Map<string, number>();
    for (let rep = 0; rep < runs; rep++) {
      for (const [side, run, into] of [
        ['ours', oursScenario, phases],
        ['raw', () => rawScenario(rawBrowser, shop.baseUrl), rawPhases],
      ] as const) {
        await session.post('Profiler.start');
        const spent = await measured(run);
        const { profile } = await session.post('Profiler.stop');
        tree[side] += spent.cpu / runs;
        for (const [phase, ms] of byPhase(profile)) into.set(phase, (into.get(phase) ?? 0) + ms / runs);
      }
    }
    session.disconnect();
    const node = (map: Map<string, number>) =>
      [...map].filter(([phase]) => phase !== 'idle' && phase !== 'profiler').reduce((sum, [, ms]) => sum + ms, 0);
    const table = [...new Set([...phases.keys(), ...rawPhases.keys()])]
      .filter((phase) => phase !== 'idle' && phase !== 'profiler')
      .map((phase) => ({ phase, ours: Math.round(phases.get(phase) ?? 0), raw: Math.round(rawPhases.get(phase) ?? 0) }))
      .sort((a, b) => b.ours - a.ours);
    table.push({
      phase: 'the browser and its renderers (the tree minus Node)',
      ours: Math.round(tree.ours - node(phases)),
      raw: Math.round(tree.raw - node(rawPhases)),
    });
    table.push({ phase: 'total (profiled, so higher than the medians above)', ours: Math.round(tree.ours), raw: Math.round(tree.raw) });
    result.phases = table;
  }

  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `warm worker, ${ACTIONS.length}-step scenario, screenshots ${SCREENSHOTS}, trace ${TRACE}, ${REPS} paired runs, load average ${result.loadAverage.join(' → ')}`,
    );
    console.log(
      `  CPU per scenario (ms, median): ${JSON.stringify(result.medianCpuMs)} → ${result.cpuVsRaw}× raw playwright-core (issue 48: ≤ 1.2)`,
    );
    console.log(`  wall per scenario (ms, median): ${JSON.stringify(result.medianWallMs)} → ${result.wallVsRaw}× raw`);
    if (result.phases) {
      console.log('  CPU per scenario by phase (ms, mean of 3 profiled runs):');
      for (const row of result.phases) console.log(`    ${String(row.ours).padStart(6)} ${String(row.raw).padStart(6)}  ${row.phase}`);
    }
  }
} finally {
  await rawBrowser.close();
  await closeSharedBrowser();
  await shop.app.close();
  rmSync(ws, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
