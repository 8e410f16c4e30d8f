import * as contract from '@rehearse/contract';
import { authCalls, buildPath, type CallDefinition } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onceAcrossBackends, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { exampleRequest, freshSession, projectFixtures, type ProjectFixture } from '../testing/call-fixtures.js';
import { ALLOWED, SPEC_CALLERS, SPEC_PERMISSIONS, type Outcome, type SpecCaller } from './spec-permissions.js';

/** Routes outside /api that are not contract calls: the demo shop and the built web app's files. */
// /metrics is Prometheus text for scrapers, behind its own token or port (metrics/metrics.test.ts).
// /trace-viewer is Playwright's trace viewer, static files (runs.test.ts).
const NON_CALL_PREFIXES = ['/demo-shop', '/todo-app', '/metrics', '/trace-viewer'];

/**
 * Calls that leave the project they are given as it was (reads, and calls about the caller rather
 * than the project): every caller makes them on one fixture shared by the whole file.
 */
const LEAVES_FIXTURE_ALONE = new Set([
  'authCalls.signup',
  'authCalls.login',
  'authCalls.logout',
  'authCalls.me',
  'authCalls.getProjects',
  'authCalls.createProject',
  'authCalls.getLastActiveProject',
  'authCalls.updateLastActiveProjectId',
  'authCalls.getMembers',
  'authCalls.verifyInvitation',
  'authCalls.addMember',
  'authCalls.declineInvitation',
  'authCalls.checkRole',
  'authCalls.isProjectExpired',
  'authCalls.getAccessKeys',
  'authCalls.getAllPrivateRepoInAProject',
  'authCalls.log',
  'systemCalls.health',
  'systemCalls.storageEvent',
  'workspaceCalls.getEnvList',
  'workspaceCalls.updateLastActiveWorkspace',
  'workspaceCalls.getFeatureList',
  'workspaceCalls.featuresCount',
  'workspaceCalls.storeAndGetSteps',
  'workspaceCalls.getStepCodeByScenario',
  'workspaceCalls.checkSteps',
  'workspaceCalls.getFiles',
  'workspaceCalls.getFileContent',
  'workspaceCalls.lastUpdated',
  'workspaceCalls.getStableVersions',
  'workspaceCalls.getAllBranches',
  'workspaceCalls.getTestData',
  'workspaceCalls.getTotpCode',
  'workspaceCalls.getUnusedStepDefinitions',
  'workspaceCalls.updateWorkspace',
  'workspaceCalls.download',
  'mailCalls.getUsers',
  'mailCalls.generateTotp',
  'runnerCalls.runTestData',
  'runnerCalls.keyProject',
  'runsCalls.getDetails',
  'runsCalls.dashboardDetails',
  'runsCalls.getRun',
  'runsCalls.getScenario',
  'runsCalls.runScreenshot',
  'runsCalls.scenarioScreenshot',
  'runsCalls.scenarioRunScreenshot',
  'runsCalls.traceLink',
  'runsCalls.traceFile',
  'runsCalls.applicationMemory',
  'scenarioJobCalls.scenarioJob',
  'scenarioJobCalls.warmUp',
  'executionCalls.get',
  'executionCalls.list',
  'executionCalls.reportLink',
  'executionCalls.runInstructions',
  'executionCalls.freeThreadCount',
  'workerCalls.claim',
  'workerCalls.heartbeat',
  'workerCalls.finish',
  'aiCalls.scenarioIdeas',
  'aiCalls.scenarioReading',
  'aiCalls.generateStepCode',
  'aiCalls.oversightList',
  'recorderCalls.activeSession',
  'recorderCalls.websocketUrl',
  'recorderCalls.concurrentSessions',
  'recorderCalls.checkReachable',
  'downloadCalls.runnerPackage',
  'downloadCalls.latestAssets',
]);

/**
 * Calls that delete the project, a member, or the resource they name: each caller who may make
 * one gets a fresh fixture, so the next is not answered "not found". Every other call changes the
 * project it is given and gets one fresh fixture, which its permitted callers use in turn.
 */
const DELETES_WHAT_IT_NAMES = new Set([
  'authCalls.deleteProject',
  'authCalls.removeMemberOrInvitation',
  'authCalls.deleteAccessKey',
  'runsCalls.deleteComment',
  'executionCalls.remove',
  'recorderCalls.deleteConnection',
]);

/** Requests in flight at once: PGlite answers one query at a time, but git and the handlers overlap. */
const CONCURRENCY = 6;

