/**
 * "Run scenario" latency bench (issue 21): a server with the demo shop it serves (as shipped, its
 * product list answering in 800 ms) and one "Run scenario" slot; one click to start with (the
 * cold one, shown apart), then BENCH_CLICKS (20) clicks one after another on the same scenario,
 * each timed from the request (POST run-scenario) to
 *   - first step: the start time of the scenario's first Gherkin step in the uploaded report
 *     (the runner's clock, the same machine's), hooks not counted;
 *   - result: the `scenario_job` socket event that says the job ended (as the web app hears it);
 * with p50/p95 of both, and of the result minus the scenario's own duration (the report's
 * scenario start to end): what the click costs beyond the scenario itself. Besides, the first click
 * of a second project made after its scenario page opened (the page's warm-up call, issue 47). Prints the machine's
 * load average before and after, since the figures depend on what else the machine runs.
 * BENCH_WARM_RUNNERS=false measures the cold path (a fresh `rehearse pull` + `rehearse run` and a
 * browser launch per click, as every click was before warm runners): the "before" of issue 21.
 *
 *   npx tsx bench/run-scenario.ts      (also part of `npm run bench`; PostgreSQL with DATABASE_URL)
 */
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, runsCalls, scenarioJobCalls, SocketPaths, workspaceCalls } from '@rehearse/contract';
import { io } from 'socket.io-client';
import { startTestApp } from '../apps/server/src/testing/test-app.js';
import { percentile } from './stats.js';

const CLICKS = Number(process.env.BENCH_CLICKS ?? 20);
const TARGET_FIRST_STEP_P50_MS = 1000;
const TARGET_FIRST_STEP_P95_MS = 1500;
const TARGET_OVERHEAD_MS = 1500;
/** Issue 47: a project's first click, once its scenario page has warmed a runner, reaches its first step within 2 s. */
const TARGET_WARMED_FIRST_STEP_MS = 2000;

const FEATURE = `Feature: Bench click

  Scenario: Home lists the mug
    Given I open "/"
    Then I should see "Enamel Camp Mug"
`;

