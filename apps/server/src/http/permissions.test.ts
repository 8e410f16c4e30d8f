import { authCalls, buildPath, Messages, type CallDefinition } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { exampleRequest, freshSession, projectFixtures, type ProjectFixture } from '../testing/call-fixtures.js';

const ACCESS_MESSAGES = new Set<string>([
  Messages.notAMember,
  Messages.accessKeyOtherProject,
  Messages.accessKeyNotForUserCalls,
  Messages.adminRoleRequired,
  Messages.deleteProjectNotAllowed,
  Messages.inviteNoPermission,
  Messages.runTestDataNeedsKey,
  Messages.keyProjectNeedsKey,
  Messages.commentNotYours,
  Messages.accessKeyManageNeedsSession,
  Messages.accessKeyRevokeNotAllowed,
]);

type Role = 'anonymous' | 'nonMember' | 'member' | 'admin' | 'ownKey' | 'otherProjectKey';
const ROLES: Role[] = ['anonymous', 'nonMember', 'otherProjectKey', 'member', 'ownKey', 'admin'];

/** Routes outside /api that are not contract calls: the demo shop and the built web app's files. */
// /metrics is Prometheus text for scrapers, behind its own token or port (metrics/metrics.test.ts).
// /trace-viewer is Playwright's trace viewer, static files (runs.test.ts).
const NON_CALL_PREFIXES = ['/demo-shop', '/todo-app', '/metrics', '/trace-viewer'];

/** Statuses a role must get from a call, or `allowed` meaning "anything but 401, 403 and 5xx". */
function expectedFor(call: CallDefinition, role: Role): number | 'allowed' {
  // Worker calls take a worker token, which no person or access key holds.
  if (call.path.startsWith('/api/workers/')) return 401;
  if (call.access === 'public') return 'allowed';
  // An access key asks which project it belongs to: any key has one, a person's session has none.
  if (call.path === '/api/runs/key-project' && role !== 'anonymous')
    return role === 'ownKey' || role === 'otherProjectKey' ? 'allowed' : 403;
  // Plain test data values go to access keys only: a signed-in person gets them masked elsewhere.
  if (call.path === '/api/runs/test-data' && (role === 'member' || role === 'admin')) return 403;
  // The fixture's comment is the admin's; only its author may change or delete it.
  if (call.path.startsWith('/api/runs/comments/') && call.method !== 'POST' && role === 'member') return 403;
  if (role === 'anonymous') return 401;
  // Keys are managed by signed-in people only; a member revokes only keys they made (the fixture's is the admin's).
  // A local recorder launch makes a key too.
  if (['/api/auth/createAccessKey', '/api/auth/deleteAccessKey', '/api/recorder/local-launch'].includes(call.path) && role === 'ownKey')
    return 403;
  if (call.path === '/api/auth/deleteAccessKey' && role === 'member') return 403;
  if (call.access === 'user') return role === 'otherProjectKey' || role === 'ownKey' ? 403 : 'allowed';
  if (role === 'nonMember' || role === 'otherProjectKey') return 403;
  if (role === 'member' && call.project?.role === 'ADMIN') return 403;
  return 'allowed';
}

describe.each(testBackends())('permission matrix on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let otherProjectKey: string;
  let fixture: () => Promise<ProjectFixture>;

  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'matrix-admin@acme.test' });
    member = await signUp(test, { email: 'matrix-member@acme.test' });
    stranger = await signUp(test, { email: 'matrix-stranger@else.test' });
    await test.services.users.update(admin.user.id, { allowedProjectsCount: 10_000 });
    otherProjectKey = (await stranger.api.call(authCalls.createAccessKey, { body: { name: 'other', projectId: stranger.projectId } }))
      .accessKey.token;
    // A fresh project with the admin, an accepted member and an access key, so destructive calls hurt nobody.
    const project = projectFixtures(test, admin, 'matrix');
    fixture = async () => {
      const made = await project();
      const access = await test.services.access.authorize(
        { kind: 'session', user: admin.user, tokenHash: '' },
        { from: 'body', field: 'id' },
        made.projectId,
      );
      const [invitation] = await test.services.members.invite(admin.user, access, [member.email]);
      await test.services.members.accept(member.user, invitation!.id);
      return made;
    };
  });
  afterAll(async () => test?.close());

  it('covers every /api route with a contract call', () => {
    const unregistered = test.routes.filter(
      (route) => route.url.startsWith('/api') && !route.call && route.method !== 'HEAD' && route.method !== 'OPTIONS',
    );
    expect(unregistered).toEqual([]);
    const others = test.routes.filter(
      (route) => !route.url.startsWith('/api') && !route.call && !NON_CALL_PREFIXES.some((prefix) => route.url.startsWith(prefix)),
    );
    expect(others).toEqual([]);
    expect(test.routes.filter((route) => route.call).length).toBeGreaterThanOrEqual(Object.keys(authCalls).length);
  });

  it('gives every role the expected answer on every call', { timeout: 600_000 }, async () => {
    const calls = test.routes.filter((route) => route.call && route.method !== 'HEAD').map((route) => route.call!);
    const failures: string[] = [];
    // A refused caller changes nothing, so refusals share one fixture; a caller who may act gets a
    // fresh one (it may delete what it is given). Recorder sessions live one at a time, so a call
    // about one always gets a fresh fixture. This halves the projects the matrix creates.
    let shared: Awaited<ReturnType<typeof fixture>> | undefined;
    for (const call of calls) {
      for (const role of ROLES) {
        const refusal = expectedFor(call, role) !== 'allowed' && call.project?.resource !== 'recorderSession';
        const made = refusal ? (shared ??= await fixture()) : await fixture();
        const { key } = made;
        const { body, params, query } = exampleRequest(call, made);
        // Fresh sessions each time: logout is one of the calls and ends the session it is made with.
        const token = {
          anonymous: undefined,
          nonMember: role === 'nonMember' ? await freshSession(test, stranger.user.id) : '',
          member: role === 'member' ? await freshSession(test, member.user.id) : '',
          admin: role === 'admin' ? await freshSession(test, admin.user.id) : '',
          ownKey: key.token,
          otherProjectKey,
        }[role];
        const url =
          buildPath(call.path, params ?? { id: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' }) +
          (query ? `?${new URLSearchParams(query).toString()}` : '');
        const response = await test.app.inject({
          method: call.method,
          url,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        const expected = expectedFor(call, role);
        const status = response.statusCode;
        // Most answers are JSON; the workspace download is a tar stream.
        const contentType = String(response.headers['content-type'] ?? '');
        const error = contentType.includes('json') ? ((JSON.parse(response.body) as { error?: string }).error ?? '') : '';
        // A business refusal (trial invite limit, ...) is a 403 too; only access-control refusals count here.
        const refusedByAccessControl = status === 401 || (status === 403 && ACCESS_MESSAGES.has(error));
        const ok = expected === 'allowed' ? !refusedByAccessControl && status < 500 : status === expected && refusedByAccessControl;
        if (!ok) failures.push(`${call.method} ${call.path} as ${role}: got ${status}, expected ${expected} (${response.body})`);
      }
    }
    expect(failures).toEqual([]);
  });
});
