import { randomUUID } from 'node:crypto';
import { EXAMPLE_PROJECT, type CallDefinition, type ProjectResource } from '@rehearse/contract';
import { digestToken, newToken, TokenPrefix } from '../crypto/tokens.js';
import { onePassedScenarioReport } from './report-fixture.js';
import type { signUp, TestApp } from './test-app.js';

/**
 * Fixtures for the tests that send every contract call (the permission matrix, the input fuzz):
 * a real project holding one of each sub-resource, and each call's example request aimed at it.
 */

type Person = Awaited<ReturnType<typeof signUp>>;

export interface ProjectFixture {
  projectId: string;
  /** An access key of the project, made by its admin. */
  key: { id: string; token: string };
  /** An access key of the project made by its member, when the fixtures were asked for a member. */
  memberKey?: { id: string; token: string };
  /** One real id per sub-resource a call can name (`call.project.resource`) that this fixture holds. */
  ids: Record<string, string>;
  /** Ends the fixture's recorder session, if it has one (a person may hold only two at once). */
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Someone made an accepted member of every fixture project, with a key of their own. */
  member?: Person;
}

/** Sub-resources a fixture can hold; every one unless a smaller list is asked for. */
const ALL_RESOURCES: readonly ProjectResource[] = ['accessKey', 'run', 'testCase', 'comment', 'job', 'execution', 'recorderSession'];

/** A new session without hashing a password (these tests need hundreds; sign-in is tested elsewhere). */
export async function freshSession(test: TestApp, userId: string): Promise<string> {
  const token = newToken(TokenPrefix.session);
  await test.database.execute(
    `insert into sessions (token_hash, user_id, expires_at) values ('${digestToken(token)}', '${userId}', now() + interval '1 hour')`,
  );
  return token;
}

/**
 * Makes fresh projects of `admin`, each with a key and, unless `resources` names fewer, a stored
 * run with a test case and comment, a scenario job, an execution and a recorder session (without a
 * browser: these tests are about who may name it, not about Chromium). A stored run costs a
 * workspace and an upload, so a test that needs no run asks for fewer resources.
 */
export function projectFixtures(
  test: TestApp,
  admin: Person,
  label: string,
  options: FixtureOptions = {},
): (resources?: readonly ProjectResource[]) => Promise<ProjectFixture> {
  return async (resources = ALL_RESOURCES) => {
    const wants = (resource: ProjectResource) => resources.includes(resource);
    const project = await test.services.projects.create(admin.user, { name: `${label} ${randomUUID().slice(0, 8)}` });
    const adminCaller = { kind: 'session' as const, user: admin.user, tokenHash: '' };
    const access = await test.services.access.authorize(adminCaller, { from: 'body', field: 'id' }, project.id);
    const key = await test.services.accessKeys.create(project.id, admin.user.id, label);
    const ids: Record<string, string> = { accessKey: key.id };
    let memberKey: ProjectFixture['memberKey'];
    if (options.member) {
      const [invitation] = await test.services.members.invite(admin.user, access, [options.member.email]);
      await test.services.members.accept(options.member.user, invitation!.id);
      const made = await test.services.accessKeys.create(project.id, options.member.user.id, `${label} member`);
      memberKey = { id: made.id, token: made.token };
    }
    if (wants('run') || wants('testCase') || wants('comment')) {
      const { runId } = await test.services.runUploads.upload(adminCaller, access, {
        uploadKey: `${label}-${project.id}`,
        report: onePassedScenarioReport(label),
      });
      const run = await test.services.runReports.run(adminCaller, runId);
      const testCaseId = run.report.testCases[0]!.id;
      const comment = await test.services.runReports.addComment(adminCaller, access, testCaseId, label);
      Object.assign(ids, { run: runId, testCase: testCaseId, comment: comment._id });
    }
    if (wants('job')) {
      const [job] = await test.database.rows<{ id: string }>(
        `insert into scenario_jobs (project_id, user_id, branch, feature_name, scenario_name, environment)
         values ('${project.id}', '${admin.user.id}', 'main', 'f', 's', 'default') returning id`,
      );
      ids.job = job!.id;
    }
    if (wants('execution')) {
      const [execution] = await test.database.rows<{ id: string }>(
        `insert into executions (project_id, user_id, name, env, flows) values ('${project.id}', '${admin.user.id}', 'x', 'default', '[]') returning id`,
      );
      ids.execution = execution!.id;
    }
    if (wants('recorderSession')) {
      ids.recorderSession = test.services.recorder.track(
        {
          id: randomUUID(),
          userId: admin.user.id,
          projectId: project.id,
          env: 'default',
          branch: 'main',
          url: 'http://shop.test/',
          createdAt: new Date(),
        },
        { pid: undefined, send: () => undefined, stop: async () => undefined },
      ).id;
    }
    return {
      projectId: project.id,
      key: { id: key.id, token: key.token },
      ...(memberKey ? { memberKey } : {}),
      ids,
      close: async () => {
        if (ids.recorderSession) await test.services.recorder.end(ids.recorderSession);
      },
    };
  };
}

function replaceProject<T>(value: T, projectId: string): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value).replaceAll(EXAMPLE_PROJECT, projectId)) as T;
}

/**
 * The call's contract example aimed at the fixture: its project, and a real one of the
 * sub-resource it names (a key, a run, ...). Parts the example lacks stay undefined.
 */
export function exampleRequest(
  call: CallDefinition,
  fixture: ProjectFixture,
): { body: unknown; params: Record<string, string> | undefined; query: Record<string, string> | undefined } {
  const example = call.example ?? {};
  let body: unknown = replaceProject(example.body, fixture.projectId);
  let params = replaceProject(example.params, fixture.projectId);
  let query = replaceProject(example.query, fixture.projectId);
  const resource = call.project?.resource;
  if (resource && resource !== 'project') {
    const { field, from } = call.project!;
    const id = fixture.ids[resource]!;
    if (from === 'body') body = { ...(body as object), [field]: id };
    if (from === 'params') params = { ...params, [field]: id };
    if (from === 'query') query = { ...query, [field]: id };
  }
  if (params?.testCaseId) params = { ...params, testCaseId: fixture.ids.testCase! };
  return { body, params, query };
}
