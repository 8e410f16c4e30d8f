import { authCalls, runnerCalls, workspaceCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, joinAsMember, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('access keys on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'keys-admin@acme.test' });
    member = await signUp(test, { email: 'keys-member@acme.test' });
    projectId = admin.projectId;
    await joinAsMember(admin, member, projectId);
  });
  afterAll(async () => test?.close());

  const createKey = (api: typeof admin.api, name: string, expiresAt?: string) =>
    api.call(authCalls.createAccessKey, { body: { name, projectId, ...(expiresAt ? { expiresAt } : {}) } });

  it("gives plain secrets only to an admin's keys; a member's key runs string-only data", async () => {
    const adminKey = (await createKey(admin.api, 'admin ci')).accessKey;
    const memberKey = (await createKey(member.api, 'member laptop')).accessKey;
    expect([adminKey.readsSecrets, memberKey.readsSecrets]).toEqual([true, false]);
    const asKey = (token: string) => test.client(token);

    await admin.api.call(workspaceCalls.changeTestData, {
      body: { projectId, testData: [{ key: 'user', value: 'ada', DataType: 'string', environment: '*' }] },
    });
    expect((await asKey(memberKey.token).call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } })).testData).toEqual([
      { key: 'user', value: 'ada', DataType: 'string' },
    ]);

    await admin.api.call(workspaceCalls.changeTestData, {
      body: {
        projectId,
        testData: [
          { key: 'user', value: 'ada', DataType: 'string', environment: '*' },
          { key: 'password', value: 'hunter2-plain', DataType: 'secret', environment: '*' },
        ],
      },
    });
    const refused = await failure(asKey(memberKey.token).call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } }));
    expect([refused.httpStatus, refused.message]).toEqual([
      403,
      'Only access keys created by a project admin can read secret test data. Ask your project admin for a key.',
    ]);
    expect(JSON.stringify(refused)).not.toContain('hunter2-plain');
    const given = await asKey(adminKey.token).call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } });
    expect(given.testData).toContainEqual({ key: 'password', value: 'hunter2-plain', DataType: 'secret' });
  });

  it("lets a member revoke only their own keys, never an admin's, and no key revoke or mint keys", async () => {
    const adminKey = (await createKey(admin.api, 'admin only')).accessKey;
    const memberKey = (await createKey(member.api, 'member own')).accessKey;

    const notTheirs = await failure(member.api.call(authCalls.deleteAccessKey, { body: { id: adminKey.id } }));
    expect([notTheirs.httpStatus, notTheirs.message]).toEqual([403, 'Only a project admin can revoke an access key someone else created.']);
    const byKey = await failure(test.client(memberKey.token).call(authCalls.deleteAccessKey, { body: { id: adminKey.id } }));
    expect([byKey.httpStatus, byKey.message]).toEqual([403, 'Access keys cannot create or revoke access keys; sign in to manage them.']);
    const minted = await failure(test.client(adminKey.token).call(authCalls.createAccessKey, { body: { name: 'child', projectId } }));
    expect([minted.httpStatus, minted.message]).toEqual([403, 'Access keys cannot create or revoke access keys; sign in to manage them.']);
    // The admin's key still works.
    await test.client(adminKey.token).call(authCalls.getAccessKeys, { query: { project_id: projectId } });

    await member.api.call(authCalls.deleteAccessKey, { body: { id: memberKey.id } });
    const another = (await createKey(member.api, 'member second')).accessKey;
    await admin.api.call(authCalls.deleteAccessKey, { body: { id: another.id } });
    const ids = (await admin.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys.map((key) => key.id);
    expect(ids).toContain(adminKey.id);
    expect(ids).not.toContain(memberKey.id);
    expect(ids).not.toContain(another.id);
  });

  it('lets a key carry an expiry, refuses one in the past, and stops the key when it passes', async () => {
    const inPast = await failure(createKey(admin.api, 'stale', '2020-01-01T00:00:00Z'));
    expect([inPast.httpStatus, inPast.message]).toEqual([400, 'The expiry must be a date and time in the future.']);
    const notADate = await failure(createKey(admin.api, 'bad', 'next tuesday'));
    expect([notADate.httpStatus, notADate.message]).toEqual([400, 'Times must be ISO 8601 date-times, e.g. 2026-01-31T12:00:00Z.']);

    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const { accessKey } = await createKey(admin.api, 'one hour', expiresAt);
    expect(accessKey.expiresAt).toBe(expiresAt);
    const listed = (await admin.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys.find(
      (key) => key.id === accessKey.id,
    );
    expect(listed?.expiresAt).toBe(expiresAt);
    const keyApi = test.client(accessKey.token);
    await keyApi.call(authCalls.getMembers, { query: { project_id: projectId } });

    await test.database.execute(`update access_keys set expires_at = now() - interval '1 second' where id = '${accessKey.id}'`);
    const expired = await failure(keyApi.call(authCalls.getMembers, { query: { project_id: projectId } }));
    expect([expired.httpStatus, expired.message]).toEqual([401, 'Your session has expired. Please login again.']);
  });
});