interface Click {
  firstStepMs: number;
  resultMs: number;
  scenarioMs: number;
  state: string;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function row(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `  ${label.padEnd(34)} p50 ${String(Math.round(percentile(sorted, 50))).padStart(6)} ms   p95 ${String(Math.round(percentile(sorted, 95))).padStart(6)} ms   min ${String(Math.round(sorted[0] ?? NaN)).padStart(6)} ms   max ${String(Math.round(sorted.at(-1) ?? NaN)).padStart(6)} ms`;
}

async function main(): Promise<void> {
  const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const test = await startTestApp(backend, {
    WORKER_PROCESSES: '1',
    LOCAL_WORKERS: '0',
    WARM_RUNNERS: process.env.BENCH_WARM_RUNNERS ?? 'true',
  });
  const socket = { current: undefined as ReturnType<typeof io> | undefined };
  try {
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'click@bench.test', password: 'bench password', firstname: 'Click', lastname: 'Bench' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;
    await api.call(workspaceCalls.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${base}/demo-shop/` } } });
    await api.call(workspaceCalls.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'bench.feature', content: FEATURE } },
    });

    const connected = io(base, { path: SocketPaths[0], auth: { token: signup.token }, transports: ['websocket'], reconnection: false });
    socket.current = connected;
    await new Promise<void>((resolve, reject) => {
      connected.once('connect', () => resolve());
      connected.once('connect_error', reject);
    });
    await connected.emitWithAck('joinProject', { projectId });
    const ends = new Map<string, (state: string) => void>();
    const early = new Map<string, { state: string; at: number }>();
    connected.on('scenario_job', (event: { jobId: string; state: string }) => {
      if (event.state === 'queued' || event.state === 'running') return;
      const waiting = ends.get(event.jobId);
      if (waiting) waiting(event.state);
      else early.set(event.jobId, { state: event.state, at: performance.now() });
    });

    const click = async (inProject = projectId): Promise<Click> => {
      const started = performance.now();
      const startedAt = Date.now();
      const { job } = await api.call(scenarioJobCalls.runScenario, {
        body: { projectId: inProject, featureName: 'bench', scenarioName: 'Home lists the mug', environment: 'shop' },
      });
      const heard = early.get(job.id);
      const { state, at } = heard
        ? heard
        : await new Promise<{ state: string; at: number }>((resolve) =>
            ends.set(job.id, (ended) => resolve({ state: ended, at: performance.now() })),
          );
      ends.delete(job.id);
      const resultMs = at - started;
      const { job: done } = await api.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } });
      if (!done.runId) throw new Error(`the job ended ${state} without a run: ${done.message ?? ''}`);
      const { run } = await api.call(runsCalls.getRun, { query: { runId: done.runId } });
      const testCase = run.report.testCases[0]!;
      const firstStep = testCase.steps.find((step) => step.type !== 'Before' && step.type !== 'After') ?? testCase.steps[0]!;
      return {
        firstStepMs: Date.parse(firstStep.result.startTime) - startedAt,
        resultMs,
        scenarioMs: Date.parse(testCase.result.endTime) - Date.parse(testCase.result.startTime),
        state,
      };
    };

    console.log(`\n"Run scenario" latency bench (${backend}, demo shop as shipped, one Run scenario slot, ${CLICKS} clicks)`);
    console.log(`  load average before: ${load()}`);
    const cold = await click();
    console.log(
      `  first click (cold): request → first step ${Math.round(cold.firstStepMs)} ms, → result ${Math.round(cold.resultMs)} ms (scenario ${cold.scenarioMs} ms, ${cold.state})`,
    );
    // A second project as a user meets it: the scenario page opens (its warm-up call), the user
    // reads the page for as long as the runner takes to get ready, then makes the project's first click.
    const { project: opened } = await api.call(authCalls.createProject, { body: { name: 'Opened page' } });
    await api.call(workspaceCalls.pushEnv, { body: { projectId: opened._id, name: 'shop', data: { baseUrl: `${base}/demo-shop/` } } });
    await api.call(workspaceCalls.pushFile, {
      body: { projectId: opened._id, directory: 'features', file: { name: 'bench.feature', content: FEATURE } },
    });
    await connected.emitWithAck('joinProject', { projectId: opened._id });
    const pageOpened = performance.now();
    while ((await api.call(scenarioJobCalls.warmUp, { body: { projectId: opened._id } })).runner !== 'ready') {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const readyMs = performance.now() - pageOpened;
    const warmed = await click(opened._id);
    console.log(
      `  first click of a project after its scenario page opened (runner ready ${Math.round(readyMs)} ms after the page): request → first step ${Math.round(warmed.firstStepMs)} ms (target ≤ ${TARGET_WARMED_FIRST_STEP_MS}), → result ${Math.round(warmed.resultMs)} ms (${warmed.state})`,
    );
    const clicks: Click[] = [];
    for (let i = 0; i < CLICKS; i += 1) clicks.push(await click());
    const states = clicks.map((c) => c.state);
    console.log(`  then ${CLICKS} clicks one after another (${states.filter((s) => s === 'passed').length} passed):`);
    console.log(
      row(
        'request → first step',
        clicks.map((c) => c.firstStepMs),
      ),
    );
    console.log(
      row(
        'request → result',
        clicks.map((c) => c.resultMs),
      ),
    );
    console.log(
      row(
        "the scenario's own duration",
        clicks.map((c) => c.scenarioMs),
      ),
    );
    console.log(
      row(
        'request → result − scenario',
        clicks.map((c) => c.resultMs - c.scenarioMs),
      ),
    );
    console.log(`  load average after: ${load()}`);
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const first = sorted(clicks.map((c) => c.firstStepMs));
    const overhead = sorted(clicks.map((c) => c.resultMs - c.scenarioMs));
    console.log(
      `  verdict: first step p50 ${Math.round(percentile(first, 50))} ms (target ≤ ${TARGET_FIRST_STEP_P50_MS}), p95 ${Math.round(percentile(first, 95))} ms (target ≤ ${TARGET_FIRST_STEP_P95_MS}); result beyond the scenario p95 ${Math.round(percentile(overhead, 95))} ms (target ≤ ${TARGET_OVERHEAD_MS})`,
    );
  } finally {
    socket.current?.disconnect();
    await test.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
