import {
  authCalls,
  executionCalls as calls,
  runnerCalls,
  executionStatusEvent,
  runsCalls,
  workerCalls,
  workspaceCalls as ws,
  type ExecutionStatus,
  type RunReport,
  type WorkerJob,
} from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bossSchemaOf } from '../jobs/job-queue.js';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

const FEATURE = `Feature: Plan

  @a
  Scenario: A1
    Given I open "/"

  @a
  Scenario: A2
    Given I open "/"

  @b
  Scenario: B1
    Given I open "/"

  @c
  Scenario: C1
    Given I open "/"
`;

/** What a worker's `rehearse run --scenario X` uploads: one test case. */
function reportOf(scenarioName: string, status: 'PASSED' | 'FAILED'): RunReport {
  const time = new Date().toISOString();
  const result = { status, startTime: time, endTime: time };
  return {
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    startTime: time,
    endTime: time,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: `runner-${scenarioName}`,
        scenarioName,
        featureName: 'Plan',
        uri: 'features/plan.feature',
        tags: [],
        result,
        parameters: {},
        steps: [{ keyword: 'Given', type: 'Context', text: 'I open "/"', result, commands: [], networkData: [], webLog: [] }],
        env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
        webLog: [],
        networkLog: [],
      },
    ],
  };
}

