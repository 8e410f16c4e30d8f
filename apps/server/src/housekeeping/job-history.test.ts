import { executionCalls as calls, runnerCalls, runsCalls, scenarioJobCalls, workerCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onePassedScenarioReport } from '../testing/report-fixture.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

const FEATURE = `Feature: Nightly

  @nightly
  Scenario: Opens the shop
    Given I open "/"

  @nightly
  Scenario: Opens the cart
    Given I open "/cart"
`;

describe.each(testBackends())('job history on %s', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  const count = async (table: string) => (await test.database.rows<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
  /** Moves every record `days` into the past, as if that much time went by. */
  const age = async (days: number) => {
    const by = `interval '${days} days'`;
    await test.database.execute(`update execution_runs set created_at = created_at - ${by}, finished_at = finished_at - ${by}`);
    await test.database.execute(`update execution_jobs set created_at = created_at - ${by}, finished_at = finished_at - ${by}`);
    await test.database.execute(`update scenario_jobs set created_at = created_at - ${by}, finished_at = finished_at - ${by}`);
  };

  beforeAll(async () => {
    // Two weeks kept, as by default; the sweep is called by the test, not waited for.
    test = await startTestApp(backend, { JOB_HISTORY_DAYS: '14' });
    user = await signUp(test, { email: 'history@acme.test' });
    projectId = user.projectId;
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'nightly.feature', content: FEATURE } } });
  });
  afterAll(async () => test?.close());

  it('deletes ended jobs past the kept days, while the executions still say how their runs went', async () => {
    const worker = test.client((await test.services.workerTokens.create('history test')).token);
    const { execution } = await user.api.call(calls.create, {
      body: {
        projectId,
        name: 'Nightly',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'All', threadCount: 2, tags: ['@nightly'] }] }],
      },
    });
    const started = await user.api.call(calls.run, { params: { id: execution.id } });
    for (const workerId of ['w-1', 'w-2']) {
      const { job } = await worker.call(workerCalls.claim, { body: { workerId, waitMs: 0 } });
      await test.client(job!.accessToken).call(runnerCalls.uploadRun, {
        body: { projectId, uploadKey: job!.jobId, appendTo: job!.runId, report: onePassedScenarioReport('Nightly', job!.scenarioName) },
      });
      await worker.call(workerCalls.finish, { body: { workerId, jobId: job!.jobId, outcome: 'passed' } });
    }
    expect(await test.services.engine.status(execution.id)).toMatchObject({ running: false, totalScenarios: 2, scenariosPassed: 2 });
    expect(await test.database.rows(`select total_jobs, passed_jobs, failed_jobs from execution_runs`)).toEqual([
      { total_jobs: 2, passed_jobs: 2, failed_jobs: 0 },
    ]);
    // A "Run scenario" request that ended. (Fired schedule slots are pg-boss jobs: its retention forgets them, job-queue.test.)
    const { job: scenarioJob } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId, featureName: 'nightly', scenarioName: 'Opens the shop', environment: 'default' },
    });
    // No worker runs it here: it ends as a worker would have ended it.
    await test.database.execute(`update scenario_jobs set state = 'failed', finished_at = now() where id = '${scenarioJob.id}'`);

    // Within the kept days nothing goes.
    await age(13);
    expect(await test.services.housekeeping.sweep()).toMatchObject({ executionJobs: 0, scenarioJobs: 0 });
    expect([await count('execution_jobs'), await count('scenario_jobs')]).toEqual([2, 1]);

    // Past them, the work records go; the run, its report and the execution's counts stay.
    await age(2);
    expect(await test.services.housekeeping.sweep()).toMatchObject({ executionJobs: 2, scenarioJobs: 1 });
    expect([await count('execution_jobs'), await count('scenario_jobs')]).toEqual([0, 0]);
    expect(await test.services.engine.status(execution.id)).toMatchObject({ running: false, totalScenarios: 2, scenariosPassed: 2 });
    const { run } = await user.api.call(runsCalls.getRun, { query: { runId: started.runId } });
    expect(run).toMatchObject({ status: 'PASSED', totalScenarios: 2, totalScenariosPassed: 2 });
    expect(run.execution).toMatchObject({ executionId: execution.id, running: false, scenariosPassed: 2, scenariosFailed: 0 });
  });

  it('never deletes the jobs of a run still running or queued work, however old', async () => {
    const { execution } = await user.api.call(calls.create, {
      body: { projectId, name: 'Long', env: 'default', flows: [{ scenarioGroups: [{ name: 'All', threadCount: 1, tags: ['@nightly'] }] }] },
    });
    await user.api.call(calls.run, { params: { id: execution.id } });
    await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId, featureName: 'nightly', scenarioName: 'Opens the cart', environment: 'default' },
    });
    await age(60);
    expect(await test.services.housekeeping.sweep()).toMatchObject({ executionJobs: 0, scenarioJobs: 0 });
    expect([await count('execution_jobs'), await count('scenario_jobs')]).toEqual([2, 1]);
    expect(await test.services.engine.status(execution.id)).toMatchObject({ running: true, totalScenarios: 2 });
    await user.api.call(calls.halt, { params: { id: execution.id } });
  });
});
