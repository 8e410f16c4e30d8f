import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { authCalls, retentionCalls, runnerCalls, runsCalls, type RunReport, type TestCase } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../admin.js';
import { TINY_PNG_BASE64 } from '../testing/report-fixture.js';
import { failure, onceAcrossBackends, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

// A 1×1 PNG; bytes after its end make each screenshot distinct, as real ones are.
const PNG = Buffer.from(TINY_PNG_BASE64, 'base64');
const DAY_MS = 86_400_000;

function testCase(name: string, screenshotIds: string[]): TestCase {
  const time = new Date().toISOString();
  const ok = { status: 'PASSED' as const, startTime: time, endTime: time };
  return {
    id: `runner-${name}`,
    scenarioName: name,
    featureName: 'Checkout',
    uri: 'features/checkout.feature',
    tags: [],
    result: ok,
    parameters: {},
    steps: [
      {
        keyword: 'Given',
        type: 'Context',
        text: 'I open "/"',
        result: ok,
        commands: screenshotIds.map((screenshotId) => ({
          type: 'navigate',
          screenshotId,
          info: { url: 'http://rehearse.test/' },
          result: ok,
        })),
        networkData: [],
        webLog: [],
      },
    ],
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    webLog: [],
    networkLog: [],
  };
}

function report(name: string, screenshotIds: string[]): RunReport {
  const time = new Date().toISOString();
  return {
    name,
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    startTime: time,
    endTime: time,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [testCase(`${name} one`, screenshotIds), testCase(`${name} two`, [])],
  };
}

describe.each(testBackends())('run retention on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let key: ReturnType<TestApp['client']>;
  let projectId: string;
  const runIds: Record<string, string> = {};
  const shots: Record<string, string> = {};
  /** The bytes behind each artifact id, so another project can upload the same ones. */
  const bytesOf: Record<string, Buffer> = {};

  const fileOf = (id: string) => path.join(test.settings.dataDir, 'artifacts', id.slice(0, 2), id);
  const runCount = async () => (await test.database.rows<{ n: number }>(`select count(*)::int as n from runs`))[0]!.n;
  const artifactRows = async () => (await test.database.rows<{ id: string }>(`select id from artifacts order by id`)).map((row) => row.id);
  const upload = async () => {
    const bytes = Buffer.concat([PNG, randomBytes(2048)]);
    const { id } = await key.call(runnerCalls.uploadArtifact, {
      body: { projectId, contentType: 'image/png', data: bytes.toString('base64') },
    });
    bytesOf[id] = bytes;
    return id;
  };
  /** Puts runs, and every artifact's upload (row and file), `days` into the past. */
  const ageRuns = async (names: string[], days: number) => {
    const ids = names.map((name) => `'${runIds[name]}'`).join(',');
    await test.database.execute(`update runs set publish_time = publish_time - interval '${days} days' where id in (${ids})`);
  };
  const ageArtifacts = async (days: number) => {
    await test.database.execute(`update artifacts set created_at = created_at - interval '${days} days'`);
    const then = new Date(Date.now() - days * DAY_MS);
    for (const id of await artifactRows()) if (existsSync(fileOf(id))) utimesSync(fileOf(id), then, then);
  };

  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'keeper@acme.test' });
    projectId = admin.projectId;
    key = test.client((await admin.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId } })).accessKey.token);

    // Four runs: January (old, its own screenshot and one it shares with April), February (old, but
    // re-run yesterday), March (old), April (new). Uploaded in that order, so April is the newest.
    for (const name of ['january', 'february', 'march', 'april', 'shared', 'unnamed']) shots[name] = await upload();
    const named: Record<string, string[]> = {
      january: [shots.january!, shots.shared!],
      february: [shots.february!],
      march: [shots.march!],
      april: [shots.april!, shots.shared!],
    };
    for (const name of ['january', 'february', 'march', 'april']) {
      const { runId } = await key.call(runnerCalls.uploadRun, {
        body: { projectId, uploadKey: `run-${name}`, report: report(name, named[name]!) },
      });
      runIds[name] = runId;
    }
    const rerun = await key.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: 'run-february-again', rerunOf: runIds.february!, report: report('february again', []) },
    });
    runIds.februaryAgain = rerun.runId;
    await ageRuns(['january', 'february', 'march'], 40);
    await ageRuns(['april'], 1);
    await ageArtifacts(2);
  });
  afterAll(async () => test?.close());

  it('finds the artifacts of runs stored before runs recorded them (migration 0015) as upload records them', async () => {
    const named = () => test.database.rows(`select run_id, artifact_id from run_artifacts order by run_id, artifact_id`);
    const atUpload = await named();
    expect(atUpload).toHaveLength(6);
    await test.database.execute(`delete from run_artifacts`);
    const migration = readFileSync(new URL('../../drizzle/0015_run_retention.sql', import.meta.url), 'utf8');
    await test.database.execute(migration.split('--> statement-breakpoint').at(-1)!);
    expect(await named()).toEqual(atUpload);
  });

  it('keeps every run until a limit is set, says what the project stores, and forgets only an artifact no run ever named', async () => {
    const overview = await admin.api.call(retentionCalls.getRetention, { query: { projectId } });
    expect(overview.retention).toEqual({ keepDays: null, keepRuns: null });
    expect(overview.stored).toMatchObject({ runs: 5, testCases: 10 });
    expect(overview.stored.artifactBytes).toBe(6 * (PNG.length + 2048));
    expect(overview.wouldDelete).toEqual({ runs: 0, testCases: 0, artifactBytes: 0 });
    // The instance administrator's view of every project's disk use, the largest first.
    expect((await runAdminCommand(['disk-use'], test.database)).split('\n')[0]).toBe(
      `Default (${projectId}): 5 run(s), 10 scenario(s), ${6 * (PNG.length + 2048)} bytes of artifacts`,
    );
    // A Code Review fix's "after" picture is named by the fix, not by a run: it stays too.
    const afterFix = await upload();
    await ageArtifacts(2);
    const aprilCase = (await test.database.rows<{ id: string }>(`select id from test_cases where run_id = '${runIds.april}' limit 1`))[0]!
      .id;
    await test.database.execute(
      `insert into oversight_items (project_id, run_id, test_case_id, feature_name, scenario_name, classification, confidence, file, before, after, changes, after_screenshot_id)
       values ('${projectId}', '${runIds.april}', '${aprilCase}', 'Checkout', 'april one', 'locator', 0.9, 'locators/home.json', '{}', '{}', '[]', '${afterFix}')`,
    );
    // An upload whose run is still on its way (minutes old, named by no run yet) stays.
    const onItsWay = await upload();
    // The one a crashed upload left (uploaded two days ago, named by no run) goes without any limit.
    expect(await test.services.housekeeping.sweep()).toMatchObject({ runs: 0, artifacts: 1, artifactBytes: PNG.length + 2048 });
    expect(await runCount()).toBe(5);
    expect(existsSync(fileOf(shots.unnamed!))).toBe(false);
    expect(existsSync(fileOf(shots.january!))).toBe(true);
    expect(existsSync(fileOf(onItsWay))).toBe(true);
    expect(existsSync(fileOf(afterFix))).toBe(true);
    await test.database.execute(`delete from oversight_items`);
    await test.database.execute(`delete from artifacts where id = '${afterFix}'`);
    await test.database.execute(`delete from artifacts where id = '${onItsWay}'`);
  });

  it('refuses a limit that is not a whole number in range, and a member who is not the admin, and saves nothing', async () => {
    const bad = await failure(admin.api.call(retentionCalls.setRetention, { body: { projectId, keepDays: 0, keepRuns: null } }));
    expect(bad.httpStatus).toBe(400);
    expect(bad.message).toContain('Keep runs for a whole number of days from 1 to 3650, or leave it empty to keep them however old.');
    const half = await failure(admin.api.call(retentionCalls.setRetention, { body: { projectId, keepDays: null, keepRuns: 2.5 } }));
    expect(half.message).toContain('Keep a whole number of runs from 1 to 1,000,000, or leave it empty to keep any number.');

    const member = await signUp(test, { email: 'member@acme.test' });
    await test.database.execute(
      `insert into project_members (project_id, user_id, role) values ('${projectId}', '${member.user.id}', 'MEMBER')`,
    );
    const refused = await failure(member.api.call(retentionCalls.setRetention, { body: { projectId, keepDays: 1, keepRuns: null } }));
    expect([refused.httpStatus, refused.message]).toEqual([403, 'Only the project admin can do this.']);
    // A member may look, and try a dry run.
    expect(
      (await member.api.call(retentionCalls.previewRetention, { body: { projectId, keepDays: 30, keepRuns: null } })).wouldDelete.runs,
    ).toBe(2);
    expect((await admin.api.call(retentionCalls.getRetention, { query: { projectId } })).retention).toEqual({
      keepDays: null,
      keepRuns: null,
    });
  });

  it('deletes runs past the kept days with their scenarios and the artifacts only they name, from the database and the disk', async () => {
    // A dry run first: January and March go (February was re-run yesterday); the shared screenshot stays.
    const dryRun = await admin.api.call(retentionCalls.previewRetention, { body: { projectId, keepDays: 30, keepRuns: null } });
    expect(dryRun.wouldDelete).toEqual({ runs: 2, testCases: 4, artifactBytes: 2 * (PNG.length + 2048) });
    expect(await runCount()).toBe(5);

    const saved = await admin.api.call(retentionCalls.setRetention, { body: { projectId, keepDays: 30, keepRuns: null } });
    expect(saved).toMatchObject({ retention: { keepDays: 30, keepRuns: null }, wouldDelete: dryRun.wouldDelete });
    expect(await runCount()).toBe(5);

    const swept = await test.services.housekeeping.sweep();
    expect(swept).toMatchObject({ runs: 2, artifacts: 2, artifactBytes: 2 * (PNG.length + 2048) });
    expect(await runCount()).toBe(3);
    for (const gone of ['january', 'march']) {
      expect((await failure(admin.api.call(runsCalls.getRun, { query: { runId: runIds[gone]! } }))).httpStatus).toBe(404);
    }
    for (const gone of ['january', 'march', 'unnamed']) {
      expect(await artifactRows()).not.toContain(shots[gone]);
      expect(existsSync(fileOf(shots[gone]!))).toBe(false);
    }
    // What a kept run names stays, in the database and on disk, and is still served.
    for (const kept of ['february', 'april', 'shared']) {
      expect(await artifactRows()).toContain(shots[kept]);
      expect(existsSync(fileOf(shots[kept]!))).toBe(true);
    }
    const { run } = await admin.api.call(runsCalls.getRun, { query: { runId: runIds.april! } });
    const shot = await admin.api.call(runsCalls.runScreenshot, {
      params: { runId: runIds.april!, testCaseId: run.report.testCases[0]!.id, screenshotId: shots.shared! },
    });
    expect(Buffer.from(shot.image, 'base64').subarray(0, PNG.length)).toEqual(PNG);
    expect((await admin.api.call(retentionCalls.getRetention, { query: { projectId } })).wouldDelete.runs).toBe(0);
  });

  it('keeps the newest runs by count, each with its reruns, but never one holding a pending Code Review fix', async () => {
    const febTestCase = (
      await test.database.rows<{ id: string }>(`select id from test_cases where run_id = '${runIds.february}' limit 1`)
    )[0]!.id;
    await test.database.execute(
      `insert into oversight_items (project_id, run_id, test_case_id, feature_name, scenario_name, classification, confidence, file, before, after, changes)
       values ('${projectId}', '${runIds.february}', '${febTestCase}', 'Checkout', 'february one', 'locator', 0.9, 'locators/home.json', '{}', '{}', '[]')`,
    );
    await admin.api.call(retentionCalls.setRetention, { body: { projectId, keepDays: null, keepRuns: 1 } });
    expect((await admin.api.call(retentionCalls.getRetention, { query: { projectId } })).wouldDelete.runs).toBe(0);
    expect(await test.services.housekeeping.sweep()).toMatchObject({ runs: 0 });

    await test.database.execute(`update oversight_items set state = 'archived'`);
    // February and its rerun go together; April, the newest, stays.
    expect((await admin.api.call(retentionCalls.getRetention, { query: { projectId } })).wouldDelete).toMatchObject({
      runs: 2,
      testCases: 4,
    });
    expect(await test.services.housekeeping.sweep()).toMatchObject({ runs: 2 });
    expect((await test.database.rows<{ id: string }>(`select id from runs`)).map((row) => row.id)).toEqual([runIds.april]);
  });

  it('never lets another project’s retention remove bytes this project still stores', async () => {
    // Mallory uploads the very bytes of one of Ada's kept screenshots into her own project, names
    // them in a run, then lets her retention delete that run at once.
    const mallory = await signUp(test, { email: 'mallory@evil.test' });
    const malloryKey = test.client(
      (await mallory.api.call(authCalls.createAccessKey, { body: { name: 'x', projectId: mallory.projectId } })).accessKey.token,
    );
    const { id } = await malloryKey.call(runnerCalls.uploadArtifact, {
      body: { projectId: mallory.projectId, contentType: 'image/png', data: bytesOf[shots.april!]!.toString('base64') },
    });
    expect(id).toBe(shots.april);
    await malloryKey.call(runnerCalls.uploadRun, {
      body: { projectId: mallory.projectId, uploadKey: 'mallory-1', report: report('mallory', [id]) },
    });
    await test.database.execute(
      `update runs set publish_time = publish_time - interval '40 days' where project_id = '${mallory.projectId}'`,
    );
    await ageArtifacts(2);
    await mallory.api.call(retentionCalls.setRetention, { body: { projectId: mallory.projectId, keepDays: 1, keepRuns: null } });
    expect(await test.services.housekeeping.sweep()).toMatchObject({ runs: 1, artifacts: 1 });

    // Her run and her record of the bytes are gone; Ada's run, record and file are not.
    expect(await test.database.rows(`select id from artifacts where project_id = '${mallory.projectId}'`)).toEqual([]);
    expect(existsSync(fileOf(shots.april!))).toBe(true);
    const { run } = await admin.api.call(runsCalls.getRun, { query: { runId: runIds.april! } });
    const shot = await admin.api.call(runsCalls.runScreenshot, {
      params: { runId: runIds.april!, testCaseId: run.report.testCases[0]!.id, screenshotId: shots.april! },
    });
    expect(Buffer.from(shot.image, 'base64')).toEqual(bytesOf[shots.april!]);
  });

  // A soak: once per suite (PostgreSQL, where the limit was hit, when the suite has it).
  it.runIf(onceAcrossBackends(backend))(
    'counts and deletes months of runs at once, more runs than one statement may bind as parameters',
    { timeout: 180_000 },
    async () => {
      // 33,000 runs past the rule: naming each twice (as a run and as a rerun's parent) is 66,000
      // parameters, over PostgreSQL's 65,535, which is where listing them back to the database failed.
      const RUNS = 33_000;
      const team = await signUp(test, { email: 'busy-team@acme.test' });
      await test.database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, publish_time)
      select '${team.projectId}', 'old-' || g, 'Busy', 'Nightly ' || g, 'cloud', 'default', 'http://x/', 'chromium', 'PASSED', 1, 1,
             now() - interval '3 days' - g * interval '5 minutes', now() - interval '3 days' - g * interval '5 minutes',
             now() - interval '3 days' - g * interval '5 minutes'
      from generate_series(0, ${RUNS}) g`);
      // As the server's periodic ANALYZE would (PGlite has no autovacuum): the foreign-key check of the
      // next insert was planned when runs held a handful of rows, and would scan all 33,000 per row.
      await test.database.execute('analyze runs');
      await test.database.execute(`
      insert into test_cases (run_id, project_id, position, scenario_name, feature_name, status, start_time, end_time, report)
      select id, project_id, 0, 'Checkout', 'Shop', status, start_time, end_time, '{}'::jsonb from runs where project_id = '${team.projectId}'`);
      // The newest of them is kept by a rerun from today.
      await test.database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, rerun_of)
      select project_id, 'today', username, name, mode, env_name, env_base_url, browser, status, 1, 1, now(), now(), id
      from runs where project_id = '${team.projectId}' and upload_key = 'old-0'`);

      const rule = { keepDays: 1, keepRuns: null };
      const dryRun = await team.api.call(retentionCalls.previewRetention, { body: { projectId: team.projectId, ...rule } });
      expect(dryRun.wouldDelete).toEqual({ runs: RUNS, testCases: RUNS, artifactBytes: 0 });
      await team.api.call(retentionCalls.setRetention, { body: { projectId: team.projectId, ...rule } });
      expect(await test.services.housekeeping.sweep()).toMatchObject({ runs: RUNS });
      const left = await test.database.rows<{ upload_key: string }>(
        `select upload_key from runs where project_id = '${team.projectId}' order by upload_key`,
      );
      expect(left.map((row) => row.upload_key)).toEqual(['old-0', 'today']);
      expect(
        (await test.database.rows<{ n: number }>(`select count(*)::int as n from test_cases where project_id = '${team.projectId}'`))[0]!.n,
      ).toBe(1);
    },
  );
});
