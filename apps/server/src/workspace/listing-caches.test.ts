import { workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

type User = Awaited<ReturnType<typeof signUp>>;

/** The three listings kept per version of their folder or file (environments/, data/data.json, features/). */
async function listings(user: User) {
  const projectId = user.projectId;
  const [environments, testData, features] = await Promise.all([
    user.api.call(ws.getEnvList, { body: { projectId } }),
    user.api.call(ws.getTestData, { query: { projectId } }),
    user.api.call(ws.getFeatureList, { body: { projectId } }),
  ]);
  return {
    environments: environments.allEnv,
    testData: testData.testData,
    features: features.features.map((feature) => ({ name: feature.name, scenarios: feature.scenarios.map((s) => s.name) })),
  };
}

describe.each(testBackends())('workspace listings cached by folder version on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  it('answers the same listings after a commit to other files, shows a change to a folder in the next read, and only in its own project', async () => {
    // Two new projects hold the same files, so their folders are the same git objects.
    const a = await signUp(test);
    const b = await signUp(test);
    const projectId = a.projectId;
    const before = await listings(a);
    expect(await listings(b)).toEqual(before);

    await a.api.call(ws.pushFile, { body: { projectId, directory: 'notes', file: { name: 'n.txt', content: 'note\n' } } });
    expect(await listings(a)).toEqual(before);

    await a.api.call(ws.pushEnv, { body: { projectId, name: 'staging', data: { baseUrl: 'https://staging.example.com' } } });
    expect((await listings(a)).environments.map((env) => env.name)).toEqual([
      ...before.environments.map((env) => env.name),
      'staging.json',
    ]);

    await a.api.call(ws.changeTestData, {
      body: { projectId, testData: [{ key: 'user', value: 'ada', DataType: 'string', environment: '*' }] },
    });
    expect((await listings(a)).testData).toEqual([{ key: 'user', value: 'ada', DataType: 'string', environment: '*' }]);

    await a.api.call(ws.pushScenario, {
      body: { projectId, name: 'checkout', data: 'Scenario: Pay\n  Given I open "/demo-shop/"\n' },
    });
    expect((await listings(a)).features).toEqual([...before.features, { name: 'checkout.feature', scenarios: ['Pay'] }]);

    // A changed scenario is read again from its new file.
    await a.api.call(ws.pushScenario, {
      body: { projectId, name: 'checkout', scenarioIndex: 0, data: 'Scenario: Pay by card\n  Given I open "/demo-shop/"\n' },
    });
    expect((await listings(a)).features).toEqual([...before.features, { name: 'checkout.feature', scenarios: ['Pay by card'] }]);

    expect(await listings(b)).toEqual(before);
  });
});
