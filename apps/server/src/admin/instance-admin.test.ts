import { adminCalls, authCalls, executionCalls, runnerCalls, workerCalls, workspaceCalls, type CallDefinition } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../admin.js';
import { onePassedScenarioReport, TINY_PNG_BASE64 } from '../testing/report-fixture.js';
import { failure, signUp, startTestApp, TEST_PASSWORD, testBackends, type TestApp } from '../testing/test-app.js';

type Person = Awaited<ReturnType<typeof signUp>>;

/** Sends a call with the contract's example input, as `token`, and answers status and error. */
async function send(test: TestApp, call: CallDefinition, token: string | undefined): Promise<{ status: number; error: string }> {
  const example = call.example ?? {};
  const url =
    call.path.replace(/:(\w+)/g, (_, name: string) => example.params?.[name] ?? '00000000-0000-4000-8000-0000000000ad') +
    (example.query ? `?${new URLSearchParams(example.query).toString()}` : '');
  const response = await test.app.inject({
    method: call.method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(example.body !== undefined ? { payload: example.body as object } : {}),
  });
  return { status: response.statusCode, error: (JSON.parse(response.body) as { error?: string }).error ?? '' };
}

describe.each(testBackends())('instance administration on %s', (backend) => {
  let test: TestApp;
  let root: Person;
  let owner: Person;

  beforeAll(async () => {
    test = await startTestApp(backend);
    root = await signUp(test, { email: 'root@acme.test', firstname: 'Root' });
    owner = await signUp(test, { email: 'owner@acme.test', firstname: 'Olive' });
  });
  afterAll(async () => test?.close());

  it('makes the first user to sign up the instance administrator, and nobody after', async () => {
    expect((await root.api.call(authCalls.me)).user.instanceAdmin).toBe(true);
    expect((await owner.api.call(authCalls.me)).user.instanceAdmin).toBe(false);
  });

  it('records every sign-up in the activity log, the first one as the instance administrator (issue 47)', async () => {
    const { activity } = await root.api.call(adminCalls.listActivity, { query: { limit: 500 } });
    const signups = activity.filter((entry) => entry.action === 'user.signup').reverse();
    expect(signups.map(({ actor, target, details }) => ({ actor, target, details }))).toEqual([
      { actor: 'root@acme.test', target: 'root@acme.test', details: { through: 'sign-up form', became: 'instance administrator' } },
      { actor: 'owner@acme.test', target: 'owner@acme.test', details: { through: 'sign-up form' } },
    ]);
  });

  it('refuses every admin call to anyone who is not an instance administrator', async () => {
    const key = (await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: owner.projectId } })).accessKey.token;
    const rootKey = (await root.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: root.projectId } })).accessKey.token;
    const calls = Object.entries(adminCalls);
    expect(calls.length).toBe(16);
    for (const [name, call] of calls) {
      expect(await send(test, call, owner.token), `${name} as a user`).toEqual({
        status: 403,
        error: 'Only an instance administrator can do this.',
      });
      expect(await send(test, call, key), `${name} with a user's key`).toEqual({
        status: 403,
        error: 'Access keys can only be used for calls about their own project.',
      });
      // An administrator's access key stands for one project, not for the administrator.
      expect(await send(test, call, rootKey), `${name} with the admin's key`).toEqual({
        status: 403,
        error: 'Access keys can only be used for calls about their own project.',
      });
      expect(await send(test, call, undefined), `${name} signed out`).toEqual({ status: 401, error: 'Please sign in to continue.' });
    }
    expect((await root.api.call(adminCalls.listUsers)).users.map((user) => user.email)).toEqual(
      expect.arrayContaining(['root@acme.test', 'owner@acme.test']),
    );
  });

  it('extends an expired project’s license so its members can edit again, without a restart', async () => {
    const projectId = owner.projectId;
    await test.database.execute(`update projects set licence_expires_at = now() - interval '2 days' where id = '${projectId}'`);
    const environment = { projectId, name: 'staging', data: { baseUrl: 'https://staging.example.com' } };
    const refused = await failure(owner.api.call(workspaceCalls.pushEnv, { body: environment }));
    expect([refused.httpStatus, refused.message]).toEqual([
      403,
      "This project's license has expired. Ask your administrator to extend it.",
    ]);

    const listed = (await root.api.call(adminCalls.listProjects)).projects.find((project) => project.id === projectId);
    expect(listed).toMatchObject({ name: 'Default', adminEmail: 'owner@acme.test', members: 1, is_expired: true, daysLeft: 0 });

    const { project } = await root.api.call(adminCalls.extendLicence, { params: { projectId }, body: { days: 30 } });
    expect(project).toMatchObject({ is_expired: false, daysLeft: 29, licensed: true });

    await owner.api.call(workspaceCalls.pushEnv, { body: environment });
    const { projects } = await owner.api.call(authCalls.getProjects);
    expect(projects.find((entry) => entry.id === projectId)).toMatchObject({ is_expired: false, allowInvite: true });

    const [latest] = (await root.api.call(adminCalls.listActivity, { query: { limit: 1 } })).activity;
    expect(latest).toMatchObject({ actor: 'root@acme.test', action: 'project.extendLicence', target: 'Default' });
    expect(latest?.details).toMatchObject({ projectId, days: 30 });

    const bad = await failure(root.api.call(adminCalls.extendLicence, { params: { projectId }, body: { days: 0 } }));
    expect([bad.httpStatus, bad.message]).toEqual([400, 'Days must be a whole number from 1 to 3650.']);
    const missing = await failure(
      root.api.call(adminCalls.extendLicence, { params: { projectId: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' }, body: { days: 3 } }),
    );
    expect([missing.httpStatus, missing.message]).toEqual([404, 'No project with this id.']);
  });

  it('shows what each project stores: its runs, their scenarios and its artifacts’ bytes', async () => {
    const team = await signUp(test, { email: 'storage@acme.test' });
    const listed = async () => (await root.api.call(adminCalls.listProjects)).projects.find((project) => project.id === team.projectId);
    expect((await listed())?.stored).toEqual({ runs: 0, testCases: 0, artifactBytes: 0 });

    const key = test.client(
      (await team.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: team.projectId } })).accessKey.token,
    );
    const png = Buffer.from(TINY_PNG_BASE64, 'base64');
    await key.call(runnerCalls.uploadArtifact, { body: { projectId: team.projectId, contentType: 'image/png', data: TINY_PNG_BASE64 } });
    const report = onePassedScenarioReport('Storage');
    await key.call(runnerCalls.uploadRun, {
      body: {
        projectId: team.projectId,
        uploadKey: 'storage-1',
        report: { ...report, testCases: [...report.testCases, ...report.testCases] },
      },
    });
    expect((await listed())?.stored).toEqual({ runs: 1, testCases: 2, artifactBytes: png.length });
    // The one-project answer after a change says the same.
    const { project } = await root.api.call(adminCalls.updateProject, {
      params: { projectId: team.projectId },
      body: { maxExecutionThreads: 2 },
    });
    expect(project.stored).toEqual({ runs: 1, testCases: 2, artifactBytes: png.length });
  });

  it('sets threads and the private repository integration, seen by the project’s members', async () => {
    const projectId = owner.projectId;
    const { project } = await root.api.call(adminCalls.updateProject, {
      params: { projectId },
      body: { maxExecutionThreads: 6, privateRepo: true },
    });
    expect(project).toMatchObject({ maxExecutionThreads: 6, privateRepo: true, configuredPrivateRepo: false });
    const mine = (await owner.api.call(authCalls.getProjects)).projects.find((entry) => entry.id === projectId);
    expect(mine).toMatchObject({ maxExecutionThreads: 6, privateRepo: true });
    await root.api.call(adminCalls.updateProject, { params: { projectId }, body: { privateRepo: false } });
    expect((await owner.api.call(authCalls.getProjects)).projects.find((entry) => entry.id === projectId)?.privateRepo).toBe(false);
    const tooMany = await failure(root.api.call(adminCalls.updateProject, { params: { projectId }, body: { maxExecutionThreads: 65 } }));
    expect([tooMany.httpStatus, tooMany.message]).toEqual([400, 'Execution threads must be a whole number from 0 to 64.']);
    const nothing = await failure(root.api.call(adminCalls.updateProject, { params: { projectId }, body: {} }));
    expect([nothing.httpStatus, nothing.message]).toEqual([400, 'Say what to change.']);
  });

  it('sets a user’s allowed projects and delete-projects right', async () => {
    const person = await signUp(test, { email: 'limits@acme.test' });
    const { user } = await root.api.call(adminCalls.updateUser, {
      params: { userId: person.user.id },
      body: { allowedProjectsCount: 0, allowDeleteProjects: false },
    });
    expect(user).toMatchObject({ email: 'limits@acme.test', allowedProjectsCount: 0, allowDeleteProjects: false, projects: 1 });
    expect((await person.api.call(authCalls.me)).user.customAttributes).toMatchObject({
      allowedProjectsCount: 0,
      allowDeleteProjects: false,
    });
    await expect(person.api.call(authCalls.createProject, { body: { name: 'One more' } })).rejects.toThrow(
      'You have reached the number of projects you can create.',
    );
  });

  it('disables a user: sessions and keys end, sign-in is refused, enabling restores it', async () => {
    const person = await signUp(test, { email: 'leaver@acme.test' });
    const key = (await person.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: person.projectId } })).accessKey.token;
    const { user } = await root.api.call(adminCalls.updateUser, { params: { userId: person.user.id }, body: { disabled: true } });
    expect(user.disabled).toBe(true);

    const ended = await failure(person.api.call(authCalls.me));
    expect([ended.httpStatus, ended.message]).toEqual([401, 'Your session has expired. Please login again.']);
    const keyRefused = await failure(test.client(key).call(workspaceCalls.getEnvList, { body: { projectId: person.projectId } }));
    expect([keyRefused.httpStatus, keyRefused.message]).toEqual([
      401,
      'This account has been disabled. Ask an instance administrator to enable it again.',
    ]);
    const signIn = await failure(test.client().call(authCalls.login, { body: { email: 'leaver@acme.test', password: TEST_PASSWORD } }));
    expect([signIn.httpStatus, signIn.message]).toEqual([
      403,
      'This account has been disabled. Ask an instance administrator to enable it again.',
    ]);
    // A wrong password says only that: the account's state is for those who know the password.
    const guess = await failure(test.client().call(authCalls.login, { body: { email: 'leaver@acme.test', password: 'wrong password' } }));
    expect([guess.httpStatus, guess.message]).toEqual([401, 'Invalid email or password.']);

    await root.api.call(adminCalls.updateUser, { params: { userId: person.user.id }, body: { disabled: false } });
    const { token } = await test.client().call(authCalls.login, { body: { email: 'leaver@acme.test', password: TEST_PASSWORD } });
    expect((await test.client(token).call(authCalls.me)).user.email).toBe('leaver@acme.test');

    const [enabled, disabled] = (await root.api.call(adminCalls.listActivity, { query: { limit: 2 } })).activity;
    expect([enabled?.action, enabled?.target, enabled?.details]).toEqual(['user.update', 'leaver@acme.test', { disabled: false }]);
    expect(disabled?.details).toEqual({ disabled: true, endedSessions: 1 });
  });

  it('stops the schedules of a disabled user from starting runs', async () => {
    const planner = await signUp(test, { email: 'planner@acme.test' });
    const feature = 'Feature: Nightly\n\n  @nightly\n  Scenario: Open the shop\n    Given I open the shop\n';
    await planner.api.call(workspaceCalls.pushFile, {
      body: { projectId: planner.projectId, directory: 'features', file: { name: 'nightly.feature', content: feature } },
    });
    const { execution } = await planner.api.call(executionCalls.create, {
      body: {
        projectId: planner.projectId,
        name: 'Nightly',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@nightly'] }] }],
      },
    });
    await root.api.call(adminCalls.updateUser, { params: { userId: planner.user.id }, body: { disabled: true } });
    await expect(test.services.engine.start(execution.id, 'schedule')).rejects.toThrow('execution refused: starter-not-member');
  });

  it('names another administrator, who may then administer; nobody disables or demotes themselves', async () => {
    const deputy = await signUp(test, { email: 'deputy@acme.test' });
    await expect(deputy.api.call(adminCalls.listUsers)).rejects.toThrow('Only an instance administrator can do this.');
    await root.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { instanceAdmin: true } });
    expect((await deputy.api.call(adminCalls.listUsers)).users.find((user) => user.email === 'deputy@acme.test')?.instanceAdmin).toBe(true);

    const self = await failure(deputy.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { disabled: true } }));
    expect([self.httpStatus, self.message]).toEqual([403, 'You cannot disable your own account.']);
    const demote = await failure(
      deputy.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { instanceAdmin: false } }),
    );
    expect([demote.httpStatus, demote.message]).toEqual([
      403,
      'You cannot remove your own administrator right; ask another instance administrator.',
    ]);
    await deputy.api.call(adminCalls.updateUser, { params: { userId: root.user.id }, body: { allowDeleteProjects: true } });
    await root.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { instanceAdmin: false } });
    await expect(deputy.api.call(adminCalls.listUsers)).rejects.toThrow('Only an instance administrator can do this.');
  });

  it('changes the sign-up policy and new users’ project allowance at run time', async () => {
    expect((await root.api.call(adminCalls.getSettings)).settings).toMatchObject({ signup: { kind: 'open' }, defaultAllowedProjects: 10 });
    await root.api.call(adminCalls.updateSettings, { body: { signup: { kind: 'closed' }, defaultAllowedProjects: 10 } });
    const closed = await failure(signUp(test, { email: 'late@acme.test' }));
    expect([closed.httpStatus, closed.message]).toEqual([403, 'Sign-up is closed on this server. Ask its administrator for an account.']);

    const { settings } = await root.api.call(adminCalls.updateSettings, {
      body: { signup: { kind: 'domains', domains: [' Partner.Example '] }, defaultAllowedProjects: 2 },
    });
    expect(settings).toMatchObject({ signup: { kind: 'domains', domains: ['partner.example'] }, defaultAllowedProjects: 2 });
    const outsider = await failure(signUp(test, { email: 'someone@elsewhere.test' }));
    expect(outsider.message).toBe('Sign-up on this server needs an invitation or an email address at an allowed domain.');
    const partner = await signUp(test, { email: 'ana@partner.example' });
    expect((await partner.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount).toBe(2);

    const noDomains = await failure(
      root.api.call(adminCalls.updateSettings, { body: { signup: { kind: 'domains', domains: [] }, defaultAllowedProjects: 2 } }),
    );
    expect([noDomains.httpStatus, noDomains.message]).toEqual([400, 'List at least one email domain, such as example.com.']);
    await root.api.call(adminCalls.updateSettings, { body: { signup: { kind: 'open' }, defaultAllowedProjects: 10 } });
  });

  it('makes and revokes worker tokens and lists the agents connected with them', async () => {
    const { token, workerToken } = await root.api.call(adminCalls.createWorkerToken, { body: { name: 'lab runner' } });
    expect(token).toMatch(/^rhw_/);
    const worker = test.client(token);
    await worker.call(workerCalls.claim, { body: { workerId: 'lab-1:1/4242:aa11bb', waitMs: 0 } });
    await worker.call(workerCalls.claim, { body: { workerId: 'lab-1:2/4243:cc22dd', waitMs: 0 } });
    await worker.call(workerCalls.heartbeat, {
      body: { workerId: 'lab-1:2/4243:cc22dd', jobIds: ['6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b'] },
    });

    const listed = await root.api.call(adminCalls.listWorkers);
    expect(listed.tokens.find((entry) => entry.id === workerToken.id)?.name).toBe('lab runner');
    expect(listed.agents).toEqual([expect.objectContaining({ tokenName: 'lab runner', host: 'lab-1', threads: 2, busyThreads: 1 })]);
    // The list never shows a token again, only its name.
    expect(JSON.stringify(listed)).not.toContain(token);

    await root.api.call(adminCalls.deleteWorkerToken, { params: { tokenId: workerToken.id } });
    const revoked = await failure(worker.call(workerCalls.claim, { body: { workerId: 'lab-1:1/4242:aa11bb', waitMs: 0 } }));
    expect([revoked.httpStatus, revoked.message]).toEqual([401, 'A valid worker token is required.']);
    expect((await root.api.call(adminCalls.listWorkers)).agents).toEqual([]);
    const actions = (await root.api.call(adminCalls.listActivity, { query: { limit: 2 } })).activity.map((entry) => entry.action);
    expect(actions).toEqual(['workerToken.delete', 'workerToken.create']);
  });

  it('runs `npm run admin` through the same service, audited without a user', async () => {
    const line = await runAdminCommand(['extend-license', owner.projectId, '10'], test.database);
    expect(line).toContain('License of "Default" now runs until');
    await runAdminCommand(['disable-user', 'owner@acme.test', 'yes'], test.database);
    expect((await root.api.call(adminCalls.listUsers)).users.find((user) => user.email === 'owner@acme.test')?.disabled).toBe(true);
    await runAdminCommand(['disable-user', 'owner@acme.test', 'no'], test.database);
    const [enabled, disabled, extended] = (await root.api.call(adminCalls.listActivity, { query: { limit: 3 } })).activity;
    expect([enabled?.actor, enabled?.action, disabled?.details]).toEqual([null, 'user.update', { disabled: true, endedSessions: 1 }]);
    expect([extended?.actor, extended?.action, extended?.details.days]).toEqual([null, 'project.extendLicence', 10]);
  });

  it('keeps what clients log out of the administration audit', async () => {
    // The owner's first session ended when the CLI disabled them above; a fresh one logs.
    const { token } = await test.client().call(authCalls.login, { body: { email: 'owner@acme.test', password: TEST_PASSWORD } });
    await test.client(token).call(authCalls.log, { body: { logs: [{ action: 'project.extendLicence', target: 'forged' }] } });
    const { activity } = await root.api.call(adminCalls.listActivity, { query: { limit: 500 } });
    expect(activity.map((entry) => entry.target)).not.toContain('forged');
  });
});
