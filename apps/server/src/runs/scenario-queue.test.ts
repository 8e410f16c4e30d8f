import { scenarioJobCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bossSchemaOf, JobQueue } from '../jobs/job-queue.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { ScenarioJobsRepo } from './scenario-jobs.repo.js';
import { SCENARIO_QUEUE, ScenarioQueue } from './scenario-queue.js';
import { RetryPolicy } from '../jobs/retry-policy.js';

const FEATURE = `Feature: Queue

  Scenario: Alpha
    Given I open "/"

  Scenario: Beta
    Given I open "/"
`;

describe.each(testBackends())('the "Run scenario" queue on pg-boss (%s)', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let door: JobQueue;
  /** Two servers' view of the queue (each its own pg-boss door), as several servers share one database. */
  let queue: ScenarioQueue;

  beforeAll(async () => {
    // No claim loop of the app's own: the test claims, as a server would.
    test = await startTestApp(backend, { WORKER_PROCESSES: '0', JOB_ATTEMPTS: '3', JOB_RETRY_BACKOFF_SECONDS: '1' });
    user = await signUp(test);
    await user.api.call(ws.pushEnv, { body: { projectId: user.projectId, name: 'local', data: { baseUrl: 'http://127.0.0.1:9/' } } });
    await user.api.call(ws.pushFile, {
      body: { projectId: user.projectId, directory: 'features', file: { name: 'queue.feature', content: FEATURE } },
    });
    // Finished jobs leave pg-boss's job table after a second and its archive a second later (maintenance when the test asks).
    door = await JobQueue.start(test.database, { archiveAfterSeconds: 1, deleteAfterSeconds: 1, maintenanceIntervalSeconds: 3600 });
    queue = new ScenarioQueue(new ScenarioJobsRepo(test.database.db), door, { retries: RetryPolicy.fixed(3, 1000), expireMs: 60_000 });
  });
  afterAll(async () => {
    await door?.stop();
    await test?.close();
  });

  const run = (scenarioName: string, environment = 'local') =>
    user.api.call(scenarioJobCalls.runScenario, { body: { projectId: user.projectId, featureName: 'queue', scenarioName, environment } });
  const bossState = async (id: string) =>
    (
      await test.database.rows<{ state: string }>(`select state from ${bossSchemaOf(test.schemaName ?? 'public')}.job where id = '${id}'`)
    )[0]?.state;

  it('the same Run scenario twice while it is queued is one job; once claimed, asking again queues another', async () => {
    const { job: first } = await run('Alpha');
    const { job: again } = await run('Alpha');
    expect(again.id).toBe(first.id);
    expect(again.state).toBe('queued');
    // Another scenario, or another environment, is another request.
    expect((await run('Beta')).job.id).not.toBe(first.id);
    expect(await test.database.rows(`select id from scenario_jobs where scenario_name = 'Alpha'`)).toHaveLength(1);
    // The public id is pg-boss's job id.
    expect(await bossState(first.id)).toBe('created');

    const claimed = await queue.claimNext('server-a', 1000);
    expect(claimed).toMatchObject({ id: first.id, state: 'running', owner: 'server-a', attempts: 1 });
    expect(await bossState(first.id)).toBe('active');
    const { job: next } = await run('Alpha');
    expect(next.id).not.toBe(first.id);
    const finished = await queue.finish(first.id, 'server-a', { state: 'passed', runId: null, message: null });
    expect(finished?.state).toBe('passed');
    expect(await bossState(first.id)).toBe('completed');
    const { job } = await user.api.call(scenarioJobCalls.scenarioJob, { params: { jobId: first.id } });
    expect(job).toMatchObject({ id: first.id, state: 'passed', scenarioName: 'Alpha', environment: 'local' });
    // Drain what this test queued.
    for (let job = await queue.claimNext('server-a', 0); job; job = await queue.claimNext('server-a', 0)) {
      await queue.finish(job.id, 'server-a', { state: 'passed', runId: null, message: null });
    }
  });

  it('an infrastructure error is retried by pg-boss after its backoff, by another server first', { timeout: 30_000 }, async () => {
    const { job } = await run('Beta');
    const first = await queue.claimNext('server-a', 1000);
    expect(first?.id).toBe(job.id);
    // A server that lost the job (not its owner) can neither requeue nor finish it.
    expect(await queue.requeueForRetry(job.id, 'server-b', 'nope', 1000)).toBeUndefined();
    const queued = await queue.requeueForRetry(job.id, 'server-a', 'The browser did not start.', 1000);
    expect(queued).toMatchObject({ state: 'queued', attempts: 1, erroredOwner: 'server-a' });
    expect(await bossState(job.id)).toBe('retry');
    // Not before its backoff (pg-boss: one second, up to twice that with its jitter).
    expect(await queue.claimNext('server-b', 1000)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // The server whose attempt errored passes it over (attempt unspent); another one takes it.
    expect(await queue.claimNext('server-a', 5000)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 600));
    const retried = await queue.claimNext('server-b', 5000);
    expect(retried).toMatchObject({ id: job.id, state: 'running', owner: 'server-b', attempts: 2 });
    // The first server's late finish is refused: the job is the second one's now.
    expect(await queue.finish(job.id, 'server-a', { state: 'error', runId: null, message: 'late' })).toBeUndefined();
    expect(await queue.finish(job.id, 'server-b', { state: 'passed', runId: null, message: null })).toMatchObject({ state: 'passed' });
    expect(await bossState(job.id)).toBe('completed');
  });

  it('a job whose server died ends as interrupted in both, and is never claimed again', async () => {
    const { job } = await run('Alpha');
    expect((await queue.claimNext('dead-server', 0))?.id).toBe(job.id);
    await test.database.execute(`update scenario_jobs set heartbeat_at = now() - interval '1 hour' where id = '${job.id}'`);
    const ended = await queue.markInterrupted({ leaseLapsedMs: 5000 }, 'interrupted');
    expect(ended.map((row) => row.id)).toEqual([job.id]);
    expect(await bossState(job.id)).toBe('cancelled');
    expect(await queue.claimNext('server-b', 0)).toBeUndefined();
  });

  it('a job pg-boss expired while its server still runs it is not claimed again: the lease decides', async () => {
    const { job } = await run('Beta');
    expect((await queue.claimNext('slow-server', 0))?.id).toBe(job.id);
    // pg-boss's expiry passes (its maintenance fails the claim and queues a retry).
    await test.database.execute(
      `update ${bossSchemaOf(test.schemaName ?? 'public')}.job set started_on = now() - interval '1 hour' where id = '${job.id}'`,
    );
    await door.maintain();
    expect(await bossState(job.id)).toBe('retry');
    // Its backoff passed too.
    await test.database.execute(
      `update ${bossSchemaOf(test.schemaName ?? 'public')}.job set start_after = now() - interval '1 second' where id = '${job.id}'`,
    );
    expect(await queue.claimNext('server-b', 0)).toBeUndefined();
    expect(await bossState(job.id)).toBe('cancelled');
    const [row] = await test.database.rows(`select state, owner from scenario_jobs where id = '${job.id}'`);
    expect(row).toEqual({ state: 'running', owner: 'slow-server' });
    // Its server finishes it as usual.
    expect(await queue.finish(job.id, 'slow-server', { state: 'passed', runId: null, message: null })).toMatchObject({ state: 'passed' });
  });

  it(
    'soak: 1,000 jobs queued, claimed and finished leave no rows behind once the retention period passed',
    { timeout: 300_000 },
    async () => {
      const bossRows = async () => door.rows(SCENARIO_QUEUE);
      const ours = async () => (await test.database.rows<{ n: number }>('select count(*)::int as n from scenario_jobs'))[0]!.n;
      for (let i = 0; i < 1000; i += 1) {
        await queue.enqueue({
          projectId: user.projectId,
          userId: user.user.id,
          branch: 'main',
          featureName: 'queue',
          scenarioName: `Soak ${i}`,
          environment: 'local',
          heal: false,
        });
      }
      const owners = ['server-a', 'server-b'];
      let finished = 0;
      await Promise.all(
        owners.map(async (owner) => {
          for (let job = await queue.claimNext(owner, 0); job; job = await queue.claimNext(owner, 0)) {
            if (await queue.finish(job.id, owner, { state: 'passed', runId: null, message: null })) finished += 1;
          }
        }),
      );
      expect(finished).toBe(1000);
      // Our job history (JOB_HISTORY_DAYS) and pg-boss's retention, both past.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await door.maintain();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await door.maintain();
      await queue.deleteEndedBefore(new Date());
      expect(await test.database.rows(`select id from scenario_jobs where scenario_name like 'Soak %'`)).toEqual([]);
      // What is left is the earlier tests' jobs, never the soak's: the tables stay bounded.
      expect(await ours()).toBeLessThan(10);
      expect((await bossRows()).jobs + (await bossRows()).archived).toBeLessThan(10);
    },
  );
});
