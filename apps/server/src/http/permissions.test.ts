import { randomUUID } from 'node:crypto';
import { authCalls, buildPath, EXAMPLE_PROJECT, Messages, type CallDefinition } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestToken, newToken, TokenPrefix } from '../crypto/tokens.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { onePassedScenarioReport } from '../testing/report-fixture.js';

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
const NON_CALL_PREFIXES = ['/demo-shop', '/todo-app', '/metrics'];

/** Statuses a role must get from a call, or `allowed` meaning "anything but 401, 403 and 5xx". */
function expectedFor(call: CallDefinition, role: Role): number | 'allowed' {
  // Worker calls take a worker token, which no person or access key holds.
  if (call.path.startsWith('/api/workers/')) return 401;
  if (call.access === 'public') return 'allowed';
  // An access key asks which project it belongs to: any key has one, a person's session has none.
  if (call.path === '/api/runs/key-project' && role !== 'anonymous') return role === 'ownKey' || role === 'otherProjectKey' ? 'allowed' : 403;
  // Plain test data values go to access keys only: a signed-in person gets them masked elsewhere.
  if (call.path === '/api/runs/test-data' && (role === 'member' || role === 'admin')) return 403;
  // The fixture's comment is the admin's; only its author may change or delete it.
  if (call.path.startsWith('/api/runs/comments/') && call.method !== 'POST' && role === 'member') return 403;
  if (role === 'anonymous') return 401;
  // Keys are managed by signed-in people only; a member revokes only keys they made (the fixture's is the admin's).
  if ((call.path === '/api/auth/createAccessKey' || call.path === '/api/auth/deleteAccessKey') && role === 'ownKey') return 403;
  if (call.path === '/api/auth/deleteAccessKey' && role === 'member') return 403;
  if (call.access === 'user') return role === 'otherProjectKey' || role === 'ownKey' ? 403 : 'allowed';
  if (role === 'nonMember' || role === 'otherProjectKey') return 403;
  if (role === 'member' && call.project?.role === 'ADMIN') return 403;
  return 'allowed';
}

function replaceProject(value: unknown, projectId: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).replaceAll(EXAMPLE_PROJECT, projectId)) as unknown;
}

