import { authCalls, runnerCalls, runsCalls, workspaceCalls, type RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

/** A one-scenario report whose step typed `typed` and whose page echoed it back. */
function reportTyping(typed: string, startTime = new Date().toISOString()): RunReport {
  const ok = { status: 'PASSED' as const, startTime, endTime: startTime };
  return {
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    startTime,
    endTime: startTime,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: 'runner-1',
        scenarioName: 'Sign in',
        featureName: 'Accounts',
        uri: 'features/accounts.feature',
        tags: [],
        result: ok,
        parameters: { password: typed },
        steps: [
          {
            keyword: 'When',
            type: 'Action',
            text: `I fill "Password" with "${typed}"`,
            result: ok,
            commands: [{ type: 'fill', value: typed, text: `typed ${typed} into Password`, result: ok }],
            networkData: [],
            webLog: [{ type: 'warning', text: `password=${typed}&user=ada`, time: startTime }],
          },
        ],
        env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
        webLog: [],
        networkLog: [],
      },
    ],
  };
}

describe.each(testBackends())('report uploads on %s', (backend) => {
  let test: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let keyApi: ReturnType<TestApp['client']>;
  let projectId: string;
  beforeAll(async () => {
    test = await startTestApp(backend);
    owner = await signUp(test, { email: 'uploads@acme.test' });
    projectId = owner.projectId;
    keyApi = test.client((await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId } })).accessKey.token);
  });
  afterAll(async () => test?.close());

  it("never serves back a report holding one of the project's secret values in plain text", async () => {
    await owner.api.call(workspaceCalls.changeTestData, {
      body: { projectId, testData: [{ key: 'password', value: 'S3cret-Value!', DataType: 'secret', environment: '*' }] },
    });
    const { runId } = await keyApi.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: 'masked-0001', report: reportTyping('S3cret-Value!') },
    });
    const { run } = await owner.api.call(runsCalls.getRun, { query: { runId } });
    const served = JSON.stringify(run);
    expect(served).not.toContain('S3cret-Value!');
    const step = run.report.testCases[0]!.steps[0]!;
    expect(step.text).toBe('I fill "Password" with "****"');
    expect(step.commands[0]!.value).toBe('****');
    expect(step.webLog[0]!.text).toBe('password=****&user=ada');
    const [stored] = await test.database.rows<{ report: unknown }>(`select report from test_cases where run_id = '${runId}'`);
    expect(JSON.stringify(stored!.report)).not.toContain('S3cret-Value!');
  });

  it('hides a secret shorter than four characters only where it is a whole value, as the runner does (issue 46)', async () => {
    await owner.api.call(workspaceCalls.changeTestData, {
      body: { projectId, testData: [{ key: 'pin', value: 'me', DataType: 'secret', environment: '*' }] },
    });
    const report = reportTyping('me');
    report.testCases[0]!.steps[0]!.text = 'I open the timeout page';
    const { runId } = await keyApi.call(runnerCalls.uploadRun, { body: { projectId, uploadKey: 'short-0001', report } });
    const { run } = await owner.api.call(runsCalls.getRun, { query: { runId } });
    const step = run.report.testCases[0]!.steps[0]!;
    // Before: "I open the ti****out page".
    expect(step.text).toBe('I open the timeout page');
    expect(step.commands[0]!.value).toBe('****');
    expect(run.report.testCases[0]!.parameters).toEqual({ password: '****' });
  });

  it('takes a TOTP secret as apps print it, dashes and lower case included (issue 46)', async () => {
    for (const value of ['JBSW-Y3DP-EHPK-3PXP', 'jbsw y3dp ehpk 3pxp'])
      await owner.api.call(workspaceCalls.changeTestData, {
        body: { projectId, testData: [{ key: 'otp', value, DataType: 'totp', environment: '*' }] },
      });
    const refused = await failure(
      owner.api.call(workspaceCalls.changeTestData, {
        body: { projectId, testData: [{ key: 'otp', value: 'JBSW-Y3DP-EHPK-3PX1', DataType: 'totp', environment: '*' }] },
      }),
    );
    expect([refused.httpStatus, refused.message]).toEqual([400, 'The totp value must be a base32 secret key.']);
  });

  it('answers a reused upload key with a different body 409, and the same body with the first run', async () => {
    const body = { projectId, uploadKey: 'idem-key-0001', report: reportTyping('first body') };
    const first = await keyApi.call(runnerCalls.uploadRun, { body });
    const retry = await keyApi.call(runnerCalls.uploadRun, { body });
    expect(retry.runId).toBe(first.runId);
    const other = await failure(keyApi.call(runnerCalls.uploadRun, { body: { ...body, report: reportTyping('another body') } }));
    expect([other.httpStatus, other.message]).toEqual([
      409,
      'This upload key was already used for a different report. Use a new key for a new report.',
    ]);
  });

  it('answers a non-date timestamp, a NUL in stored text and a prototype environment with 400, storing nothing', async () => {
    const [before] = await test.database.rows<{ n: number }>('select count(*)::int as n from runs');
    for (const bad of ['yesterday', '2026-02-31T10:00:00Z', '0000-01-01T00:00:00Z', '']) {
      const refused = await failure(
        keyApi.call(runnerCalls.uploadRun, { body: { projectId, uploadKey: `bad-date-${bad.length}x`, report: reportTyping('x', bad) } }),
      );
      expect([bad, refused.httpStatus, refused.message]).toEqual([
        bad,
        400,
        'Times must be ISO 8601 date-times, e.g. 2026-01-31T12:00:00Z.',
      ]);
    }
    const nul = await failure(
      keyApi.call(runnerCalls.uploadRun, { body: { projectId, uploadKey: 'nul-in-text', report: reportTyping('a\u0000b') } }),
    );
    expect([nul.httpStatus, nul.message]).toEqual([400, 'Text cannot contain the NUL character (\\u0000).']);
    const [after] = await test.database.rows<{ n: number }>('select count(*)::int as n from runs');
    expect(after!.n).toBe(before!.n);

    const nulName = await failure(owner.api.call(authCalls.createProject, { body: { name: 'Shop\u0000' } }));
    expect([nulName.httpStatus, nulName.message]).toEqual([400, 'Text cannot contain the NUL character (\\u0000).']);

    for (const environment of ['__proto__', 'constructor', 'prototype']) {
      const refused = await failure(keyApi.call(runnerCalls.runTestData, { body: { projectId, environment } }));
      expect([environment, refused.httpStatus, refused.message]).toEqual([
        environment,
        400,
        'This name is reserved: __proto__, constructor and prototype cannot be used.',
      ]);
    }
  });
});
