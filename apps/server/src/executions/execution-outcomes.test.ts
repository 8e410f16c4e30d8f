import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { executionCalls as calls, runsCalls, workspaceCalls as ws, type ExecutionStatus } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { executionFinished } from '../testing/execution-finished.js';

const RUNNER_BIN = fileURLToPath(new URL('../../../../packages/cli/bin/rehearse.mjs', import.meta.url));
/**
 * The worker's job deadline in this test (REHEARSE_JOB_TIMEOUT_SECONDS; the contract's 15 minutes by
 * default). Short, so the hanging job ends soon, but long enough for a real scenario in Chromium on
 * a loaded two-core machine: at 15 s the retried pull of the first test missed it while another
 * suite ran Chromium beside it.
 */
const JOB_TIMEOUT_SECONDS = 40;

const FEATURE = `Feature: Outcomes

  @shop
  Scenario: Home lists the mug
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  @shop
  Scenario: Home lists the backpack
    Given I open "/"
    Then I should see "Trail Backpack"

  @hangs
  Scenario: Never cleans up
    Given I open "/"
`;

/** Step code with an After hook that never returns (cucumber's own hook timeout switched off). */
const HANGING_HOOK = `import { After } from '@cucumber/cucumber';

After({ tags: '@hangs', timeout: -1 }, function () {
  return new Promise(() => {
    setInterval(() => undefined, 1000);
  });
});
`;

// A real worker (two threads, sandboxed jobs, real Chromium) against a listening server, through a proxy.
describe('typed outcomes of execution jobs: infrastructure errors are retried, never failed scenarios', () => {
  let test: TestApp;
  let proxy: FlakyProxy;
  let worker: ChildProcess | undefined;
  let user: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    // Two attempts, one second apart, so the test of a job that always hangs ends in under a minute.
    test = await startTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite', { JOB_ATTEMPTS: '2', JOB_RETRY_BACKOFF_SECONDS: '1' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    proxy = flakyProxy(base);
    await proxy.listen();
    const proxied = proxy.url();

    user = await signUp(test, { email: 'outcomes@acme.test' });
    const { projectId } = user;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${base}/demo-shop/` } } });
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'outcomes.feature', content: FEATURE } } });
    await user.api.call(ws.pushFile, {
      body: { projectId, directory: 'features/step_definitions', file: { name: 'hang.mjs', content: HANGING_HOOK } },
    });
    const { token } = await test.services.workerTokens.create('outcomes test');
    worker = spawn(process.execPath, [RUNNER_BIN, 'worker', '--server', proxied, '--threads', '2'], {
      env: { ...process.env, REHEARSE_WORKER_TOKEN: token, REHEARSE_JOB_TIMEOUT_SECONDS: String(JOB_TIMEOUT_SECONDS), NO_COLOR: '1' },
      stdio: 'ignore',
      // Own process group, so the test can stop the worker and its threads at once.
      detached: true,
    });
  });
  afterAll(async () => {
    try {
      if (worker?.pid && worker.exitCode === null) process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await proxy?.close();
    await test?.close();
  });

  const execute = async (name: string, tags: string[]) => {
    const { execution } = await user.api.call(calls.create, {
      body: { projectId: user.projectId, name, env: 'local', flows: [{ scenarioGroups: [{ name: 'All', threadCount: 2, tags }] }] },
    });
    const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });
    return { executionId: execution.id, runId };
  };
  const finished = (executionId: string): Promise<ExecutionStatus> => executionFinished(test, executionId);
  const jobsOf = (runId: string) =>
    test.database.rows<{
      scenario_name: string;
      state: string;
      attempts: number;
      errored_worker_id: string | null;
      message: string | null;
    }>(
      `select j.scenario_name, j.state, j.attempts, j.errored_worker_id, j.message from execution_jobs j
       join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}' order by j.position`,
    );

  it(
    'a job whose workspace download fails once is retried, and the execution passes with no failed scenario',
    { timeout: 240_000 },
    async () => {
      proxy.refuseNextDownload();
      const { executionId, runId } = await execute('Pull fails once', ['@shop']);
      const status = await finished(executionId);
      // The jobs first: on a failure they say why (their message).
      expect(await jobsOf(runId)).toMatchObject([
        { state: 'passed', message: null },
        { state: 'passed', message: null },
      ]);
      expect(status).toMatchObject({
        runId,
        totalScenarios: 2,
        scenariosPassed: 2,
        scenariosFailed: 0,
        scenariosErrored: 0,
      });
      expect(proxy.refused()).toBe(1);
      const jobs = await jobsOf(runId);
      // Exactly one of them had a second attempt, after the thread whose pull failed said `error`.
      const retried = jobs.filter((job) => job.attempts === 2);
      expect(retried).toHaveLength(1);
      expect(retried[0]!.errored_worker_id).toBeTruthy();
      expect(jobs.filter((job) => job.attempts === 1 && job.errored_worker_id === null)).toHaveLength(1);
      const { run } = await user.api.call(runsCalls.getRun, { query: { runId } });
      expect(run).toMatchObject({ status: 'PASSED', totalScenarios: 2, totalScenariosPassed: 2 });
      expect(run.report.testCases.map((testCase) => testCase.scenarioName).sort()).toEqual([
        'Home lists the backpack',
        'Home lists the mug',
      ]);
    },
  );

  it(
    'a job that hangs in an After hook is ended at its deadline, retried, then reported as an error with the reason',
    { timeout: 240_000 },
    async () => {
      const started = Date.now();
      const { executionId, runId } = await execute('Hangs', ['@hangs']);
      expect(await finished(executionId)).toMatchObject({
        runId,
        totalScenarios: 1,
        scenariosPassed: 0,
        scenariosFailed: 0,
        scenariosErrored: 1,
      });
      // Two attempts, each stopped at the deadline, one backoff between them; far from the 15-minute default.
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(2 * JOB_TIMEOUT_SECONDS * 1000);
      expect(took).toBeLessThan(2 * JOB_TIMEOUT_SECONDS * 1000 + 45_000);
      expect(await jobsOf(runId)).toEqual([
        {
          scenario_name: 'Never cleans up',
          state: 'error',
          attempts: 2,
          errored_worker_id: expect.any(String) as string,
          message: `The scenario did not finish within ${JOB_TIMEOUT_SECONDS} seconds and was stopped at its deadline.`,
        },
      ]);
      // The run cannot pass with a scenario that never ended; it stored no test case for it.
      const { run } = await user.api.call(runsCalls.getRun, { query: { runId } });
      expect(run).toMatchObject({ status: 'FAILED', totalScenarios: 0 });
      expect(run.execution).toMatchObject({ running: false, scenariosFailed: 0, scenariosErrored: 1 });
      // The report names it, with the reason, though it has no test case.
      expect(run.execution?.erroredScenarios).toEqual([
        {
          featurePath: 'features/outcomes.feature',
          scenarioName: 'Never cleans up',
          reason: `The scenario did not finish within ${JOB_TIMEOUT_SECONDS} seconds and was stopped at its deadline.`,
        },
      ]);
    },
  );
});