describe.each(testBackends())('permission matrix on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let otherProjectKey: string;
  let lastRecorderSession: string | undefined;

  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'matrix-admin@acme.test' });
    member = await signUp(test, { email: 'matrix-member@acme.test' });
    stranger = await signUp(test, { email: 'matrix-stranger@else.test' });
    await test.services.users.update(admin.user.id, { allowedProjectsCount: 10_000 });
    otherProjectKey = (await stranger.api.call(authCalls.createAccessKey, { body: { name: 'other', projectId: stranger.projectId } }))
      .accessKey.token;
  });
  afterAll(async () => test?.close());

  /** A new session without hashing a password (hundreds are needed here); sign-in is tested elsewhere. */
  async function freshSession(userId: string): Promise<string> {
    const token = newToken(TokenPrefix.session);
    await test.database.execute(
      `insert into sessions (token_hash, user_id, expires_at) values ('${digestToken(token)}', '${userId}', now() + interval '1 hour')`,
    );
    return token;
  }

  /** A fresh project with the admin, an accepted member and an access key, so destructive calls hurt nobody. */
  async function fixture() {
    const project = await test.services.projects.create(admin.user, { name: `Matrix ${Math.random()}` });
    const access = await test.services.access.authorize(
      { kind: 'session', user: admin.user, tokenHash: '' },
      { from: 'body', field: 'id' },
      project.id,
    );
    const [invitation] = await test.services.members.invite(admin.user, access, [member.email]);
    await test.services.members.accept(member.user, invitation!.id);
    const key = await test.services.accessKeys.create(project.id, admin.user.id, 'own');
    const adminCaller = { kind: 'session' as const, user: admin.user, tokenHash: '' };
    const { runId } = await test.services.runs.upload(adminCaller, access, { uploadKey: `fixture-${project.id}`, report: onePassedScenarioReport() });
    const run = await test.services.runs.run(adminCaller, runId);
    const testCaseId = run.report.testCases[0]!.id;
    const comment = await test.services.runs.addComment(adminCaller, access, testCaseId, 'fixture');
    const [job] = await test.database.rows<{ id: string }>(
      `insert into scenario_jobs (project_id, user_id, branch, feature_name, scenario_name, environment)
       values ('${project.id}', '${admin.user.id}', 'main', 'f', 's', 'default') returning id`,
    );
    const [execution] = await test.database.rows<{ id: string }>(
      `insert into executions (project_id, user_id, name, env, flows) values ('${project.id}', '${admin.user.id}', 'x', 'default', '[]') returning id`,
    );
    // A recorder session without a browser: the matrix is about who may name it, not about Chromium.
    // Only one at a time, so the server's recorder capacity is never what answers.
    if (lastRecorderSession) await test.services.recorder!.end(lastRecorderSession);
    const recorderSession = test.services.recorder!.track(
      { id: randomUUID(), userId: admin.user.id, projectId: project.id, env: 'default', branch: 'main', url: 'http://shop.test/', createdAt: new Date() },
      { pid: undefined, send: () => undefined, stop: async () => undefined },
    );
    lastRecorderSession = recorderSession.id;
    const resourceIds: Record<string, string> = {
      recorderSession: recorderSession.id,
      accessKey: key.id,
      run: runId,
      testCase: testCaseId,
      comment: comment._id,
      job: job!.id,
      execution: execution!.id,
    };
    return { projectId: project.id, key, resourceIds };
  }

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
        const { projectId, key, resourceIds } = refusal ? (shared ??= await fixture()) : await fixture();
        const example = call.example ?? {};
        let body = replaceProject(example.body, projectId);
        let params = replaceProject(example.params, projectId) as Record<string, string> | null;
        let query = replaceProject(example.query, projectId) as Record<string, string> | null;
        // A call about a sub-resource (a key, a run, ...) gets a real one of the fixture project.
        const resource = call.project?.resource;
        if (resource && resource !== 'project') {
          const id = resourceIds[resource]!;
          const field = call.project!.field;
          if (call.project!.from === 'body') body = { ...(body as object), [field]: id };
          if (call.project!.from === 'params') params = { ...params, [field]: id };
          if (call.project!.from === 'query') query = { ...query, [field]: id };
        }
        if (params?.testCaseId) params = { ...params, testCaseId: resourceIds.testCase! };
        // Fresh sessions each time: logout is one of the calls and ends the session it is made with.
        const token = {
          anonymous: undefined,
          nonMember: role === 'nonMember' ? await freshSession(stranger.user.id) : '',
          member: role === 'member' ? await freshSession(member.user.id) : '',
          admin: role === 'admin' ? await freshSession(admin.user.id) : '',
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
          ...(body !== null ? { payload: body as object } : {}),
        });
        const expected = expectedFor(call, role);
        const status = response.statusCode;
        // Most answers are JSON; the workspace download is a tar stream.
        const contentType = String(response.headers['content-type'] ?? '');
        const error = contentType.includes('json')
          ? ((JSON.parse(response.body) as { error?: string }).error ?? '')
          : '';
        // A business refusal (trial invite limit, ...) is a 403 too; only access-control refusals count here.
        const refusedByAccessControl = status === 401 || (status === 403 && ACCESS_MESSAGES.has(error));
        const ok =
          expected === 'allowed'
            ? !refusedByAccessControl && status < 500
            : status === expected && refusedByAccessControl;
        if (!ok) failures.push(`${call.method} ${call.path} as ${role}: got ${status}, expected ${expected} (${response.body})`);
      }
    }
    expect(failures).toEqual([]);
  });
});
