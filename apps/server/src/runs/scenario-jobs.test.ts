import type { AddressInfo } from 'node:net';
import { runsCalls, scenarioJobCalls, workspaceCalls as ws, type ScenarioJob } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

const FEATURE = `Feature: Shop smoke

  Scenario: Home lists products
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  Scenario: A product that does not exist
    Given I open "/"
    Then I should see "Unicorn saddle"
`;

describe('running a scenario from the server', () => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;

  beforeAll(async () => {
    test = await startTestApp('pglite', { WORKER_PROCESSES: '1' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (test.app.server.address() as AddressInfo).port;
    user = await signUp(test, { email: 'runner@acme.test' });
    projectId = user.projectId;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `http://127.0.0.1:${port}/demo-shop/` } } });
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'smoke.feature', content: FEATURE } } });
  });
  afterAll(async () => test?.close());

  async function finished(jobId: string): Promise<ScenarioJob> {
    for (let i = 0; i < 240; i += 1) {
      const { job } = await user.api.call(scenarioJobCalls.scenarioJob, { params: { jobId } });
      if (job.state !== 'queued' && job.state !== 'running') return job;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the job did not finish in two minutes');
  }

  it('queues a scenario, runs it in a worker process and links the uploaded run', { timeout: 180_000 }, async () => {
    const { job } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId, featureName: 'smoke', scenarioName: 'Home lists products', environment: 'local.json' },
    });
    expect(job.state).toMatch(/queued|running/);
    const passed = await finished(job.id);
    expect([passed.state, passed.message]).toEqual(['passed', null]);
    const { run } = await user.api.call(runsCalls.getRun, { query: { runId: passed.runId! } });
    expect(run).toMatchObject({ type: 'scenario', status: 'PASSED', totalScenarios: 1, name: 'Home lists products' });
    expect(run.report.testCases[0]!.steps.length).toBeGreaterThanOrEqual(2);
    // The runner's screenshots were uploaded to this project and load through the API.
    const testCase = run.report.testCases[0]!;
    const screenshotId = testCase.steps.flatMap((step) => step.commands).find((command) => command.screenshotId)?.screenshotId;
    expect(screenshotId).toMatch(/^[0-9a-f]{64}$/);
    const shot = await user.api.call(runsCalls.runScreenshot, {
      params: { runId: run.id, testCaseId: testCase.id, screenshotId: screenshotId! },
    });
    expect(Buffer.from(shot.image, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const listed = await user.api.call(runsCalls.getDetails, { body: { projectId } });
    expect(listed.projectSummary.report.map((row) => row.id)).toContain(run.id);

    const { job: failing } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId, featureName: 'smoke', scenarioName: 'A product that does not exist', environment: 'local' },
    });
    const failed = await finished(failing.id);
    expect(failed.state).toBe('failed');
    const details = await user.api.call(runsCalls.getRun, { query: { runId: failed.runId! } });
    expect(details.run.status).toBe('FAILED');
    // The job's JUnit XML, HTML report and the failed scenario's trace were kept with the run (the
    // worker's folder is gone), and come back from it; the passed run kept no trace.
    const failedCase = details.run.report.testCases[0]!;
    expect(testCase.traceFileId).toBeUndefined();
    for (const [id, contentType] of [
      [failedCase.reportFiles?.junit, 'application/xml'],
      [failedCase.reportFiles?.html, 'text/html'],
      [failedCase.traceFileId, 'application/zip'],
    ] as const) {
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      const file = await user.api.call(runsCalls.runScreenshot, {
        params: { runId: details.run.id, testCaseId: failedCase.id, screenshotId: id! },
      });
      expect(file.contentType).toBe(contentType);
    }
    // The worker's short-lived access key is gone once the job ends.
    expect(await test.database.rows(`select * from access_keys where name like 'Run scenario %'`)).toEqual([]);
  });

  it('refuses a scenario or environment that does not exist', async () => {
    await expect(
      user.api.call(scenarioJobCalls.runScenario, {
        body: { projectId, featureName: 'smoke', scenarioName: 'Nope', environment: 'local' },
      }),
    ).rejects.toThrow('Scenario not found.');
    await expect(
      user.api.call(scenarioJobCalls.runScenario, {
        body: { projectId, featureName: 'smoke', scenarioName: 'Home lists products', environment: 'nowhere' },
      }),
    ).rejects.toThrow('Environment not found.');
  });
});

/** An After hook that never ends (cucumber's own hook timeout switched off), as step code can be written. */
const HANGING_HOOK = `import { After } from '@cucumber/cucumber';

After({ tags: '@hangs', timeout: -1 }, function () {
  return new Promise(() => {
    setInterval(() => undefined, 1000);
  });
});
`;

describe('a "Run scenario" job under its deadline', () => {
  let test: TestApp;

  // The deadline is a server setting (RUN_TIMEOUT_MINUTES, 15 by default): 20 seconds here.
  beforeAll(async () => {
    test = await startTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite', {
      WORKER_PROCESSES: '1',
      RUN_TIMEOUT_MINUTES: String(20 / 60),
    });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => test?.close());

  it(
    'ends a job whose After hook hangs at the deadline, as an error with its reason, not a failed scenario',
    { timeout: 120_000 },
    async () => {
      const port = (test.app.server.address() as AddressInfo).port;
      const user = await signUp(test, { email: 'hang@acme.test' });
      const { projectId } = user;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `http://127.0.0.1:${port}/demo-shop/` } } });
      await user.api.call(ws.pushFile, {
        body: {
          projectId,
          directory: 'features',
          file: { name: 'hang.feature', content: 'Feature: Hang\n\n  @hangs\n  Scenario: Never cleans up\n    Given I open "/"\n' },
        },
      });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features/step_definitions', file: { name: 'hang.mjs', content: HANGING_HOOK } },
      });
      const started = Date.now();
      const { job } = await user.api.call(scenarioJobCalls.runScenario, {
        body: { projectId, featureName: 'hang', scenarioName: 'Never cleans up', environment: 'local' },
      });
      let ended: ScenarioJob | undefined;
      while (!ended && Date.now() - started < 90_000) {
        const { job: now } = await user.api.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } });
        if (now.state !== 'queued' && now.state !== 'running') ended = now;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(ended).toMatchObject({
        state: 'error',
        runId: null,
        message: 'The scenario did not finish within 20 seconds and was stopped at its deadline.',
      });
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(20_000);
      expect(took).toBeLessThan(40_000);
      // No run was stored for it, and its key is gone.
      expect(await test.database.rows(`select id from runs where project_id = '${projectId}'`)).toEqual([]);
      expect(await test.database.rows(`select * from access_keys where name like 'Run scenario %'`)).toEqual([]);
    },
  );
});
