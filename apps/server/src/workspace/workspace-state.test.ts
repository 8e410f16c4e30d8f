import { workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('where a member left off, cached or not, on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  /** Runs a read twice; on PGlite the second must find the member's state in memory. */
  async function warm<T>(read: () => Promise<T>): Promise<T> {
    await read();
    const before = test.services.workspaces.state.cacheStats();
    const answer = await read();
    const after = test.services.workspaces.state.cacheStats();
    if (backend === 'pglite') expect(after!.hits).toBeGreaterThan(before!.hits);
    else expect(after).toBeNull();
    return answer;
  }

  it('answers each change of the last environment, feature and scenario on the next read', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'staging', data: { baseUrl: 'https://staging.example.com' } } });
    const envs = () => user.api.call(ws.getEnvList, { body: { projectId } });
    const features = () => user.api.call(ws.getFeatureList, { body: { projectId } });

    // No row yet: the absent row is what is kept.
    expect((await warm(envs)).lastActiveEnv).toBe('default.json');
    expect((await warm(features)).lastActiveFeatureIndex).toBeNull();

    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, env: 'staging.json', featureIndex: 2, scenarioIndex: 1 } });
    expect((await warm(envs)).lastActiveEnv).toBe('staging.json');
    expect(await warm(features)).toMatchObject({ lastActiveFeatureIndex: 2, lastActiveScenarioIndex: 1 });

    // A rename of the current environment moves the member's choice with it (the service writes the state).
    await user.api.call(ws.editEnv, {
      body: { projectId, name: 'staging', newName: 'qa', newData: { baseUrl: 'https://qa.example.com' } },
    });
    expect((await envs()).lastActiveEnv).toBe('qa.json');
    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, featureIndex: 0 } });
    expect((await features()).lastActiveFeatureIndex).toBe(0);
  });

  it('keeps each member’s state apart', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    await user.api.call(ws.updateLastActiveWorkspace, { body: { projectId, featureIndex: 4 } });
    const other = await signUp(test);
    await other.api.call(ws.updateLastActiveWorkspace, { body: { projectId: other.projectId, featureIndex: 1 } });
    expect((await user.api.call(ws.getFeatureList, { body: { projectId } })).lastActiveFeatureIndex).toBe(4);
    expect((await other.api.call(ws.getFeatureList, { body: { projectId: other.projectId } })).lastActiveFeatureIndex).toBe(1);
  });
});
