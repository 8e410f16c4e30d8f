import { readFileSync } from 'node:fs';
import { authCalls, retentionCalls, runnerCalls, runsCalls, type RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onePassedScenarioReport } from '../testing/report-fixture.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { RunsRepo } from './runs.repo.js';

/** A report of `passed` passing and `failed` failing scenarios. */
function report(name: string, passed: number, failed: number): RunReport {
  const base = onePassedScenarioReport(name);
  const one = base.testCases[0]!;
  const cases = [
    ...Array.from({ length: passed }, (_, i) => ({ ...one, id: `p${i}`, scenarioName: `${name} passes ${i}` })),
    ...Array.from({ length: failed }, (_, i) => ({
      ...one,
      id: `f${i}`,
      scenarioName: `${name} fails ${i}`,
      result: { ...one.result, status: 'FAILED' as const },
    })),
  ];
  return { ...base, name, testCases: cases };
}

/**
 * The dashboard's all-time counts come from totals that triggers on `runs` keep (counting a year of
 * runs per dashboard load was the slowest read at a million test cases). Each step below compares
 * them with the spec's numbers and with a count of the runs themselves.
 */
describe.each(testBackends())('dashboard totals on %s', (backend) => {
  let test: TestApp;
  let ada: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  let key: ReturnType<TestApp['client']>;

  const dashboard = async (user = ada) =>
    (await user.api.call(runsCalls.dashboardDetails, { query: { projectId: user.projectId } })).projectSummary.runsAndScenarios;
  const counted = async (projectId: string) =>
    (
      await test.database.rows<{ runs: number; scenarios: number; passed: number; failed: number }>(
        `select count(*)::int as runs, coalesce(sum(total_scenarios), 0)::int as scenarios,
                (count(*) filter (where status = 'PASSED'))::int as passed, (count(*) filter (where status = 'FAILED'))::int as failed
         from runs where project_id = '${projectId}'`,
      )
    )[0];
  const upload = async (uploadKey: string, body: Partial<{ rerunOf: string }>, runReport: RunReport) =>
    (await key.call(runnerCalls.uploadRun, { body: { projectId: ada.projectId, uploadKey, report: runReport, ...body } })).runId;

  beforeAll(async () => {
    test = await startTestApp(backend);
    ada = await signUp(test, { email: 'ada@acme.test' });
    bob = await signUp(test, { email: 'bob@acme.test' });
    key = test.client((await ada.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: ada.projectId } })).accessKey.token);
  });
  afterAll(async () => test?.close());

  it('counts uploads, reruns, an execution filling its run, a stop, retention and project deletion exactly, per project', async () => {
    expect(await dashboard()).toEqual({ runs: 0, scenarios: 0, passed: 0, failed: 0 });

    const nightly = await upload('nightly-1', {}, report('Nightly', 2, 0));
    const second = report('Nightly', 2, 1);
    await upload('nightly-2', {}, second);
    await upload('nightly-1-again', { rerunOf: nightly }, report('Nightly', 1, 0));
    // The same upload retried is one run.
    await upload('nightly-2', {}, second);
    expect(await dashboard()).toEqual({ runs: 3, scenarios: 6, passed: 2, failed: 1 });

    // An execution's run starts empty and PASSED, fills scenario by scenario, then is stopped.
    const repo = new RunsRepo(test.database.db);
    const time = new Date();
    const runId = await repo.insertExecutionReport({
      projectId: ada.projectId,
      uploadKey: 'execution-run-1',
      username: 'Ada',
      name: 'Checkout flow',
      mode: 'cloud',
      envName: 'default',
      envBaseUrl: 'http://rehearse.test/',
      browser: 'chromium',
      startTime: time,
      endTime: time,
    });
    expect(await dashboard()).toEqual({ runs: 4, scenarios: 6, passed: 3, failed: 1 });
    const scenario = (name: string, status: 'PASSED' | 'FAILED') => ({
      projectId: ada.projectId,
      scenarioName: name,
      featureName: 'Checkout',
      status,
      startTime: time,
      endTime: time,
      report: {},
      appendKey: name,
    });
    await repo.appendTestCases(runId, [scenario('pays', 'PASSED')], []);
    expect(await dashboard()).toEqual({ runs: 4, scenarios: 7, passed: 3, failed: 1 });
    await repo.appendTestCases(runId, [scenario('refunds', 'FAILED')], []);
    expect(await dashboard()).toEqual({ runs: 4, scenarios: 8, passed: 2, failed: 2 });
    await repo.markStopped(runId);
    expect(await dashboard()).toEqual({ runs: 4, scenarios: 8, passed: 2, failed: 2 });
    expect(await dashboard()).toEqual(await counted(ada.projectId));

    // Bob's project is another project's business.
    expect(await dashboard(bob)).toEqual({ runs: 0, scenarios: 0, passed: 0, failed: 0 });

    // Retention keeps the newest run: the execution's. Nightly 1 goes with its rerun.
    await ada.api.call(retentionCalls.setRetention, { body: { projectId: ada.projectId, keepDays: null, keepRuns: 1 } });
    await test.services.housekeeping.sweep();
    expect(await dashboard()).toEqual({ runs: 1, scenarios: 2, passed: 0, failed: 1 });
    expect(await dashboard()).toEqual(await counted(ada.projectId));

    // Migration 0019 fills the totals of runs stored before it from the runs themselves.
    await test.database.execute('delete from project_run_totals');
    const migration = readFileSync(new URL('../../drizzle/0019_reports_at_scale.sql', import.meta.url), 'utf8');
    await test.database.execute(migration.split('--> statement-breakpoint').at(-1)!);
    expect(await dashboard()).toEqual({ runs: 1, scenarios: 2, passed: 0, failed: 1 });

    await ada.api.call(authCalls.deleteProject, { body: { project_id: ada.projectId } });
    expect(await test.database.rows(`select * from project_run_totals where project_id = '${ada.projectId}'`)).toEqual([]);
  });
});
