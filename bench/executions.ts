/**
 * Executions bench: one execution of 24 demo-shop scenarios run by the server's own worker child
 * process (`rehearse worker`, real Chromium) with 1, 2 and 4 threads: wall time and speed-up
 * (target ≥ 1.7× at 2 threads), and the time from run/{id} to the first scenario's start
 * (target ≤ 2 s; measured to the worker's claim and to cucumber's scenario start).
 *
 *   npx tsx bench/executions.ts      (also part of `npm run bench`; PostgreSQL with DATABASE_URL)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, executionCalls, runsCalls, workspaceCalls } from '@rehearse/contract';
import { startTestApp } from '../apps/server/src/testing/test-app.js';

const SCENARIOS = 24;
const THREADS = [1, 2, 4];
const TARGET_SPEEDUP_AT_2 = 1.7;
const TARGET_FIRST_START_MS = 2000;
const PRODUCTS = ['Trail Backpack', 'Enamel Camp Mug', 'Summit Rain Jacket'];

const FEATURE = `Feature: Bench shop

  @warmup
  Scenario: Warm up
    Given I open "/"
${Array.from(
  { length: SCENARIOS },
  (_, i) => `
  @bench
  Scenario: Bench ${i + 1}
    Given I open "/"
    Then I should see "${PRODUCTS[i % PRODUCTS.length]}"
`,
).join('')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  // One local worker process with 4 threads, as a single-machine install starts it.
  const test = await startTestApp(backend, { LOCAL_WORKERS: '1', LOCAL_WORKER_THREADS: String(Math.max(...THREADS)) });
  try {
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'executions@bench.test', password: 'bench password', firstname: 'Exe', lastname: 'Cutions' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;
    await test.database.execute(`update projects set max_execution_threads = ${Math.max(...THREADS)} where id = '${projectId}'`);
    await api.call(workspaceCalls.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${base}/demo-shop/` } } });
    await api.call(workspaceCalls.pushFile, { body: { projectId, directory: 'features', file: { name: 'bench.feature', content: FEATURE } } });

    const runOnce = async (tag: string, threads: number) => {
      const { execution } = await api.call(executionCalls.create, {
        body: { projectId, name: `${tag} ×${threads}`, env: 'local', flows: [{ scenarioGroups: [{ name: 'All', threadCount: threads, tags: [tag] }] }] },
      });
      const started = performance.now();
      const startedAt = Date.now();
      const { runId } = await api.call(executionCalls.run, { params: { id: execution.id } });
      for (;;) {
        const status = await test.services.engine!.status(execution.id);
        if (!status.running) break;
        await sleep(100);
      }
      const wallMs = performance.now() - started;
      const [claim] = await test.database.rows<{ first: number }>(
        `select (extract(epoch from min(j.started_at)) * 1000)::float8 as first from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}'`,
      );
      const { run } = await api.call(runsCalls.getRun, { query: { runId } });
      const firstScenario = Math.min(...run.report.testCases.map((testCase) => Date.parse(testCase.result.startTime)));
      return {
        wallMs,
        claimMs: Number(claim!.first) - startedAt,
        firstScenarioMs: firstScenario - startedAt,
        passed: run.totalScenariosPassed,
        total: run.totalScenarios,
      };
    };

    // The worker process starts with the server; a first one-scenario execution warms it (and the OS caches).
    await runOnce('@warmup', 1);
    console.log(`\nExecutions bench (${backend}, ${SCENARIOS} demo-shop scenarios, one local worker process, real Chromium)`);
    console.log('  threads   wall s   speed-up   run→claim ms   run→first scenario ms   passed');
    const results: { threads: number; wallMs: number; claimMs: number; firstScenarioMs: number }[] = [];
    for (const threads of THREADS) {
      const result = await runOnce('@bench', threads);
      results.push({ threads, ...result });
      const speedup = results[0]!.wallMs / result.wallMs;
      console.log(
        `  ${String(threads).padStart(7)} ${(result.wallMs / 1000).toFixed(1).padStart(8)} ${`${speedup.toFixed(2)}×`.padStart(10)} ${String(Math.round(result.claimMs)).padStart(14)} ${String(Math.round(result.firstScenarioMs)).padStart(23)}   ${result.passed}/${result.total}`,
      );
    }
    const at2 = results[0]!.wallMs / results.find((r) => r.threads === 2)!.wallMs;
    const firstStart = Math.min(...results.map((r) => r.firstScenarioMs));
    console.log(`  verdict: ${at2.toFixed(2)}× at 2 threads (${at2 >= TARGET_SPEEDUP_AT_2 ? 'meets' : 'BELOW'} the ${TARGET_SPEEDUP_AT_2}× target); first scenario start ${firstStart} ms (${firstStart <= TARGET_FIRST_START_MS ? 'within' : 'OVER'} the ${TARGET_FIRST_START_MS} ms target)`);
  } finally {
    await test.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
