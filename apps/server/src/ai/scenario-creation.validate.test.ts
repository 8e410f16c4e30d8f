import type { AddressInfo } from 'node:net';
import { aiCalls, runsCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

describe('plain-English scenario validated on an environment', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite', { WORKER_PROCESSES: '1' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => test?.close());

  it('writes the scenario, runs it once through a worker and answers the report link', { timeout: 240_000 }, async () => {
    const { api, projectId } = await signUp(test);
    const port = (test.app.server.address() as AddressInfo).port;
    await api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `http://127.0.0.1:${port}/demo-shop/` } } });
    const answer = await api.call(aiCalls.scenarioCreation, {
      body: {
        projectId,
        featureName: 'Search',
        name: 'Find the mug',
        flow: ["open the shop, search for 'mug' and should see 'Enamel Camp Mug'"],
        parameters: {},
        validateOnEnvironment: 'local',
      },
    });
    expect(answer.steps).toEqual([
      'Given I open "/"',
      'When I fill "Search" with "mug"',
      'And I press "Enter"',
      'Then I should see "Enamel Camp Mug"',
    ]);
    const runId = /run-report\/([0-9a-f-]{36})$/.exec(answer.reportLink ?? '')?.[1];
    expect(runId).toBeDefined();
    const { run } = await api.call(runsCalls.getRun, { query: { runId: runId! } });
    expect(run).toMatchObject({ status: 'PASSED', name: 'Find the mug' });
  });
});
