/**
 * Executions bench: one execution of 24 demo-shop scenarios run by the server's own worker child
 * process (`rehearse worker`, real Chromium) with 1, 2 and 4 threads: wall time and speed-up
 * (target ≥ 1.85× at 2 threads), beside raw Playwright doing the same on the same machine, on a
 * demo shop that answers at once and on one as shipped; and the time from run/{id} to the first
 * scenario's start (target ≤ 2 s; measured to the worker's claim and to cucumber's scenario start).
 * The shipped shop is measured twice: as projects run by default, and with the project setting
 * `reducedMotion` on. Knobs, for finding where the time goes:
 * - BENCH_THREADS=1,2 runs only those thread counts, BENCH_ROWS=0,2 only those rows;
 * - BENCH_PROCESS_CPU=1 prints CPU per process, for our run and for raw Playwright's (a process
 *   counts the children it reaped; PID 1 shows orphaned trees, such as the previous run's runners);
 * - BENCH_TIMELINE=1 prints each job's claim, scenario and finish times;
 * - BENCH_CONFIG='{"screenshots":"off","trace":"off"}' merges settings into the project's
 *   rehearse.config.json, to price a capture;
 * - BENCH_SKIP_RAW=1 skips raw Playwright; BENCH_UNSANDBOXED=1 runs jobs unsandboxed (so a
 *   profiler in the runner may write where it likes);
 * - BENCH_PROCESS_PER_SCENARIO=1 runs every scenario in a fresh process, workspace copy and
 *   browser (the worker's --process-per-scenario, as workers ran before each thread kept a warm
 *   runner per execution run).
 *
 *   npx tsx bench/executions.ts      (also part of `npm run bench`; PostgreSQL with DATABASE_URL)
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '@rehearse/api-client';
import {
  authCalls,
  executionCalls,
  executionStatusEvent,
  runsCalls,
  SocketPaths,
  workspaceCalls,
  type ExecutionStatus,
} from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { DEFAULT_PRODUCT_DELAY_MS, DEMO_SHOP_PATH, demoShopPlugin } from '../apps/demo-shop/src/index.js';
import { startTestApp, type TestApp } from '../apps/server/src/testing/test-app.js';
import { DEFAULT_RUN_CONFIG } from '../apps/server/src/workspace/workspace.store.js';
import { CONFIG_FILE } from '../packages/runner/src/support/settings.js';
import { launchBrowser } from '../packages/runner/src/browser.js';

const SCENARIOS = 24;
/** BENCH_THREADS=1,2 runs only those thread counts (profiling one of them). */
const THREADS = process.env.BENCH_THREADS ? process.env.BENCH_THREADS.split(',').map(Number) : [1, 2, 4];
/** Issue 48: two threads at least 1.85× one on two cores, on the shipped shop as projects run by default. */
const TARGET_SPEEDUP_AT_2 = 1.85;
const TARGET_FIRST_START_MS = 2000;
const PRODUCTS = ['Trail Backpack', 'Enamel Camp Mug', 'Summit Rain Jacket'];

/**
 * One warm-up scenario per thread of the widest run, all run at once first: each worker thread
 * then has started a runner and built its compile cache, so no measured run pays a thread's first
 * start (one warm-up scenario left all but one thread cold, which slowed the 1-thread run and
 * flattered the speed-up when only the shipped-shop row ran).
 */
const WARMUP_SCENARIOS = Math.max(...THREADS);

const FEATURE = `Feature: Bench shop
${Array.from(
  { length: WARMUP_SCENARIOS },
  (_, i) => `
  @warmup
  Scenario: Warm up ${i + 1}
    Given I open "/"
`,
).join('')}${Array.from(
  { length: SCENARIOS },
  (_, i) => `
  @bench
  Scenario: Bench ${i + 1}
    Given I open "/"
    Then I should see "${PRODUCTS[i % PRODUCTS.length]}"
`,
).join('')}`;

