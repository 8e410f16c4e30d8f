import type { AddressInfo } from 'node:net';
import { runsCalls, scenarioJobCalls, workspaceCalls as ws } from '@rehearse/contract';
import { breakBrowserLaunch } from '@rehearse/runner/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../testing/scenario-job.js';
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

  it('queues a scenario, runs it in a worker process and links the uploaded run', { timeout: 180_000 }, async () => {
    const { job } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId, featureName: 'smoke', scenarioName: 'Home lists products', environment: 'local.json' },
    });
    expect(job.state).toMatch(/queued|running/);
    const passed = await jobFinished(user.api, job.id);
    expect([passed.state, passed.message]).toEqual(['passed', null]);
    const { run } = await user.api.call(runsCalls.getRun, { query: { runId: passed.runId! } });
    // The server ran it: a cloud run (spec 02 Run.mode), whatever the runner's report says.
    expect(run).toMatchObject({ type: 'scenario', status: 'PASSED', totalScenarios: 1, name: 'Home lists products', mode: 'cloud' });
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
    const failed = await jobFinished(user.api, failing.id);
    expect(failed.state).toBe('failed');
    const details = await user.api.call(runsCalls.getRun, { query: { runId: failed.runId! } });
    expect(details.run.status).toBe('FAILED');
    // The job's JUnit XML, HTML report (kept as cucumber's messages, rendered on download) and the
    // failed scenario's trace were kept with the run (the worker's folder is gone), and come back
    // from it; the passed run kept no trace.
    const failedCase = details.run.report.testCases[0]!;
    expect(testCase.traceFileId).toBeUndefined();
    for (const [id, contentType] of [
      [failedCase.reportFiles?.junit, 'application/xml'],
      [failedCase.reportFiles?.messages, 'text/html'],
      [failedCase.traceFileId, 'application/zip'],
    ] as const) {
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      const file = await user.api.call(runsCalls.runScreenshot, {
        params: { runId: details.run.id, testCaseId: failedCase.id, screenshotId: id! },
      });
      expect(file.contentType).toBe(contentType);
    }
    // The HTML report, rendered from the messages, carries the scenario's screenshots again.
    const page = await user.api.call(runsCalls.runScreenshot, {
      params: { runId: details.run.id, testCaseId: failedCase.id, screenshotId: failedCase.reportFiles!.messages! },
    });
    const html = Buffer.from(page.image, 'base64').toString('utf8');
    const failedShot = failedCase.steps.flatMap((step) => step.commands).find((command) => command.screenshotId)!.screenshotId!;
    const stored = await user.api.call(runsCalls.runScreenshot, {
      params: { runId: details.run.id, testCaseId: failedCase.id, screenshotId: failedShot },
    });
    expect(html).toContain(`"body":"${stored.image}"`);
    expect(html).not.toContain('rehearse-artifact:');
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

describe('a "Run scenario" job under its deadline, with infrastructure errors retried', () => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;

  // The deadline is a server setting (RUN_TIMEOUT_MINUTES, 15 by default): 20 seconds here; two
  // attempts one second apart (JOB_ATTEMPTS, JOB_RETRY_BACKOFF_SECONDS).
  beforeAll(async () => {
    test = await startTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite', {
      WORKER_PROCESSES: '1',
      RUN_TIMEOUT_MINUTES: String(20 / 60),
      JOB_ATTEMPTS: '2',
      JOB_RETRY_BACKOFF_SECONDS: '1',
    });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (test.app.server.address() as AddressInfo).port;
    user = await signUp(test, { email: 'hang@acme.test' });
    const { projectId } = user;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `http://127.0.0.1:${port}/demo-shop/` } } });
    await user.api.call(ws.pushFile, {
      body: {
        projectId,
        directory: 'features',
        file: {
          name: 'hang.feature',
          content:
            'Feature: Hang\n\n  @hangs\n  Scenario: Never cleans up\n    Given I open "/"\n\n  Scenario: Home lists the mug\n    Given I open "/"\n    Then I should see "Enamel Camp Mug"\n',
        },
      },
    });
    await user.api.call(ws.pushFile, {
      body: { projectId, directory: 'features/step_definitions', file: { name: 'hang.mjs', content: HANGING_HOOK } },
    });
  });
  afterAll(async () => test?.close());

  const jobRow = async (jobId: string) =>
    (await test.database.rows<{ state: string; attempts: number }>(`select state, attempts from scenario_jobs where id = '${jobId}'`))[0]!;
  it('a browser that does not start once is retried, and the retry passes', { timeout: 120_000 }, async () => {
    // Node is no browser: the first attempt's launch fails (jobs take the browser's variables from the server's environment).
    const restore = breakBrowserLaunch(process.execPath);
    try {
      const { job } = await user.api.call(scenarioJobCalls.runScenario, {
        body: { projectId: user.projectId, featureName: 'hang', scenarioName: 'Home lists the mug', environment: 'local' },
      });
      // The first attempt ended in an infrastructure error and waits for its retry: the browser is fixed meanwhile.
      const until = Date.now() + 60_000;
      while (Date.now() < until && !((await jobRow(job.id)).attempts === 1 && (await jobRow(job.id)).state === 'queued'))
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await jobRow(job.id)).toEqual({ state: 'queued', attempts: 1 });
      const { job: waiting } = await user.api.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } });
      expect(waiting.message).toMatch(/^The browser did not start/);
      restore();
      const passed = await jobFinished(user.api, job.id);
      expect(passed).toMatchObject({ state: 'passed', message: null });
      expect(passed.runId).toBeTruthy();
      expect(await jobRow(job.id)).toEqual({ state: 'passed', attempts: 2 });
    } finally {
      restore();
    }
  });

  it(
    'ends a job whose After hook hangs at the deadline of each attempt, as an error with its reason, not a failed scenario',
    { timeout: 150_000 },
    async () => {
      const started = Date.now();
      const { job } = await user.api.call(scenarioJobCalls.runScenario, {
        body: { projectId: user.projectId, featureName: 'hang', scenarioName: 'Never cleans up', environment: 'local' },
      });
      expect(await jobFinished(user.api, job.id)).toMatchObject({
        state: 'error',
        runId: null,
        message: 'The scenario did not finish within 20 seconds and was stopped at its deadline.',
      });
      // Two attempts, each stopped at its deadline, a second apart.
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(40_000);
      expect(took).toBeLessThan(80_000);
      expect(await jobRow(job.id)).toEqual({ state: 'error', attempts: 2 });
      // No run was stored for it, and the attempts' keys are gone.
      expect(await test.database.rows(`select id from runs where project_id = '${user.projectId}' and name = 'Never cleans up'`)).toEqual(
        [],
      );
      expect(await test.database.rows(`select * from access_keys where name like 'Run scenario %'`)).toEqual([]);
    },
  );
});
