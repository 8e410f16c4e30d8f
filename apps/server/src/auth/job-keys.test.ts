import { authCalls, runnerCalls, runsCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

// A job's key (scope 'run') is what step code can read out of its own environment: it must be
// worth no more than the run it belongs to.
describe('job keys', () => {
  let test: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let jobKey: { id: string; token: string };

  beforeAll(async () => {
    test = await startTestApp('pglite');
    owner = await signUp(test);
    other = await signUp(test);
    await owner.api.call(ws.changeTestData, {
      body: {
        projectId: owner.projectId,
        testData: [{ key: 'password', value: 'plain-owner-secret', DataType: 'secret', environment: '*' }],
      },
    });
    jobKey = await test.services.accessKeys.createJobKey(owner.projectId, owner.user.id, 'Run scenario test');
  });
  afterAll(async () => test?.close());

  it("reads its own run's plain test data", async () => {
    const api = test.client(jobKey.token);
    const { testData } = await api.call(runnerCalls.runTestData, { body: { projectId: owner.projectId, environment: 'default' } });
    expect(testData).toContainEqual({ key: 'password', value: 'plain-owner-secret', DataType: 'secret' });
  });

  it('is refused for every call a run does not make, with the reason', async () => {
    const api = test.client(jobKey.token);
    const refusals = await Promise.all([
      failure(api.call(ws.getTestData, { query: { projectId: owner.projectId, branch: 'main' } })),
      failure(api.call(ws.getFeatureList, { body: { projectId: owner.projectId } })),
      failure(api.call(authCalls.createAccessKey, { body: { projectId: owner.projectId, name: 'more' } })),
      failure(api.call(runsCalls.getDetails, { body: { projectId: owner.projectId } })),
    ]);
    for (const refusal of refusals) {
      expect(refusal.httpStatus).toBe(403);
      expect(refusal.message).toBe(
        'This key belongs to a running job: it only downloads the workspace, reads the run’s test data and uploads the run’s results.',
      );
    }
  });

  it("is refused for another project's test data", async () => {
    const refusal = await failure(
      test.client(jobKey.token).call(runnerCalls.runTestData, { body: { projectId: other.projectId, environment: 'default' } }),
    );
    expect(refusal.httpStatus).toBe(403);
  });

  it("is not among the project's access keys and dies when deleted", async () => {
    const { accessKeys } = await owner.api.call(authCalls.getAccessKeys, { query: { project_id: owner.projectId } });
    expect(accessKeys.map((key) => key.id)).not.toContain(jobKey.id);
    await test.services.accessKeys.delete(jobKey.id);
    const refusal = await failure(
      test.client(jobKey.token).call(runnerCalls.runTestData, { body: { projectId: owner.projectId, environment: 'default' } }),
    );
    expect(refusal.httpStatus).toBe(401);
  });

  it("a Run scenario key a stopped server left behind dies at its job's deadline; users' keys stay", async () => {
    const deadline = new Date(Date.now() + 2000);
    const left = await test.services.accessKeys.createJobKey(owner.projectId, owner.user.id, 'Run scenario deadbeef', deadline);
    const mine = await test.services.accessKeys.create(owner.projectId, owner.user.id, 'Run scenario of my own');
    const body = { projectId: owner.projectId, environment: 'default' };
    await test.client(left.token).call(runnerCalls.runTestData, { body });
    // Bounded by the deadline itself: the key must be refused once it has passed.
    while (Date.now() <= deadline.getTime()) await new Promise((resolve) => setTimeout(resolve, deadline.getTime() - Date.now() + 10));
    const refusal = await failure(test.client(left.token).call(runnerCalls.runTestData, { body }));
    expect(refusal.httpStatus).toBe(401);
    const { accessKeys } = await owner.api.call(authCalls.getAccessKeys, { query: { project_id: owner.projectId } });
    expect(accessKeys.map((key) => key.id)).toContain(mine.id);
  });

  it('a server alone on its database deletes every Run scenario key left by a stopped process at start', async () => {
    const left = await test.services.accessKeys.createJobKey(owner.projectId, owner.user.id, 'Run scenario cafebabe');
    await test.services.jobs.recover(true);
    const refusal = await failure(
      test.client(left.token).call(runnerCalls.runTestData, { body: { projectId: owner.projectId, environment: 'default' } }),
    );
    expect(refusal.httpStatus).toBe(401);
  });
});