/** Every call the contract exports, named `<export>.<call>` (`authCalls.deleteProject`). */
function contractCalls(): Map<string, CallDefinition> {
  const found = new Map<string, CallDefinition>();
  for (const [group, value] of Object.entries(contract)) {
    if (!group.endsWith('Calls') || typeof value !== 'object' || value === null) continue;
    for (const [name, call] of Object.entries(value as Record<string, unknown>)) {
      if (call && typeof call === 'object' && 'method' in call && 'path' in call && 'access' in call)
        found.set(`${group}.${name}`, call as CallDefinition);
    }
  }
  return found;
}

/** Messages the table refuses with: an answer a permitted caller gets must never be one of them. */
const REFUSAL_MESSAGES = new Set(
  Object.values(SPEC_PERMISSIONS).flatMap((rule) =>
    Object.values(rule).flatMap((outcome) => (outcome === ALLOWED ? [] : [outcome.message])),
  ),
);

function matches(outcome: Outcome, status: number, error: string): boolean {
  if (outcome === ALLOWED) return status < 500 && status !== 401 && status !== 403 && !REFUSAL_MESSAGES.has(error);
  return status === outcome.status && error === outcome.message;
}

/** Runs the tasks with at most `limit` in flight; resolves when all have ended. */
async function inPool(limit: number, tasks: (() => Promise<void>)[]): Promise<void> {
  const queue = [...tasks];
  const lanes = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  });
  await Promise.all(lanes);
}

