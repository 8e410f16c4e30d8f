import { MASKED_SECRET, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, joinAsMember, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('revealing a stored secret on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;

  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'reveal-admin@acme.test' });
    member = await signUp(test, { email: 'reveal-member@acme.test' });
    projectId = admin.projectId;
    await joinAsMember(admin, member, projectId);
    await admin.api.call(ws.changeTestData, {
      body: {
        projectId,
        testData: [
          { key: 'password', value: 'staging-pass', DataType: 'secret', environment: 'staging' },
          { key: 'otp', value: 'JBSW Y3DP EHPK 3PXP', DataType: 'totp', environment: '*' },
          { key: 'user', value: 'demo@rehearse.dev', DataType: 'string', environment: '*' },
        ],
      },
    });
  });
  afterAll(async () => test?.close());

  const audits = () =>
    test.database.rows<{ entry: { action: string; target: string; details: Record<string, string> } }>(
      `select entry from activity_log where kind = 'admin' order by id`,
    );

  it('answers the admin the stored value, still masked in the list, and writes who read which row to the activity log', async () => {
    const secret = await admin.api.call(ws.revealTestDataSecret, { body: { projectId, key: 'password', environment: 'staging' } });
    expect(secret.value).toBe('staging-pass');
    const totp = await admin.api.call(ws.revealTestDataSecret, { body: { projectId, key: 'otp', environment: '*' } });
    expect(totp.value).toBe('JBSWY3DPEHPK3PXP');
    const { testData } = await admin.api.call(ws.getTestData, { query: { projectId } });
    expect(testData.find((row) => row.key === 'password')?.value).toBe(MASKED_SECRET);

    // The two sign-ups are audited too; this test is about the reveals.
    const entries = (await audits()).map(({ entry }) => entry).filter((entry) => entry.action !== 'user.signup');
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'testData.revealed',
        target: 'staging/password',
        details: { projectId, environment: 'staging', key: 'password', branch: 'main' },
      }),
      expect.objectContaining({
        action: 'testData.revealed',
        target: '*/otp',
        details: { projectId, environment: '*', key: 'otp', branch: 'main' },
      }),
    ]);
    // The log says who and what, never the value itself.
    expect(JSON.stringify(entries)).not.toContain('staging-pass');
  });

  it('refuses a member with the admin-only message and logs nothing', async () => {
    const before = (await audits()).length;
    const refused = await failure(
      member.api.call(ws.revealTestDataSecret, { body: { projectId, key: 'password', environment: 'staging' } }),
    );
    expect([refused.httpStatus, refused.message]).toEqual([403, 'Only the project admin can do this.']);
    expect(await audits()).toHaveLength(before);
  });

  it('answers a row that does not exist with 404 and its message, and logs nothing', async () => {
    const before = (await audits()).length;
    const missing = await failure(
      admin.api.call(ws.revealTestDataSecret, { body: { projectId, key: 'password', environment: 'production' } }),
    );
    expect([missing.httpStatus, missing.message]).toEqual([404, 'Test data row not found.']);
    expect(await audits()).toHaveLength(before);
  });
});
