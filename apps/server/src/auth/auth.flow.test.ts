import { authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

describe.each(testBackends())('auth walk on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  it('walks sign-up, projects, invitations, membership and access keys end to end', async () => {
    const owner = await signUp(test, { email: 'owner@acme.test' });

    const { projects } = await owner.api.call(authCalls.getProjects);
    expect(projects.map((p) => p.name)).toEqual(['Default']);
    expect(projects[0]).toMatchObject({ id: owner.projectId, role: 'ADMIN', is_expired: false, time_left: { days: 13 } });

    const me = await owner.api.call(authCalls.me);
    const remaining = me.user.customAttributes.allowedProjectsCount;
    const created = await owner.api.call(authCalls.createProject, {
      body: { name: 'Checkout flows', url: 'https://shop.example.com' },
    });
    expect(created.message).toBe('New project created successfully');
    const projectId = created.project.id;
    expect((await owner.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount).toBe(remaining - 1);
    expect((await owner.api.call(authCalls.getLastActiveProject)).project_id).toBe(projectId);

    const invite = (emails: string[]) =>
      owner.api.call(authCalls.createInvitation, { body: { project_id: projectId, sent_to_email_list: emails } });
    expect((await failure(invite([]))).message).toBe('Please enter at least one email address.');
    expect((await failure(invite(['owner@acme.test']))).message).toBe('You cannot invite yourself to the project.');
    expect((await failure(invite(['dev@acme.test', 'DEV@acme.test']))).message).toBe('Please enter unique email addresses.');
    expect((await failure(invite(['dev@elsewhere.test']))).message).toBe("You can't invite users during trial");

    const sent = await invite(['dev@acme.test']);
    expect(sent.invitations).toHaveLength(1);
    const link = new URL(sent.invitations[0]!.link);
    expect(link.pathname).toBe('/invitation');
    expect(link.searchParams.get('invited_by')).toBe('owner@acme.test');
    expect(link.searchParams.get('project')).toBe(projectId);
    expect((await failure(invite(['dev@acme.test']))).message).toBe('The user is already a member or has been invited to the project.');

    const dev = await signUp(test, { email: 'dev@acme.test' });
    const verified = await dev.api.call(authCalls.verifyInvitation, {
      body: {
        id: link.searchParams.get('id')!,
        invited_by: link.searchParams.get('invited_by')!,
        project: link.searchParams.get('project')!,
      },
    });
    expect(verified.invitation).toMatchObject({ project_name: 'Checkout flows', invited_by_email: 'owner@acme.test' });
    const accepted = await dev.api.call(authCalls.addMember, { body: { id: verified.invitation.id } });
    expect(accepted.project_id).toBe(projectId);
    // Already a member now: inviting again is refused with the same rule.
    expect((await failure(invite(['dev@acme.test']))).message).toBe('The user is already a member or has been invited to the project.');

    const devProjects = await dev.api.call(authCalls.getProjects);
    expect(devProjects.projects.find((p) => p.id === projectId)?.role).toBe('MEMBER');
    const members = await dev.api.call(authCalls.getMembers, { query: { project_id: projectId } });
    expect(members.members.map((m) => [m.user_email, m.status, m.isAdmin])).toEqual([
      ['owner@acme.test', 'active', true],
      ['dev@acme.test', 'active', false],
    ]);

    const stranger = await signUp(test, { email: 'stranger@other.test' });
    for (const call of [
      () => stranger.api.call(authCalls.getMembers, { query: { project_id: projectId } }),
      () => stranger.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } }),
      () => stranger.api.call(authCalls.isProjectExpired, { body: { projectId } }),
      () => stranger.api.call(authCalls.createAccessKey, { body: { name: 'steal', projectId } }),
      () => stranger.api.call(authCalls.deleteProject, { body: { project_id: projectId } }),
    ]) {
      const error = await failure(call());
      expect(error.httpStatus).toBe(403);
      expect(error.message).toBe('You do not have access to this project.');
    }

    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'CI', projectId } });
    expect(accessKey.token).toMatch(/^rhk_[\w-]{43}$/);
    const listed = await owner.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } });
    expect(listed.accessKeys[0]?.token).not.toBe(accessKey.token);
    expect(listed.accessKeys[0]?.lastUsedAt).toBeNull();

    const keyApi = test.client(accessKey.token);
    const viaKey = await keyApi.call(authCalls.getMembers, { query: { project_id: projectId } });
    expect(viaKey.members).toHaveLength(2);
    const afterUse = await owner.api.call(authCalls.getAccessKeys, { query: { project_id: projectId } });
    expect(afterUse.accessKeys[0]?.lastUsedAt).not.toBeNull();
    // A key speaks for its project only.
    expect((await failure(keyApi.call(authCalls.getMembers, { query: { project_id: owner.projectId } }))).httpStatus).toBe(403);
    expect((await failure(keyApi.call(authCalls.getProjects))).message).toBe(
      'Access keys can only be used for calls about their own project.',
    );

    await owner.api.call(authCalls.deleteAccessKey, { body: { id: accessKey.id } });
    const revoked = await failure(keyApi.call(authCalls.getMembers, { query: { project_id: projectId } }));
    expect(revoked.httpStatus).toBe(401);
  });

  it('answers unknown email and wrong password alike, and gives a fresh token at each sign-in', async () => {
    const user = await signUp(test);
    const api = test.client();
    const unknown = await failure(api.call(authCalls.login, { body: { email: 'nobody@acme.test', password: 'whatever1' } }));
    const wrong = await failure(api.call(authCalls.login, { body: { email: user.email, password: 'wrong password' } }));
    expect([unknown.httpStatus, unknown.message]).toEqual([401, 'Invalid email or password.']);
    expect([wrong.httpStatus, wrong.message]).toEqual([unknown.httpStatus, unknown.message]);
    const first = await api.call(authCalls.login, { body: { email: user.email.toUpperCase(), password: 'correct horse battery' } });
    const second = await api.call(authCalls.login, { body: { email: user.email, password: 'correct horse battery' } });
    expect(first.token).not.toBe(second.token);
    expect(first.token).not.toBe(user.token);
  });

  it('ends a session at logout and rejects it afterwards with 401', async () => {
    const user = await signUp(test);
    await user.api.call(authCalls.logout);
    const error = await failure(user.api.call(authCalls.me));
    expect([error.httpStatus, error.message]).toEqual([401, 'Your session has expired. Please login again.']);
  });

  it('expires an idle session and one past its absolute lifetime', async () => {
    const idle = await signUp(test);
    await test.database.execute(`update sessions set last_used_at = now() - interval '${test.settings.SESSION_IDLE_HOURS + 1} hours'`);
    expect((await failure(idle.api.call(authCalls.me))).httpStatus).toBe(401);

    const old = await signUp(test);
    await test.database.execute(`update sessions set expires_at = now() - interval '1 second'`);
    expect((await failure(old.api.call(authCalls.me))).httpStatus).toBe(401);
  });

  it('stores tokens and passwords only as digests', async () => {
    const user = await signUp(test);
    const { accessKey } = await user.api.call(authCalls.createAccessKey, {
      body: { name: 'digest check', projectId: user.projectId },
    });
    const dump = JSON.stringify(
      await Promise.all(['sessions', 'access_keys', 'users'].map((table) => test.database.rows(`select * from ${table}`))),
    );
    expect(dump).not.toContain(user.token);
    expect(dump).not.toContain(accessKey.token);
    expect(dump).not.toContain('correct horse battery');
  });

  it('lets members decline an invitation and admins withdraw or remove, never themselves', async () => {
    const admin = await signUp(test, { email: `admin-${Date.now()}@acme.test` });
    const guestEmail = `guest-${Date.now()}@acme.test`;
    const laterEmail = `later-${Date.now()}@acme.test`;
    const { invitations } = await admin.api.call(authCalls.createInvitation, {
      body: { project_id: admin.projectId, sent_to_email_list: [guestEmail, laterEmail] },
    });
    const guest = await signUp(test, { email: guestEmail });
    const declined = await guest.api.call(authCalls.declineInvitation, { params: { id: invitations[0]!.id } });
    expect(declined.message).toBe('You have declined the invitation');
    expect((await failure(guest.api.call(authCalls.addMember, { body: { id: invitations[0]!.id } }))).message).toBe(
      'This invitation is invalid',
    );
    // Someone else cannot use an invitation sent to another address.
    const other = await failure(guest.api.call(authCalls.addMember, { body: { id: invitations[1]!.id } }));
    expect([other.httpStatus, other.message]).toEqual([403, 'This invitation was sent to a different email address.']);

    await admin.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: admin.projectId, status: 'pending', user_email_to_remove: laterEmail },
    });
    const self = await failure(
      admin.api.call(authCalls.removeMemberOrInvitation, {
        body: { project_id: admin.projectId, status: 'active', user_id_to_remove: admin.user.id },
      }),
    );
    expect(self.message).toBe('You cannot remove yourself from the project.');
    const { members } = await admin.api.call(authCalls.getMembers, { query: { project_id: admin.projectId } });
    expect(members.map((m) => m.user_email)).toEqual([admin.email]);
  });

  it('verifies invitation links with the spec messages', async () => {
    const user = await signUp(test);
    const verify = (body: Record<string, string>) => failure(user.api.call(authCalls.verifyInvitation, { body }));
    expect((await verify({})).message).toBe('Invalid invitation,no id');
    expect((await verify({ id: 'x' })).message).toBe('Invalid invitation,no inviter email');
    expect((await verify({ id: 'x', invited_by: 'a@b.c' })).message).toBe('Invalid invitation,no project');
    expect((await verify({ id: 'x', invited_by: 'a@b.c', project: 'p' })).message).toBe('This invitation is invalid');
    expect((await verify({ id: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b', invited_by: 'a@b.c', project: 'p' })).message).toBe(
      'This invitation is invalid',
    );
  });
});