/** Busy and total jiffies of the whole machine (/proc/stat), to show how much CPU a run had left. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** CPU ticks of every process now (pid → ticks and a short name), for BENCH_PROCESS_CPU=1. */
function processTicks(): Map<number, { ticks: number; name: string }> {
  const result = new Map<number, { ticks: number; name: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const type = cmdline.find((arg) => arg.startsWith('--type='));
      const name = type
        ? `chromium ${type.slice(7)}`
        : cmdline[0]!.includes('chromium')
          ? 'chromium browser'
          : cmdline.slice(0, 3).join(' ').slice(-60);
      result.set(Number(entry), {
        // Reaped children (a closed context's renderer) count for their parent.
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
        name,
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  return result;
}

/**
 * Where a thread's time went, job by job (BENCH_TIMELINE=1): from the previous job's finish to this
 * claim, from the claim to cucumber's scenario start, the scenario, and from its end to the
 * server's finish (report, artifacts and upload).
 */
async function printTimeline(
  test: TestApp,
  runId: string,
  testCases: { scenarioName: string; result: { startTime: string; endTime: string } }[],
) {
  const jobs = await test.database.rows<{ worker: string; name: string; started: number; finished: number }>(
    `select j.worker_id as worker, j.scenario_name as name, (extract(epoch from j.started_at) * 1000)::float8 as started,
       (extract(epoch from j.finished_at) * 1000)::float8 as finished
     from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}' order by j.worker_id, j.started_at`,
  );
  const cases = new Map(testCases.map((testCase) => [testCase.scenarioName, testCase.result]));
  const previousFinish = new Map<string, number>();
  for (const job of jobs) {
    const result = cases.get(job.name);
    if (!result) continue;
    const [start, end] = [Date.parse(result.startTime), Date.parse(result.endTime)];
    const previous = previousFinish.get(job.worker);
    const idle = previous === undefined ? '-' : String(Math.round(Number(job.started) - previous));
    console.log(
      `      ${job.worker.slice(-6)} ${job.name.padEnd(10)} idle ${idle.padStart(5)} ms  claim→start ${Math.round(start - Number(job.started))} ms  scenario ${Math.round(end - start)} ms  end→finish ${Math.round(Number(job.finished) - end)} ms`,
    );
    previousFinish.set(job.worker, Number(job.finished));
  }
}

function printProcessCpu(before: Map<number, { ticks: number; name: string }>, scenarios: number): void {
  const byName = new Map<string, number>();
  for (const [pid, now] of processTicks()) byName.set(now.name, (byName.get(now.name) ?? 0) + now.ticks - (before.get(pid)?.ticks ?? 0));
  for (const [name, ticks] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    if (ticks > 0) console.log(`      ${String(Math.round((ticks * 10) / scenarios)).padStart(5)} ms CPU per scenario  ${name}`);
  }
}

/**
 * Two demo shops: one answering at once, so a scenario is nothing but browser work, and one as
 * `npm start` serves it, whose product list takes 800 ms like a real backend. Chromium alone
 * keeps both cores of this machine busy in the first (raw Playwright shows the same ceiling);
 * the second is where threads show what they are for.
 */
const SHOPS: { env: string; latencyMs: number; label: string; url: string; server?: FastifyInstance }[] = [
  { env: 'instant', latencyMs: 0, label: 'browser work only', url: '' },
  { env: 'shipped', latencyMs: DEFAULT_PRODUCT_DELAY_MS, label: 'as npm start serves it', url: '' },
];

/**
 * What is measured: each shop as projects run by default, and the shipped shop once more with the
 * project's `reducedMotion` on (rehearse.config.json), which stops its loading shimmer from
 * repainting every frame while the product list is awaited.
 */
const ALL_ROWS: { shop: (typeof SHOPS)[number]; reducedMotion: boolean }[] = [
  { shop: SHOPS[0]!, reducedMotion: false },
  { shop: SHOPS[1]!, reducedMotion: false },
  { shop: SHOPS[1]!, reducedMotion: true },
];
/** BENCH_ROWS=2 measures only the third of those (counted from 0). */
const ROWS = process.env.BENCH_ROWS ? process.env.BENCH_ROWS.split(',').map((index) => ALL_ROWS[Number(index)]!) : ALL_ROWS;
const benchConfig = process.env.BENCH_CONFIG ? (JSON.parse(process.env.BENCH_CONFIG) as Record<string, unknown>) : {};

async function serveDemoShop(latencyMs: number): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs: latencyMs });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

/**
 * The same scenarios in raw Playwright, shaped like a worker: `threads` loops, each with its own
 * Chromium (launched as the runner launches it), a new context per scenario. Wall time in ms.
 */
async function rawPlaywright(url: string, threads: number, reducedMotion: boolean): Promise<number> {
  const browsers = await Promise.all(Array.from({ length: threads }, () => launchBrowser({ browser: 'chromium', headless: true })));
  try {
    const scenario = async (browser: Browser, index: number) => {
      const context = await browser.newContext({
        viewport: DEFAULT_RUN_CONFIG.viewport,
        ...(reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
      });
      const page = await context.newPage();
      await page.goto(url);
      await page
        .getByText(PRODUCTS[index % PRODUCTS.length]!)
        .first()
        .waitFor();
      await context.close();
    };
    await Promise.all(browsers.map((browser) => scenario(browser, 0)));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      browsers.map(async (browser) => {
        for (let index = next++; index < SCENARIOS; index = next++) await scenario(browser, index);
      }),
    );
    return performance.now() - started;
  } finally {
    await Promise.all(browsers.map((browser) => browser.close()));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * A pause before each measured run: a run's end starts each thread's spare runner (Node, the
 * runner, a browser: 2–3.5 s on this machine), which the next run's first job would otherwise
 * wait for, and whose start would take CPU from raw Playwright's run. Between a team's executions
 * the spares are up; measured back to back, the 1-thread row paid ~2 s of it and raw's rows
 * shared the machine with it (session 54).
 */
const SPARES_UP_MS = 6_000;

async function main(): Promise<void> {
  const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  // One local worker process with 4 threads, as a single-machine install starts it.
  let socket: Socket | undefined;
  const processPerScenario = process.env.BENCH_PROCESS_PER_SCENARIO === '1';
  const test = await startTestApp(backend, {
    LOCAL_WORKERS: '1',
    LOCAL_WORKER_THREADS: String(Math.max(...THREADS)),
    LOCAL_WORKER_PROCESS_PER_SCENARIO: String(processPerScenario),
    ...(process.env.BENCH_UNSANDBOXED ? { REHEARSE_UNSANDBOXED_WORKERS: '1' } : {}),
  });
  try {
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'executions@bench.test', password: 'bench password', firstname: 'Exe', lastname: 'Cutions' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;
    await test.database.execute(`update projects set max_execution_threads = ${Math.max(...THREADS)} where id = '${projectId}'`);
    for (const shop of SHOPS) {
      shop.server = await serveDemoShop(shop.latencyMs);
      shop.url = `http://127.0.0.1:${(shop.server.server.address() as AddressInfo).port}${DEMO_SHOP_PATH}/`;
      await api.call(workspaceCalls.pushEnv, { body: { projectId, name: shop.env, data: { baseUrl: shop.url } } });
    }
    await api.call(workspaceCalls.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'bench.feature', content: FEATURE } },
    });

    const runOnce = async (tag: string, threads: number, env: string) => {
      const { execution } = await api.call(executionCalls.create, {
        body: {
          projectId,
          name: `${tag} ×${threads} ${env}`,
          env,
          flows: [{ scenarioGroups: [{ name: 'All', threadCount: threads, tags: [tag] }] }],
        },
      });
      // The end is heard as the web app hears it (statusUpdate), not by polling: a poll every
      // 100 ms was a fifth of the server's CPU in this bench.
      const finished = new Promise<void>((resolve) => {
        socket!.on(executionStatusEvent(execution.id), (status: ExecutionStatus) => {
          if (!status.running && status.runId === runIdOf.id) resolve();
        });
      });
      const runIdOf = { id: '' };
      const ticks = machineTicks();
      const processesBefore = process.env.BENCH_PROCESS_CPU ? processTicks() : undefined;
      const started = performance.now();
      const startedAt = Date.now();
      const { runId } = await api.call(executionCalls.run, { params: { id: execution.id } });
      runIdOf.id = runId;
      // An end heard before the run id was known is caught by the slow status check.
      let ended = false;
      await Promise.race([finished, waitUntilStopped(execution.id, () => ended)]);
      ended = true;
      const wallMs = performance.now() - started;
      const after = machineTicks();
      const busyPercent = (100 * (after.busy - ticks.busy)) / Math.max(1, after.total - ticks.total);
      if (processesBefore) printProcessCpu(processesBefore, tag === '@warmup' ? WARMUP_SCENARIOS : SCENARIOS);
      const [claim] = await test.database.rows<{ first: number }>(
        `select (extract(epoch from min(j.started_at)) * 1000)::float8 as first from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}'`,
      );
      const { run } = await api.call(runsCalls.getRun, { query: { runId } });
      if (process.env.BENCH_TIMELINE) await printTimeline(test, runId, run.report.testCases);
      const firstScenario = Math.min(...run.report.testCases.map((testCase) => Date.parse(testCase.result.startTime)));
      return {
        wallMs,
        busyPercent,
        claimMs: Number(claim!.first) - startedAt,
        firstScenarioMs: firstScenario - startedAt,
        passed: run.totalScenariosPassed,
        total: run.totalScenarios,
      };
    };

    socket = io(base, { path: SocketPaths[0], auth: { token: signup.token }, transports: ['websocket'], reconnection: false });
    const connected = socket;
    await new Promise<void>((resolve, reject) => {
      connected.once('connect', () => resolve());
      connected.once('connect_error', reject);
    });
    await connected.emitWithAck('subscribeToExecutionStatus', { projectId });
    const waitUntilStopped = async (executionId: string, given: () => boolean) => {
      while (!given()) {
        await sleep(2_000);
        if (!(await test.services.engine.status(executionId)).running) return;
      }
    };

    // The worker process starts with the server; a first execution warms each of its threads (and the OS caches).
    await runOnce('@warmup', WARMUP_SCENARIOS, 'instant');
    console.log(
      `\nExecutions bench (${backend}, ${SCENARIOS} demo-shop scenarios, one local worker process, real Chromium, ${processPerScenario ? 'a fresh process per scenario' : 'a warm runner per thread and run'})`,
    );
    console.log('  Raw Playwright runs the same scenarios the same way (one Chromium per thread, a new context per scenario), no report.');
    const verdicts: string[] = [];
    let firstStart = Infinity;
    for (const { shop, reducedMotion } of ROWS) {
      await api.call(workspaceCalls.pushFile, {
        body: {
          projectId,
          directory: '',
          file: { name: CONFIG_FILE, content: JSON.stringify({ ...DEFAULT_RUN_CONFIG, reducedMotion, ...benchConfig }) },
        },
      });
      console.log(
        `\n  demo shop answering its product list in ${shop.latencyMs} ms (${shop.label})${reducedMotion ? ', project setting reducedMotion: true' : ''}`,
      );
      console.log(
        '  threads   wall s   speed-up   machine busy   raw Playwright s   raw speed-up   ours ÷ raw   run→claim ms   run→first scenario ms   passed',
      );
      const results: { threads: number; wallMs: number; rawMs: number | undefined }[] = [];
      for (const threads of THREADS) {
        await sleep(SPARES_UP_MS);
        const result = await runOnce('@bench', threads, shop.env);
        await sleep(SPARES_UP_MS);
        const rawBefore = process.env.BENCH_PROCESS_CPU ? processTicks() : undefined;
        const rawMs = process.env.BENCH_SKIP_RAW ? undefined : await rawPlaywright(shop.url, threads, reducedMotion);
        if (rawBefore && rawMs !== undefined) {
          console.log('    raw Playwright:');
          printProcessCpu(rawBefore, SCENARIOS);
        }
        results.push({ threads, wallMs: result.wallMs, rawMs });
        firstStart = Math.min(firstStart, result.firstScenarioMs);
        console.log(
          `  ${String(threads).padStart(7)} ${(result.wallMs / 1000).toFixed(1).padStart(8)} ${`${(results[0]!.wallMs / result.wallMs).toFixed(2)}×`.padStart(10)} ${`${Math.round(result.busyPercent)} %`.padStart(14)} ${(rawMs === undefined ? '-' : (rawMs / 1000).toFixed(1)).padStart(18)} ${(rawMs === undefined ? '-' : `${(results[0]!.rawMs! / rawMs).toFixed(2)}×`).padStart(14)} ${(rawMs === undefined ? '-' : `${(result.wallMs / rawMs).toFixed(2)}×`).padStart(11)} ${String(Math.round(result.claimMs)).padStart(14)} ${String(Math.round(result.firstScenarioMs)).padStart(23)}   ${result.passed}/${result.total}`,
        );
      }
      const two = results.find((r) => r.threads === 2);
      if (!two) continue;
      const at2 = results[0]!.wallMs / two.wallMs;
      const rawAt2 = two.rawMs === undefined ? undefined : results[0]!.rawMs! / two.rawMs;
      verdicts.push(
        `${shop.latencyMs} ms${reducedMotion ? ' (reducedMotion)' : ''}: ${at2.toFixed(2)}× at 2 threads (${at2 >= TARGET_SPEEDUP_AT_2 ? 'meets' : 'BELOW'} the ${TARGET_SPEEDUP_AT_2}× target${rawAt2 === undefined ? '' : `; raw Playwright ${rawAt2.toFixed(2)}×`})`,
      );
    }
    console.log(
      `\n  verdict: ${verdicts.join('; ')}; first scenario start ${firstStart} ms (${firstStart <= TARGET_FIRST_START_MS ? 'within' : 'OVER'} the ${TARGET_FIRST_START_MS} ms target)`,
    );
  } finally {
    socket?.disconnect();
    await test.close();
    for (const shop of SHOPS) await shop.server?.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
