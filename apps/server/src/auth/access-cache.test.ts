import { DAY_MS, Messages, adminCalls, authCalls } from '@rehearse/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure, joinAsMember, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { AccessCache, type SessionWithUser } from './access-cache.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe('access cache', () => {
  const row = (userId: string) =>
    ({ session: { tokenHash: 'h', userId }, user: { id: userId, email: `${userId}@acme.test` } }) as unknown as SessionWithUser;

  it('keeps nothing when off', async () => {
    const cache = AccessCache.off();
    const load = vi.fn(async () => row('u1'));
    await cache.session('h', load);
    await cache.session('h', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, sessions: 0, roles: 0 });
  });

  it('answers a copy, so a caller that changes its answer changes nothing kept', async () => {
    const cache = AccessCache.on();
    await cache.session('h', async () => row('u1'));
    const first = await cache.session('h', async () => row('other'));
    first!.user!.email = 'changed@acme.test';
    expect((await cache.session('h', async () => row('other')))?.user?.email).toBe('u1@acme.test');
  });

  it('does not keep what it read while something was forgotten', async () => {
    const cache = AccessCache.on();
    let finish!: (value: SessionWithUser) => void;
    const slow = cache.session('h', () => new Promise<SessionWithUser>((resolve) => (finish = resolve)));
    // The read began before the logout's forget, so it may hold the session as it was.
    cache.forgetSession('h');
    finish(row('u1'));
    expect(await slow).toBeDefined();
    expect(cache.stats().sessions).toBe(0);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = AccessCache.on({ maxEntries: 2 });
    await cache.session('a', async () => row('a'));
    await cache.session('b', async () => row('b'));
    await cache.session('a', async () => row('unused'));
    await cache.session('c', async () => row('c'));
    expect(cache.stats().sessions).toBe(2);
    // 'b' was the least recently used: it went, 'a' (read after it) and 'c' stayed.
    expect((await cache.session('a', async () => row('reloaded')))?.user?.id).toBe('a');
    expect((await cache.session('c', async () => row('reloaded')))?.user?.id).toBe('c');
    expect((await cache.session('b', async () => row('reloaded')))?.user?.id).toBe('reloaded');
  });

  it('reads again after the TTL', async () => {
    const cache = AccessCache.on({ ttlMs: 20 });
    await cache.session('h', async () => row('u1'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect((await cache.session('h', async () => row('u2')))?.user?.id).toBe('u2');
  });

  it('forgets every session and membership of a user, and every membership of a project', async () => {
    const cache = AccessCache.on();
    const project = { id: 'p1' } as never;
    await cache.session('h1', async () => row('u1'));
    await cache.session('h2', async () => row('u2'));
    await cache.projectRole('p1', 'u1', async () => ({ project, role: 'ADMIN' }));
    await cache.projectRole('p1', 'u2', async () => ({ project, role: 'MEMBER' }));
    cache.forgetUser('u1');
    expect(cache.stats()).toMatchObject({ sessions: 1, roles: 1 });
    cache.forgetProject('p1');
    expect(cache.stats()).toMatchObject({ sessions: 1, roles: 0 });
  });

  it('never keeps a non-member or a session without its user', async () => {
    const cache = AccessCache.on();
    await cache.projectRole('p1', 'u1', async () => ({ project: { id: 'p1' } as never, role: null }));
    await cache.session('h', async () => ({ ...row('u1'), user: null }));
    expect(cache.stats()).toMatchObject({ sessions: 0, roles: 0 });
  });
});

/**
 * Every way access ends, through the API as a user or administrator ends it, right after a
 * request that left the caller's session and membership in the cache (PGlite; on PostgreSQL the
 * cache is off and the same answers come from the database).
 */
describe.each(testBackends())('access ends at once, cached or not, on %s', (backend) => {
  let test: TestApp;
  let root: Person;

  beforeAll(async () => {
    // Sessions outlive the 14-day trial unused, so the licence test needs no new sign-ins.
    test = await startTestApp(backend, { SESSION_IDLE_HOURS: String(20 * 24) });
    // The first user of an empty instance is its administrator.
    root = await signUp(test, { email: 'root@acme.test' });
  });
  afterAll(async () => test?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs a call twice; on PGlite the second must be answered from the cache (the test is about a warm cache). */
  async function warm(call: () => Promise<unknown>): Promise<void> {
    await call();
    const before = test.services.accessCache.stats().hits;
    await call();
    const hits = test.services.accessCache.stats().hits - before;
    if (backend === 'pglite') expect(hits).toBeGreaterThan(0);
    else expect(hits).toBe(0);
  }

  const members = (person: Person, projectId: string) => person.api.call(authCalls.getMembers, { query: { project_id: projectId } });
  const statusAndMessage = async (promise: Promise<unknown>) => {
    const error = await failure(promise);
    return [error.httpStatus, error.message];
  };

  /** A project of a fresh owner with a fresh member in it. */
  async function team() {
    const owner = await signUp(test);
    const member = await signUp(test);
    await joinAsMember(owner, member, owner.projectId);
    return { owner, member, projectId: owner.projectId };
  }

  it('is on for PGlite only', () => {
    expect(test.services.accessCache.enabled).toBe(backend === 'pglite');
  });

  it('answers a cached hit as the database does: the same user and the same role', async () => {
    const { owner, member, projectId } = await team();
    const me = await member.api.call(authCalls.me);
    const role = await member.api.call(authCalls.checkRole, { body: { project_id: projectId, action: 'sendInvitation' } });
    const expired = await member.api.call(authCalls.isProjectExpired, { body: { projectId } });
    const list = await members(owner, projectId);
    await warm(() => member.api.call(authCalls.me));
    expect(await member.api.call(authCalls.me)).toEqual(me);
    expect(await member.api.call(authCalls.checkRole, { body: { project_id: projectId, action: 'sendInvitation' } })).toEqual(role);
    expect(await member.api.call(authCalls.isProjectExpired, { body: { projectId } })).toEqual(expired);
    expect(await members(owner, projectId)).toEqual(list);
    // And the cached role still refuses what a member may not do.
    expect(
      await statusAndMessage(
        member.api.call(authCalls.removeMemberOrInvitation, {
          body: { project_id: projectId, status: 'active', user_id_to_remove: owner.user.id },
        }),
      ),
    ).toEqual([403, Messages.adminRoleRequired]);
  });

  it('ends a session at logout', async () => {
    const person = await signUp(test);
    await warm(() => person.api.call(authCalls.me));
    await person.api.call(authCalls.logout);
    expect(await statusAndMessage(person.api.call(authCalls.me))).toEqual([401, Messages.sessionExpired]);
  });

  it('ends an idle session when its idle time is up, read from the clock at each hit', async () => {
    const person = await signUp(test);
    await warm(() => person.api.call(authCalls.me));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (test.settings.SESSION_IDLE_HOURS + 1) * 3_600_000 });
    expect(await statusAndMessage(person.api.call(authCalls.me))).toEqual([401, Messages.sessionExpired]);
  });

  it('ends a session at its absolute expiry even while it is in use', async () => {
    const person = await signUp(test);
    await warm(() => person.api.call(authCalls.me));
    // Used every 12 hours (so never idle) until just before SESSION_MAX_DAYS, then past it.
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    for (let hours = 12; hours < test.settings.SESSION_MAX_DAYS * 24; hours += 12) {
      vi.setSystemTime(start + hours * 3_600_000);
      await person.api.call(authCalls.me);
    }
    await warm(() => person.api.call(authCalls.me));
    vi.setSystemTime(start + test.settings.SESSION_MAX_DAYS * DAY_MS + 60_000);
    expect(await statusAndMessage(person.api.call(authCalls.me))).toEqual([401, Messages.sessionExpired]);
  });

  it('ends the sessions of a user an administrator disables', async () => {
    const person = await signUp(test);
    await warm(() => members(person, person.projectId));
    await root.api.call(adminCalls.updateUser, { params: { userId: person.user.id }, body: { disabled: true } });
    expect(await statusAndMessage(person.api.call(authCalls.me))).toEqual([401, Messages.sessionExpired]);
    expect(await statusAndMessage(members(person, person.projectId))).toEqual([401, Messages.sessionExpired]);
  });

  it('takes the administrator right away at once', async () => {
    const deputy = await signUp(test);
    await root.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { instanceAdmin: true } });
    await warm(() => deputy.api.call(adminCalls.listUsers));
    await root.api.call(adminCalls.updateUser, { params: { userId: deputy.user.id }, body: { instanceAdmin: false } });
    expect(await statusAndMessage(deputy.api.call(adminCalls.listUsers))).toEqual([403, Messages.instanceAdminOnly]);
    expect((await deputy.api.call(authCalls.me)).user.instanceAdmin).toBe(false);
  });

  it('shuts out a member the project admin removes', async () => {
    const { owner, member, projectId } = await team();
    await warm(() => members(member, projectId));
    await owner.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: projectId, status: 'active', user_id_to_remove: member.user.id },
    });
    expect(await statusAndMessage(members(member, projectId))).toEqual([403, Messages.notAMember]);
  });

  it('shuts out every member of a deleted project', async () => {
    const { owner, member, projectId } = await team();
    await warm(() => members(member, projectId));
    await warm(() => members(owner, projectId));
    await owner.api.call(authCalls.deleteProject, { body: { project_id: projectId } });
    expect(await statusAndMessage(members(member, projectId))).toEqual([404, Messages.projectNotFound]);
    expect(await statusAndMessage(members(owner, projectId))).toEqual([404, Messages.projectNotFound]);
  });

  it('refuses a revoked access key', async () => {
    const owner = await signUp(test);
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: owner.projectId } });
    const key = test.client(accessKey.token);
    await warm(() => key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }));
    await owner.api.call(authCalls.deleteAccessKey, { body: { id: accessKey.id } });
    expect(await statusAndMessage(key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }))).toEqual([
      401,
      Messages.sessionExpired,
    ]);
  });

  it('refuses an access key at its expiry, read from the clock at each hit', async () => {
    const owner = await signUp(test);
    const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: owner.projectId, expiresAt } });
    const key = test.client(accessKey.token);
    await warm(() => key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(expiresAt) + 1_000 });
    expect(await statusAndMessage(key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }))).toEqual([
      401,
      'Your session has expired. Please login again.',
    ]);
  });

  it('refuses the access key of a user an administrator disables', async () => {
    const owner = await signUp(test);
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: owner.projectId } });
    const key = test.client(accessKey.token);
    await warm(() => key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }));
    await root.api.call(adminCalls.updateUser, { params: { userId: owner.user.id }, body: { disabled: true } });
    expect(await statusAndMessage(key.call(authCalls.getMembers, { query: { project_id: owner.projectId } }))).toEqual([
      401,
      'This account has been disabled. Ask an instance administrator to enable it again.',
    ]);
  });

  it('refuses the access key of a member who was removed', async () => {
    const { owner, member, projectId } = await team();
    const { accessKey } = await member.api.call(authCalls.createAccessKey, { body: { name: 'mine', projectId } });
    const key = test.client(accessKey.token);
    await warm(() => key.call(authCalls.getMembers, { query: { project_id: projectId } }));
    await owner.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: projectId, status: 'active', user_id_to_remove: member.user.id },
    });
    expect(await statusAndMessage(key.call(authCalls.getMembers, { query: { project_id: projectId } }))).toEqual([
      401,
      Messages.sessionExpired,
    ]);
  });

  it('refuses writes once the licence ends, read from the clock at each hit, and allows them as soon as it is extended', async () => {
    const { owner, member, projectId } = await team();
    // Inviting oneself is refused by the service, after the licence check: a 400 shows the write was let in.
    const write = (api: Person['api']) =>
      api.call(authCalls.createInvitation, { body: { project_id: projectId, sent_to_email_list: [owner.email] } });
    expect(await statusAndMessage(write(owner.api))).toEqual([400, Messages.inviteSelf]);
    await warm(() => members(owner, projectId));
    await warm(() => members(member, projectId));
    const { projects } = await owner.api.call(authCalls.getProjects);
    const expiresAt = new Date(projects.find((project) => project.id === projectId)!.expiresAt).getTime();
    vi.useFakeTimers({ toFake: ['Date'], now: expiresAt + 60_000 });
    expect(await statusAndMessage(write(owner.api))).toEqual([403, Messages.licenceExpired]);
    expect((await member.api.call(authCalls.isProjectExpired, { body: { projectId } })).is_expired).toBe(true);
    await root.api.call(adminCalls.extendLicence, { params: { projectId }, body: { days: 30 } });
    expect((await member.api.call(authCalls.isProjectExpired, { body: { projectId } })).is_expired).toBe(false);
    expect(await statusAndMessage(write(owner.api))).toEqual([400, Messages.inviteSelf]);
  });

  it('lets in a non-member who accepts an invitation at once (a refusal is never cached)', async () => {
    const owner = await signUp(test);
    const newcomer = await signUp(test);
    expect(await statusAndMessage(members(newcomer, owner.projectId))).toEqual([403, Messages.notAMember]);
    expect(await statusAndMessage(members(newcomer, owner.projectId))).toEqual([403, Messages.notAMember]);
    await joinAsMember(owner, newcomer, owner.projectId);
    expect((await members(newcomer, owner.projectId)).members.map((m) => m.user_email)).toContain(newcomer.email);
  });

  it("lists a project's members from memory, and the next list shows each change: sent, withdrawn, declined, accepted, removed", async () => {
    const owner = await signUp(test);
    const [declining, joining] = [await signUp(test), await signUp(test)];
    const listed = async () =>
      (await members(owner, owner.projectId)).members.map((m) => `${m.status} ${m.user_email}`).sort((a, b) => a.localeCompare(b));
    await warm(() => members(owner, owner.projectId));
    expect(await listed()).toEqual([`active ${owner.email}`]);

    const invite = async (email: string) =>
      (await owner.api.call(authCalls.createInvitation, { body: { project_id: owner.projectId, sent_to_email_list: [email] } }))
        .invitations[0]!;
    await invite('withdrawn@acme.test');
    expect(await listed()).toEqual([`active ${owner.email}`, 'pending withdrawn@acme.test']);
    await owner.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: owner.projectId, status: 'pending', user_email_to_remove: 'withdrawn@acme.test' },
    });
    expect(await listed()).toEqual([`active ${owner.email}`]);

    const declined = await invite(declining.email);
    await warm(() => members(owner, owner.projectId));
    await declining.api.call(authCalls.declineInvitation, { params: { id: declined.id } });
    expect(await listed()).toEqual([`active ${owner.email}`]);

    const accepted = await invite(joining.email);
    await warm(() => members(owner, owner.projectId));
    await joining.api.call(authCalls.addMember, { body: { id: accepted.id } });
    expect(await listed()).toEqual([`active ${joining.email}`, `active ${owner.email}`].sort((a, b) => a.localeCompare(b)));

    await owner.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: owner.projectId, status: 'active', user_id_to_remove: joining.user.id },
    });
    expect(await listed()).toEqual([`active ${owner.email}`]);
  });

  it('shows a change made in a transaction (a new project takes one from the allowance) on the next call', async () => {
    const person = await signUp(test);
    await warm(() => person.api.call(authCalls.me));
    const before = (await person.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount;
    const { project } = await person.api.call(authCalls.createProject, { body: { name: 'Second' } });
    expect((await person.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount).toBe(before - 1);
    expect((await person.api.call(authCalls.getLastActiveProject)).project_id).toBe(project.id);
  });

  it('shows a user change outside a transaction (the last active project) on the next call', async () => {
    const person = await signUp(test);
    const { project } = await person.api.call(authCalls.createProject, { body: { name: 'Other' } });
    await warm(() => person.api.call(authCalls.getLastActiveProject));
    await person.api.call(authCalls.updateLastActiveProjectId, { body: { project_id: person.projectId } });
    expect((await person.api.call(authCalls.getLastActiveProject)).project_id).toBe(person.projectId);
    await person.api.call(authCalls.updateLastActiveProjectId, { body: { project_id: project.id } });
    expect((await person.api.call(authCalls.getLastActiveProject)).project_id).toBe(project.id);
  });
});