describe.each(testBackends())('permission matrix on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let instanceAdmin: Awaited<ReturnType<typeof signUp>>;
  let otherProjectKey: string;
  let fixture: ReturnType<typeof projectFixtures>;
  const calls = contractCalls();

  beforeAll(async () => {
    test = await startTestApp(backend);
    // The first user of the instance is its administrator; the project's people sign up after.
    instanceAdmin = await signUp(test, { email: 'matrix-instance-admin@acme.test' });
    [admin, member, stranger] = await Promise.all([
      signUp(test, { email: 'matrix-admin@acme.test' }),
      signUp(test, { email: 'matrix-member@acme.test' }),
      signUp(test, { email: 'matrix-stranger@else.test' }),
    ]);
    await test.services.users.update(admin.user.id, { allowedProjectsCount: 10_000 });
    otherProjectKey = (await stranger.api.call(authCalls.createAccessKey, { body: { name: 'other', projectId: stranger.projectId } }))
      .accessKey.token;
    // Fresh projects of the admin with an accepted member, a key of each and the resources calls name.
    fixture = projectFixtures(test, admin, 'matrix', { member });
  });
  afterAll(async () => test?.close());

  it('knows every call the contract lists, and no call it does not', () => {
    const unknown = [...calls.keys()].filter((name) => !(name in SPEC_PERMISSIONS));
    const stale = Object.keys(SPEC_PERMISSIONS).filter((name) => !calls.has(name));
    expect(unknown, 'contract calls missing from spec-permissions.ts').toEqual([]);
    expect(stale, 'spec-permissions.ts entries that are no contract call').toEqual([]);
    for (const rule of Object.values(SPEC_PERMISSIONS)) expect(Object.keys(rule).sort()).toEqual([...SPEC_CALLERS].sort());
  });

  it('serves every /api route as a contract call, and every contract call as a route', () => {
    const unregistered = test.routes.filter(
      (route) => route.url.startsWith('/api') && !route.call && route.method !== 'HEAD' && route.method !== 'OPTIONS',
    );
    expect(unregistered).toEqual([]);
    const others = test.routes.filter(
      (route) => !route.url.startsWith('/api') && !route.call && !NON_CALL_PREFIXES.some((prefix) => route.url.startsWith(prefix)),
    );
    expect(others).toEqual([]);
    const known = new Set(calls.values());
    const outside = test.routes.filter((route) => route.call && !known.has(route.call)).map((route) => `${route.method} ${route.url}`);
    expect(outside).toEqual([]);
    const served = new Set(test.routes.map((route) => route.call));
    expect([...calls].filter(([, call]) => !served.has(call)).map(([name]) => name)).toEqual([]);
    expect(test.routes.filter((route) => route.call).length).toBeGreaterThanOrEqual(Object.keys(authCalls).length);
  });

  // Who may make a call is decided above the database: the whole matrix runs once per suite.
  it.runIf(onceAcrossBackends(backend))('gives every caller the spec table’s answer on every call', { timeout: 600_000 }, async () => {
    const registered = new Set(test.routes.flatMap((route) => (route.call && route.method !== 'HEAD' ? [route.call] : [])));
    const failures: string[] = [];
    let sent = 0;

    /** Sends `name` as `caller` against `made` and records a failure when the answer is not the table's. */
    async function send(name: string, caller: SpecCaller, made: ProjectFixture): Promise<void> {
      const call = calls.get(name)!;
      const { body, params, query } = exampleRequest(call, made);
      // Fresh sessions each time: logout is one of the calls and ends the session it is made with.
      const sessionOf = { signedIn: stranger, member, admin, instanceAdmin } as const;
      const token =
        caller === 'anonymous'
          ? undefined
          : caller === 'adminKey'
            ? made.key.token
            : caller === 'memberKey'
              ? made.memberKey!.token
              : caller === 'otherProjectKey'
                ? otherProjectKey
                : await freshSession(test, sessionOf[caller].user.id);
      const url =
        buildPath(call.path, params ?? { id: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' }) +
        (query ? `?${new URLSearchParams(query).toString()}` : '');
      const response = await test.app.inject({
        method: call.method,
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      sent += 1;
      // Most answers are JSON; the workspace download is a tar stream.
      const contentType = String(response.headers['content-type'] ?? '');
      const error = contentType.includes('json') ? ((JSON.parse(response.body) as { error?: string }).error ?? '') : '';
      const expected = SPEC_PERMISSIONS[name]![caller];
      if (!matches(expected, response.statusCode, error)) {
        const wanted = expected === ALLOWED ? 'allowed' : `${expected.status} "${expected.message}"`;
        failures.push(
          `${name} (${call.method} ${call.path}) as ${caller}: got ${response.statusCode} ${response.body.slice(0, 200)}, spec says ${wanted}`,
        );
      }
    }

    const shared = await fixture();
    const sharedTasks: (() => Promise<void>)[] = [];
    const freshTasks: (() => Promise<void>)[] = [];
    for (const [name, call] of calls) {
      if (!registered.has(call)) continue;
      const rule = SPEC_PERMISSIONS[name]!;
      const permitted = SPEC_CALLERS.filter((caller) => rule[caller] === ALLOWED);
      const refused = SPEC_CALLERS.filter((caller) => rule[caller] !== ALLOWED);
      const resources = call.project?.resource ? [call.project.resource] : [];
      const onFresh = async (callers: SpecCaller[]) => {
        const made = await fixture(resources);
        for (const caller of callers) await send(name, caller, made);
        await made.close();
      };
      if (LEAVES_FIXTURE_ALONE.has(name)) {
        for (const caller of SPEC_CALLERS) sharedTasks.push(() => send(name, caller, shared));
      } else if (DELETES_WHAT_IT_NAMES.has(name)) {
        // Refusals too get a project of their own: a deletion wrongly let through would otherwise
        // take the shared fixture with it and bury the one failure that matters under hundreds.
        if (refused.length > 0) freshTasks.push(() => onFresh(refused));
        for (const caller of permitted) freshTasks.push(() => onFresh([caller]));
      } else {
        // A refused caller changes nothing, so refusals share the file's fixture.
        for (const caller of refused) sharedTasks.push(() => send(name, caller, shared));
        if (permitted.length > 0) freshTasks.push(() => onFresh(permitted));
      }
    }
    await inPool(CONCURRENCY, sharedTasks);
    await shared.close();
    await inPool(CONCURRENCY, freshTasks);

    expect(failures).toEqual([]);
    expect(sent).toBe(registered.size * SPEC_CALLERS.length);
  });

  it('refuses every instance administration call to everyone but an instance administrator', () => {
    const adminCallNames = [...calls].filter(([, call]) => call.path.startsWith('/api/admin/')).map(([name]) => name);
    expect(adminCallNames.length).toBeGreaterThanOrEqual(11);
    for (const name of adminCallNames) {
      const rule = SPEC_PERMISSIONS[name]!;
      expect(
        SPEC_CALLERS.filter((caller) => rule[caller] === ALLOWED),
        name,
      ).toEqual(['instanceAdmin']);
    }
    expect(instanceAdmin.user.instanceAdmin).toBe(true);
    expect([admin, member, stranger].map((person) => person.user.instanceAdmin)).toEqual([false, false, false]);
  });
});