describe('the executions engine and its worker protocol', () => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  let worker: ReturnType<TestApp['client']>;

  const plan = (flows: { threadCount: number; tags: string[] }[][]) => ({
    projectId,
    name: 'Engine',
    env: 'default',
    flows: flows.map((groups) => ({ scenarioGroups: groups.map((group, i) => ({ name: `Scenario Group ${i + 1}`, ...group })) })),
  });
  const claim = async (workerId: string, waitMs = 0) => (await worker.call(workerCalls.claim, { body: { workerId, waitMs } })).job;
  /** A worker's upload of its scenario: appended to the execution's run under the job's key. */
  const upload = (job: WorkerJob, status: 'PASSED' | 'FAILED') =>
    test.client(job.accessToken).call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: job.jobId, appendTo: job.runId, report: reportOf(job.scenarioName, status) },
    });
  const finish = (workerId: string, job: WorkerJob, outcome: 'passed' | 'failed' | 'error') =>
    worker.call(workerCalls.finish, { body: { workerId, jobId: job.jobId, outcome } });
  const status = (executionId: string) => test.services.engine.status(executionId);
  /** The run's jobs pg-boss holds for a claim (waiting or retrying), by scenario, in plan order. */
  const queued = async (runId: string) =>
    (
      await test.database.rows<{ scenario_name: string }>(
        `select j.scenario_name from execution_jobs j join execution_runs r on r.id = j.execution_run_id
         join ${bossSchemaOf(test.schemaName ?? 'public')}.job q on q.id = j.id
         where r.run_id = '${runId}' and q.state in ('created', 'retry') order by j.position`,
      )
    ).map((row) => row.scenario_name);
  /** The states of the run's jobs in pg-boss, sorted. */
  const queueStates = async (runId: string) =>
    (
      await test.database.rows<{ state: string }>(
        `select q.state from execution_jobs j join execution_runs r on r.id = j.execution_run_id
         join ${bossSchemaOf(test.schemaName ?? 'public')}.job q on q.id = j.id where r.run_id = '${runId}' order by q.state`,
      )
    ).map((row) => row.state);
  /**
   * Ends a retried job's backoff now, in our row and in the job queue (pg-boss adds jitter to it);
   * the worker whose attempt errored still leaves it to others for the backoff's length from now.
   */
  const retryDue = async (jobId: string) => {
    await test.database.execute(`update execution_jobs set retry_at = now() where id = '${jobId}'`);
    await test.database.execute(
      `update ${bossSchemaOf(test.schemaName ?? 'public')}.job set start_after = now() - interval '1 second' where id = '${jobId}'`,
    );
  };

  beforeAll(async () => {
    // Retries of errored jobs wait 1 s (doubled per attempt), so the retry tests see the backoff.
    test = await startTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite', { JOB_RETRY_BACKOFF_SECONDS: '1' });
    user = await signUp(test, { email: 'engine@acme.test' });
    projectId = user.projectId;
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'plan.feature', content: FEATURE } } });
    worker = test.client((await test.services.workerTokens.create('engine test')).token);
  });
  afterAll(async () => test?.close());

  it('runs flows in parallel and a flow’s groups in order, appends each scenario once, and a failure stops the flow', async () => {
    const { execution } = await user.api.call(calls.create, {
      body: plan([
        [
          { threadCount: 1, tags: ['@a'] },
          { threadCount: 1, tags: ['@b'] },
        ],
        [{ threadCount: 1, tags: ['@c'] }],
      ]),
    });
    const started = await user.api.call(calls.run, { params: { id: execution.id } });
    expect(started.execution).toMatchObject({
      running: true,
      displayStatus: 'Active',
      lastRun: { runId: started.runId, state: 'running' },
    });
    expect((await failure(user.api.call(calls.run, { params: { id: execution.id } }))).message).toBe(
      'This execution is running; stop it first.',
    );
    expect((await failure(user.api.call(calls.remove, { params: { id: execution.id } }))).message).toBe(
      'This execution is running; stop it first.',
    );
    expect(await user.api.call(calls.reportLink, { params: { id: execution.id } })).toMatchObject({
      runId: started.runId,
      reportLink: `http://rehearse.test/${projectId}/run-report/${started.runId}`,
    });

    // One thread per group: flow 1 takes A1, flow 2 takes C1 in parallel; A2 waits for A1's thread, B1 for group @a.
    const a1 = (await claim('worker-1'))!;
    const c1 = (await claim('worker-2'))!;
    expect([a1.scenarioName, c1.scenarioName]).toEqual(['A1', 'C1']);
    expect(a1).toMatchObject({
      runId: started.runId,
      envFile: 'environments/default.json',
      featurePath: 'features/plan.feature',
      browser: 'chromium',
      viewport: '1024x768',
    });
    // Its key dies by itself once the worker would have given up on the scenario (20 minutes).
    const [keyRow] = await test.database.rows<{ expires_at: Date | string | null }>(
      `select k.expires_at from access_keys k join execution_jobs j on j.access_key_id = k.id where j.id = '${a1.jobId}'`,
    );
    const minutesLeft = (new Date(keyRow!.expires_at!).getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(19);
    expect(minutesLeft).toBeLessThanOrEqual(20);
    expect(await claim('worker-3')).toBeNull();

    await upload(a1, 'PASSED');
    await upload(a1, 'PASSED'); // a retried upload of the same job
    await finish('worker-1', a1, 'passed');
    const a2 = (await claim('worker-1'))!;
    expect(a2.scenarioName).toBe('A2');
    await upload(c1, 'PASSED');
    await finish('worker-2', c1, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: true, totalScenarios: 4, scenariosPassed: 2, scenariosFailed: 0 });
    // The run report names its execution and the same live counters, so the page can follow it.
    const { run: live } = await user.api.call(runsCalls.getRun, { query: { runId: started.runId } });
    expect(live.execution).toEqual({
      executionId: execution.id,
      runId: started.runId,
      running: true,
      totalScenarios: 4,
      scenariosPassed: 2,
      scenariosFailed: 0,
      scenariosErrored: 0,
      erroredScenarios: [],
    });

    await upload(a2, 'FAILED');
    await finish('worker-1', a2, 'failed');
    // B1 (the flow's later group) is skipped, so the execution is over.
    expect(await claim('worker-1')).toBeNull();
    expect(await status(execution.id)).toMatchObject({ running: false, totalScenarios: 4, scenariosPassed: 2, scenariosFailed: 1 });
    const { run } = await user.api.call(runsCalls.getRun, { query: { runId: started.runId } });
    expect(run.report.testCases.map((testCase) => testCase.scenarioName).sort()).toEqual(['A1', 'A2', 'C1']);
    // The server ran it: a cloud run (spec 02 Run.mode), though each worker's report says local.
    expect(run).toMatchObject({ status: 'FAILED', totalScenarios: 3, totalScenariosPassed: 2, name: 'Engine', mode: 'cloud' });
    expect(run.execution).toMatchObject({ executionId: execution.id, running: false, scenariosFailed: 1 });
    expect((await user.api.call(calls.get, { params: { id: execution.id } })).execution.running).toBe(false);
    // The jobs' short-lived access keys are gone.
    expect(await test.database.rows(`select * from access_keys where name like 'Execution worker %'`)).toEqual([]);
  });

  it('pins the branch commit when the run starts: a scenario claimed after a later push still gets that commit, and its key downloads it', async () => {
    const head = async () => (await user.api.call(ws.getStableVersions, { query: { projectId } })).versions[0]!.commit;
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@a'] }]]) });
    const atStart = await head();
    await user.api.call(calls.run, { params: { id: execution.id } });
    const a1 = (await claim('pin-1'))!;
    expect(a1.commit).toBe(atStart);

    await user.api.call(ws.pushFile, {
      body: { projectId, directory: 'notes', file: { name: 'pushed-later.md', content: 'after the run started\n' } },
    });
    expect(await head()).not.toBe(atStart);
    await finish('pin-1', a1, 'passed');
    const a2 = (await claim('pin-1'))!;
    expect(a2.commit).toBe(atStart);

    const download = await test.app.inject({
      method: 'GET',
      url: `/api/workspace/download?projectId=${projectId}&branch=${a2.branch}&commit=${a2.commit}`,
      headers: { authorization: `Bearer ${a2.accessToken}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['x-rehearse-commit']).toBe(atStart);
    expect(download.rawPayload.includes(Buffer.from('features/plan.feature'))).toBe(true);
    expect(download.rawPayload.includes(Buffer.from('notes/pushed-later.md'))).toBe(false);
    await finish('pin-1', a2, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: false, scenariosPassed: 2 });
  });

  it("another worker token's agent can neither renew nor finish a job, even when it sends the holder's worker id", async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@c'] }]]) });
    await user.api.call(calls.run, { params: { id: execution.id } });
    const job = (await claim('holder-1'))!;
    const stranger = test.client((await test.services.workerTokens.create('stranger')).token);
    // The stranger copies the holder's id: the server knows it by its own token, so the job is not its.
    expect((await stranger.call(workerCalls.heartbeat, { body: { workerId: 'holder-1', jobIds: [job.jobId] } })).stop).toEqual([job.jobId]);
    await stranger.call(workerCalls.finish, { body: { workerId: 'holder-1', jobId: job.jobId, outcome: 'failed' } });
    await stranger.call(workerCalls.finish, { body: { workerId: 'holder-1', jobId: job.jobId, outcome: 'error', message: 'stolen' } });
    expect(await status(execution.id)).toMatchObject({ running: true, scenariosFailed: 0, scenariosErrored: 0 });
    // The holder still holds it and ends it.
    expect((await worker.call(workerCalls.heartbeat, { body: { workerId: 'holder-1', jobIds: [job.jobId] } })).stop).toEqual([]);
    await upload(job, 'PASSED');
    await finish('holder-1', job, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: false, scenariosPassed: 1, scenariosFailed: 0 });
  });

  it('retries a job whose worker stopped heartbeating on another worker, and after its last attempt ends it in error, not failed', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@c'] }]]) });
    await user.api.call(calls.run, { params: { id: execution.id } });
    const first = (await claim('lost-1'))!;
    expect((await worker.call(workerCalls.heartbeat, { body: { workerId: 'lost-1', jobIds: [first.jobId] } })).stop).toEqual([]);
    const expire = () =>
      test.database.execute(`update execution_jobs set heartbeat_at = now() - interval '1 hour' where id = '${first.jobId}'`);
    // Its backoff over at once: this test is about who may take it, not when.
    const backoffOver = () => retryDue(first.jobId);
    await expire();
    expect(await claim('other-2')).toBeNull(); // the lapsed job is requeued, with its backoff
    await backoffOver();
    const retried = (await claim('other-2'))!;
    expect(retried.jobId).toBe(first.jobId);
    // The lost worker is told to stop, and its late finish changes nothing.
    expect((await worker.call(workerCalls.heartbeat, { body: { workerId: 'lost-1', jobIds: [first.jobId] } })).stop).toEqual([first.jobId]);
    await finish('lost-1', first, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: true, scenariosPassed: 0 });
    // Its access key no longer uploads.
    expect((await failure(upload(first, 'PASSED'))).httpStatus).toBe(401);

    await expire();
    expect(await claim('other-3')).toBeNull();
    await backoffOver();
    expect((await claim('other-3'))!.jobId).toBe(first.jobId);
    await expire();
    // The third attempt was the last: the job ends in error, the run is over and did not pass.
    expect(await claim('other-4')).toBeNull();
    expect(await status(execution.id)).toMatchObject({ running: false, totalScenarios: 1, scenariosFailed: 0, scenariosErrored: 1 });
    const [job] = await test.database.rows<{ state: string; attempts: number; message: string }>(
      `select state, attempts, message from execution_jobs where id = '${first.jobId}'`,
    );
    expect(job).toEqual({ state: 'error', attempts: 3, message: 'The worker running this scenario stopped responding.' });
  });

  it('an error outcome is retried after a backoff on another worker, is never a failed scenario, and the run passes when the retry does', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@c'] }]]) });
    const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });
    const first = (await claim('flaky-1'))!;
    await worker.call(workerCalls.finish, {
      body: { workerId: 'flaky-1', jobId: first.jobId, outcome: 'error', message: 'Could not download the workspace (HTTP 503)' },
    });
    expect(await status(execution.id)).toMatchObject({ running: true, scenariosPassed: 0, scenariosFailed: 0, scenariosErrored: 0 });
    // Its key is gone with the attempt; the retry waits for its backoff, and then for another worker first.
    expect((await failure(upload(first, 'PASSED'))).httpStatus).toBe(401);
    expect(await claim('flaky-2')).toBeNull();
    await retryDue(first.jobId);
    expect(await claim('flaky-1')).toBeNull();
    // The retry the errored worker passed over is out of reach a moment, so the next claim takes the next job; then it is another's.
    const retry = (await claim('flaky-2', 5_000))!;
    expect(retry.jobId).toBe(first.jobId);
    expect(retry.accessToken).not.toBe(first.accessToken);
    await upload(retry, 'PASSED');
    await finish('flaky-2', retry, 'passed');
    expect(await status(execution.id)).toMatchObject({
      running: false,
      totalScenarios: 1,
      scenariosPassed: 1,
      scenariosFailed: 0,
      scenariosErrored: 0,
    });
    expect((await user.api.call(runsCalls.getRun, { query: { runId } })).run).toMatchObject({ status: 'PASSED', totalScenarios: 1 });
    const [job] = await test.database.rows<{ state: string; attempts: number; errored_worker_id: string }>(
      `select state, attempts, errored_worker_id from execution_jobs where id = '${first.jobId}'`,
    );
    expect(job).toEqual({ state: 'passed', attempts: 2, errored_worker_id: expect.stringMatching(/^[0-9a-f-]{36}:flaky-1$/) as string });
  });

  it('the worker that errored gets the job back when no other worker claims within the backoff, and a last error ends it and skips the later groups', async () => {
    const { execution } = await user.api.call(calls.create, {
      body: plan([
        [
          { threadCount: 1, tags: ['@c'] },
          { threadCount: 1, tags: ['@b'] },
        ],
      ]),
    });
    const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });
    const error = async (job: WorkerJob, workerId: string) =>
      worker.call(workerCalls.finish, { body: { workerId, jobId: job.jobId, outcome: 'error', message: 'the browser did not start' } });
    let job = (await claim('alone-1'))!;
    expect(job.scenarioName).toBe('C1');
    for (let attempt = 1; attempt < 3; attempt++) {
      await error(job, 'alone-1');
      // Backoff (1 s, then 2 s) and the same again for another worker: then the only worker may take it again.
      const waitUntil = Date.now() + 2 * 1_000 * 2 ** (attempt - 1) + 200;
      while (Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 200));
      job = (await claim('alone-1'))!;
      expect(job.scenarioName).toBe('C1');
    }
    await error(job, 'alone-1');
    // The later group is skipped; nothing is left; the run is FAILED but no scenario failed.
    expect(await claim('alone-1')).toBeNull();
    expect(await status(execution.id)).toMatchObject({
      running: false,
      totalScenarios: 2,
      scenariosPassed: 0,
      scenariosFailed: 0,
      scenariosErrored: 1,
    });
    expect(
      await test.database.rows(
        `select j.scenario_name, j.state, j.attempts, j.message from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}' order by j.position`,
      ),
    ).toEqual([
      { scenario_name: 'C1', state: 'error', attempts: 3, message: 'the browser did not start' },
      {
        scenario_name: 'B1',
        state: 'skipped',
        attempts: 0,
        message: 'Skipped: a scenario of an earlier group of this flow could not run (an infrastructure error).',
      },
    ]);
    expect((await user.api.call(runsCalls.getRun, { query: { runId } })).run).toMatchObject({
      status: 'FAILED',
      execution: {
        running: false,
        scenariosFailed: 0,
        scenariosErrored: 1,
        erroredScenarios: [{ featurePath: expect.any(String) as string, scenarioName: 'C1', reason: 'the browser did not start' }],
      },
    });
  });

  it('hands the job queue only what may run: a group’s jobs up to its threads, a flow’s next group once its group ended', async () => {
    const { execution } = await user.api.call(calls.create, {
      body: plan([
        [
          { threadCount: 1, tags: ['@a'] },
          { threadCount: 1, tags: ['@b'] },
        ],
        [{ threadCount: 1, tags: ['@c'] }],
      ]),
    });
    const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });
    expect(await queued(runId)).toEqual(['A1', 'C1']);
    const a1 = (await claim('queue-1'))!;
    const c1 = (await claim('queue-2'))!;
    expect(await queued(runId)).toEqual([]);
    expect(await claim('queue-3')).toBeNull();
    await finish('queue-1', a1, 'passed');
    expect(await queued(runId)).toEqual(['A2']);
    await finish('queue-2', c1, 'passed');
    expect(await queued(runId)).toEqual(['A2']);
    await finish('queue-1', (await claim('queue-1'))!, 'passed');
    expect(await queued(runId)).toEqual(['B1']);
    await finish('queue-1', (await claim('queue-1'))!, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: false, totalScenarios: 4, scenariosPassed: 4 });
    // Each job is one pg-boss job, completed once.
    expect(await queueStates(runId)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('mends what a server that stopped between its commit and the queue left: unreleased jobs are released, lost ones queued again', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@c'] }]]) });
    const boss = `${bossSchemaOf(test.schemaName ?? 'public')}.job`;
    const jobsOf = (runId: string) =>
      `(select j.id from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}')`;

    // Released in our rows, but the send to pg-boss never happened.
    const first = await user.api.call(calls.run, { params: { id: execution.id } });
    await test.database.execute(`delete from ${boss} where id in ${jobsOf(first.runId)}`);
    // Nothing to claim (not asked through a claim: a claim itself mends once 5 s have passed since the last mend).
    expect(await queued(first.runId)).toEqual([]);
    expect(await test.services.engine.mendQueue()).toBe(1);
    await finish('mend-1', (await claim('mend-1'))!, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: false, scenariosPassed: 1 });

    // Started, but never released.
    const second = await user.api.call(calls.run, { params: { id: execution.id } });
    await test.database.execute(`delete from ${boss} where id in ${jobsOf(second.runId)}`);
    await test.database.execute(`update execution_jobs set released_at = null where id in ${jobsOf(second.runId)}`);
    expect(await queued(second.runId)).toEqual([]);
    expect(await test.services.engine.mendQueue()).toBe(1);
    expect(await test.services.engine.mendQueue()).toBe(0);
    await finish('mend-1', (await claim('mend-1'))!, 'passed');
    expect(await status(execution.id)).toMatchObject({ running: false, scenariosPassed: 1 });
  });

  it('hands a thread that finishes its job the run’s next one before a waiting thread hears of it (it keeps the warm runner)', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@a'] }]]) });
    await user.api.call(calls.run, { params: { id: execution.id } });
    const first = (await claim('w-keep-1'))!;
    expect(first.scenarioName).toBe('A1');
    await upload(first, 'PASSED');
    // Another thread waits for work meanwhile.
    const waiting = claim('w-keep-2', 1_500);
    const answer = await worker.call(workerCalls.finish, {
      body: { workerId: 'w-keep-1', jobId: first.jobId, outcome: 'passed', next: true },
    });
    expect(answer.job).toMatchObject({ scenarioName: 'A2', runId: first.runId });
    expect(await waiting).toBeNull();
    await upload(answer.job!, 'PASSED');
    // Nothing left to hand over: the answer says so, and the run is done.
    const last = await worker.call(workerCalls.finish, {
      body: { workerId: 'w-keep-1', jobId: answer.job!.jobId, outcome: 'passed', next: true },
    });
    expect(last.job).toBeNull();
    expect(await status(execution.id)).toMatchObject({ running: false, scenariosPassed: 2 });
  });

  it('publishes the live counters in order: two jobs ending together never leave a finished execution shown as running', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 2, tags: ['@a'] }]]) });
    await user.api.call(calls.run, { params: { id: execution.id } });
    const first = (await claim('w-order-1'))!;
    const second = (await claim('w-order-2'))!;
    await upload(first, 'PASSED');
    await upload(second, 'PASSED');
    const { sockets, engine } = test.services;
    const emit = sockets.emitToRoomHere.bind(sockets);
    const status = engine.status.bind(engine);
    const emitted: ExecutionStatus[] = [];
    const lists: unknown[] = [];
    sockets.emitToRoomHere = ((room: string, event: string, payload: ExecutionStatus) => {
      if (event === executionStatusEvent(execution.id)) emitted.push(payload);
      if (event === 'crudUpdate') lists.push(payload);
      (emit as (room: string, event: string, payload: unknown) => void)(room, event, payload);
    }) as typeof sockets.emitToRoomHere;
    // The first end's counters are read at once and sent late, as on a busy server; the second end lands meanwhile.
    let firstRead!: () => void;
    const firstCountersRead = new Promise<void>((resolve) => (firstRead = resolve));
    let reads = 0;
    engine.status = async (executionId: string) => {
      const counters = await status(executionId);
      if (++reads === 1) {
        firstRead();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return counters;
    };
    try {
      const firstEnded = finish('w-order-1', first, 'passed');
      await firstCountersRead;
      await finish('w-order-2', second, 'passed');
      await firstEnded;
    } finally {
      sockets.emitToRoomHere = emit;
      engine.status = status;
    }
    expect(emitted.map((counters) => [counters.scenariosPassed, counters.running])).toEqual([
      [1, true],
      [2, false],
    ]);
    // The full list (every execution with its scenarios) goes out when the run ends, not per job.
    expect(lists).toHaveLength(1);
  });

  it('halts: every job stops, the run is marked, the execution is free again', async () => {
    const { execution } = await user.api.call(calls.create, { body: plan([[{ threadCount: 2, tags: ['@a'] }]]) });
    const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });
    const job = (await claim('halt-1'))!;
    const halted = await user.api.call(calls.halt, { params: { id: execution.id } });
    // The spec's status is Draft again (no schedule); how the latest run ended is said beside it.
    expect(halted.execution).toMatchObject({ running: false, displayStatus: 'Draft', lastRun: { runId, state: 'halted' } });
    const { executions: listed } = await user.api.call(calls.list, { query: { projectId: user.projectId } });
    expect(listed.find((e) => e.id === execution.id)?.lastRun).toMatchObject({ runId, state: 'halted' });
    expect((await worker.call(workerCalls.heartbeat, { body: { workerId: 'halt-1', jobIds: [job.jobId] } })).stop).toEqual([job.jobId]);
    expect(await claim('halt-2')).toBeNull();
    const { run } = await user.api.call(runsCalls.getRun, { query: { runId } });
    expect(run).toMatchObject({ status: 'FAILED', name: 'Engine (stopped)' });
    expect(
      await test.database.rows(
        `select j.state from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}' and j.state <> 'cancelled'`,
      ),
    ).toEqual([]);
    // Both released jobs, the claimed one and the waiting one, are out of the job queue.
    expect(await queueStates(runId)).toEqual(['cancelled', 'cancelled']);
    // Halting again is harmless; the execution can run again.
    await user.api.call(calls.halt, { params: { id: execution.id } });
    const { runId: again } = await user.api.call(calls.run, { params: { id: execution.id } });
    await user.api.call(calls.halt, { params: { id: execution.id } });
    // Its report's previous results are this execution's runs only, not the first test's 'Engine' execution's.
    const { run: second } = await user.api.call(runsCalls.getRun, { query: { runId: again } });
    expect(second.report.prevResults).toMatchObject({
      of: { kind: 'execution', name: 'Engine' },
      runs: ['FAILED'],
      previousRuns: [{ id: runId, status: 'FAILED' }],
    });
  });

  it('refuses bad runs with clear messages and starts nothing', async () => {
    const runsBefore = await test.database.rows(`select id from runs`);
    const noThreads = await user.api.call(calls.create, {
      body: plan([[{ threadCount: 1, tags: ['@a'] }], [{ threadCount: 0, tags: ['@b'] }]]),
    });
    expect((await failure(user.api.call(calls.run, { params: { id: noThreads.execution.id } }))).message).toBe('Insufficient threads');

    // Two threads are the project's whole quota: while one execution takes both, another cannot start.
    const big = await user.api.call(calls.create, { body: plan([[{ threadCount: 2, tags: ['@a'] }]]) });
    const other = await user.api.call(calls.create, { body: plan([[{ threadCount: 1, tags: ['@c'] }]]) });
    const { runId: bigRun } = await user.api.call(calls.run, { params: { id: big.execution.id } });
    expect((await failure(user.api.call(calls.run, { params: { id: other.execution.id } }))).message).toBe('Insufficient threads');
    await user.api.call(calls.halt, { params: { id: big.execution.id } });

    const stranger = await signUp(test, { email: 'engine-stranger@else.test' });
    expect((await failure(stranger.api.call(calls.run, { params: { id: other.execution.id } }))).httpStatus).toBe(403);
    expect((await failure(stranger.api.call(calls.halt, { params: { id: other.execution.id } }))).httpStatus).toBe(403);
    expect((await failure(stranger.api.call(calls.reportLink, { params: { id: other.execution.id } }))).httpStatus).toBe(403);
    // Another project's key cannot append to this project's execution run.
    const strangerKey = (await stranger.api.call(authCalls.createAccessKey, { body: { projectId: stranger.projectId, name: 'k' } }))
      .accessKey.token;
    const foreign = await failure(
      test.client(strangerKey).call(runnerCalls.uploadRun, {
        body: { projectId: stranger.projectId, uploadKey: 'foreign-append', appendTo: bigRun, report: reportOf('A1', 'PASSED') },
      }),
    );
    expect([foreign.httpStatus, foreign.message]).toEqual([404, 'Run not found.']);
    expect((await user.api.call(runsCalls.getRun, { query: { runId: bigRun } })).run.totalScenarios).toBe(0);
    expect((await failure(user.api.call(calls.run, { params: { id: 'not-a-uuid' } }))).message).toBe('Execution not found.');
    expect((await failure(user.api.call(calls.run, { params: { id: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' } }))).httpStatus).toBe(404);

    await test.database.execute(`update projects set max_execution_threads = 0 where id = '${projectId}'`);
    expect((await failure(user.api.call(calls.run, { params: { id: other.execution.id } }))).message).toBe(
      'No threads available to execute scenarios',
    );
    await test.database.execute(`update projects set max_execution_threads = 2 where id = '${projectId}'`);

    // Only the one halted run of `big` was created.
    expect((await test.database.rows(`select id from runs`)).length).toBe(runsBefore.length + 1);
    expect((await failure(test.client().call(workerCalls.claim, { body: { workerId: 'nobody', waitMs: 0 } }))).httpStatus).toBe(401);
    expect((await failure(test.client('rhw_forged').call(workerCalls.claim, { body: { workerId: 'nobody', waitMs: 0 } }))).message).toBe(
      'A valid worker token is required.',
    );
  });

  it('serves CI/CD instructions naming the first access key, for an environment the project has', async () => {
    const before = await user.api.call(calls.runInstructions, { query: { projectId } });
    expect(before.accessKeyName).toBeNull();
    expect(before.instructions.map((i) => i.id)).toEqual(['github', 'gitlab', 'shell']);
    const shell = before.instructions.find((i) => i.id === 'shell')!.content;
    expect(shell).toMatch(/^npx playwright-core@\d+\.\d+\.\d+ install --with-deps chromium$/m);
    // One word for one thing: the screen is "Access tokens" (spec 01 §2), so is the recipe (issue 47).
    expect(shell).toContain('generate one under Settings > Access tokens');
    expect(shell).not.toMatch(/access key/i);
    expect(shell).toContain(
      `npx rehearse run --server http://rehearse.test --project ${projectId} --branch main --env environments/${before.env}.json --headless`,
    );

    await user.api.call(ws.pushEnv, { body: { projectId, name: 'staging', data: { baseUrl: 'http://shop.test/' } } });
    await user.api.call(authCalls.createAccessKey, { body: { projectId, name: 'CI key' } });
    const after = await user.api.call(calls.runInstructions, { query: { projectId, env: 'staging' } });
    expect(after.accessKeyName).toBe('CI key');
    const github = after.instructions.find((i) => i.id === 'github')!.content;
    expect(github).toContain('REHEARSE_TOKEN: ${{ secrets.REHEARSE_TOKEN }}');
    expect(github).toContain('the access token "CI key"');
    expect(github).not.toMatch(/access key/i);
    expect(github).toContain('--env environments/staging.json --headless');
  });
});
