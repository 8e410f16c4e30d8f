import { randomUUID } from 'node:crypto';
import { adminCalls, authCalls, executionCalls, workerCalls, workspaceCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bossSchemaOf } from '../jobs/job-queue.js';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { RetryPolicy } from '../jobs/retry-policy.js';
import { INSTANCE_SETTINGS_CACHE_MS, InstanceSettingsService } from './instance-settings.js';
import type { InstanceSettingsRepo } from './instance-settings.repo.js';

const FEATURE = 'Feature: Retries\n\n  @retry\n  Scenario: Flaky\n    Given I open "/"\n';

describe.each(testBackends())('instance settings changed at run time on %s', (backend) => {
  let test: TestApp;
  let root: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    // The environment's values, which the saved ones override.
    test = await startTestApp(backend, {
      SESSION_IDLE_HOURS: '72',
      JOB_ATTEMPTS: '3',
      JOB_RETRY_BACKOFF_SECONDS: '30',
      JOB_HISTORY_DAYS: '14',
    });
    root = await signUp(test, { email: 'root@settings.test' });
  });
  afterAll(async () => test?.close());

  const environment = {
    signup: { kind: 'open' },
    defaultAllowedProjects: 10,
    sessionIdleHours: 72,
    jobAttempts: 3,
    jobRetryBackoffSeconds: 30,
    jobHistoryDays: 14,
  };

  it('answers the environment’s values until an administrator saves others, and says they are the environment’s', async () => {
    const { settings, sources, environment: fromEnvironment } = await root.api.call(adminCalls.getSettings);
    expect(settings).toEqual(environment);
    expect(fromEnvironment).toEqual(environment);
    expect(sources).toEqual({
      signup: 'environment',
      defaultAllowedProjects: 'environment',
      sessionIdleHours: 'environment',
      jobAttempts: 'environment',
      jobRetryBackoffSeconds: 'environment',
      jobHistoryDays: 'environment',
    });
  });

  it('refuses an idle session older than a newly saved idle limit, without a restart, and audits the change', async () => {
    const person = await signUp(test);
    const idleFor = async (hours: number) =>
      test.database.execute(`update sessions set last_used_at = now() - interval '${hours} hours' where user_id = '${person.user.id}'`);
    await idleFor(5);
    expect((await person.api.call(authCalls.me)).user.email).toBe(person.user.email);

    const answer = await root.api.call(adminCalls.updateSettings, { body: { sessionIdleHours: 4 } });
    // Only the named setting changed, and only it is saved.
    expect(answer.settings).toMatchObject({ sessionIdleHours: 4, jobAttempts: 3, signup: { kind: 'open' } });
    expect(answer.sources).toMatchObject({ sessionIdleHours: 'saved', jobAttempts: 'environment', signup: 'environment' });
    expect(answer.environment.sessionIdleHours).toBe(72);
    await idleFor(5);
    const expired = await failure(person.api.call(authCalls.me));
    expect([expired.httpStatus, expired.message]).toEqual([401, 'Your session has expired. Please login again.']);
    // The administrator's own session, used a moment ago, goes on.
    expect((await root.api.call(authCalls.me)).user.email).toBe('root@settings.test');

    const [latest] = (await root.api.call(adminCalls.listActivity, { query: { limit: 1 } })).activity;
    expect(latest).toMatchObject({
      actor: 'root@settings.test',
      action: 'settings.update',
      target: 'instance',
      details: { sessionIdleHours: 4 },
    });
  });

  it('gives an errored execution job the newly saved attempts, after the newly saved backoff', async () => {
    const user = await signUp(test);
    const projectId = user.projectId;
    await user.api.call(workspaceCalls.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'retries.feature', content: FEATURE } },
    });
    const worker = test.client((await test.services.workerTokens.create('settings test')).token);
    const claim = async () => (await worker.call(workerCalls.claim, { body: { workerId: 'only-1', waitMs: 0 } })).job;
    const error = async (jobId: string) =>
      worker.call(workerCalls.finish, { body: { workerId: 'only-1', jobId, outcome: 'error', message: 'the browser did not start' } });
    const { execution } = await user.api.call(executionCalls.create, {
      body: {
        projectId,
        name: 'Retries',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'All', threadCount: 1, tags: ['@retry'] }] }],
      },
    });

    // The environment's 30 s backoff would keep the job from its only worker for a minute; 0 s and 2 attempts do not.
    await root.api.call(adminCalls.updateSettings, { body: { jobAttempts: 2, jobRetryBackoffSeconds: 0 } });
    await user.api.call(executionCalls.run, { params: { id: execution.id } });
    const first = (await claim())!;
    await error(first.jobId);
    const second = (await claim())!;
    expect(second.jobId).toBe(first.jobId);
    await error(second.jobId);
    // Two attempts, not the environment's three: the job ends in error and nothing is left to claim.
    expect(await claim()).toBeNull();
    expect(await test.services.engine.status(execution.id)).toMatchObject({ running: false, scenariosErrored: 1 });
    expect(await test.database.rows(`select state, attempts from execution_jobs where id = '${first.jobId}'`)).toEqual([
      { state: 'error', attempts: 2 },
    ]);
  });

  it('keeps job history for the newly saved days at the next sweep, pg-boss’s finished and archived jobs too', async () => {
    // Four finished pg-boss jobs: ended 3 days and 1 day ago, one of each archived by pg-boss's
    // maintenance (it archives after an hour here) and one of each still in its job table.
    const queue = test.services.jobQueue;
    const boss = bossSchemaOf(test.database.schemaName);
    await queue.define('history', { policy: 'standard' });
    const finished = async (days: number) => {
      const id = randomUUID();
      await queue.enqueue('history', {}, { id, retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 60 });
      // pg-boss claims jobs whose start_after < now(); PGlite's clock can give the claim the very
      // instant of the enqueue (stop 56 saw undefined here), so the claim is retried, not assumed.
      const claimed = await vi.waitFor(
        async () => {
          const job = await queue.claim('history');
          if (!job) throw new Error('the job is not claimable yet');
          return job;
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(claimed.id).toBe(id);
      await queue.complete('history', id, {});
      return { id, endedAgo: `interval '${days} days'` };
    };
    const age = async (job: { id: string; endedAgo: string }) =>
      test.database.execute(`update ${boss}.job set completed_on = now() - ${job.endedAgo} where id = '${job.id}'`);
    const [oldArchived, newArchived] = [await finished(3), await finished(1)];
    await age(oldArchived);
    await age(newArchived);
    await queue.maintain();
    const [oldInTable, newInTable] = [await finished(3), await finished(1)];
    await age(oldInTable);
    await age(newInTable);
    const left = async () =>
      (
        await test.database.rows<{ id: string; archived: boolean }>(
          `select id, false as archived from ${boss}.job where name = 'history'
           union all select id, true from ${boss}.archive where name = 'history' order by archived, id`,
        )
      ).map(({ id, archived }) => `${id}${archived ? ' archived' : ''}`);
    const all = [`${oldInTable.id}`, `${newInTable.id}`, `${oldArchived.id} archived`, `${newArchived.id} archived`];
    expect((await left()).sort()).toEqual([...all].sort());

    const ended = (
      await test.database.rows<{ n: number }>(`select count(*)::int as n from execution_jobs where finished_at is not null`)
    )[0]!.n;
    expect(ended).toBeGreaterThan(0);
    for (const table of ['execution_runs', 'execution_jobs']) {
      await test.database.execute(
        `update ${table} set created_at = created_at - interval '3 days', finished_at = finished_at - interval '3 days'`,
      );
    }
    // Within the environment's 14 days nothing goes; past the saved 2, it does, the newer jobs stay.
    expect(await test.services.housekeeping.sweep()).toMatchObject({ executionJobs: 0, queuedJobs: 0 });
    expect((await left()).sort()).toEqual([...all].sort());
    await root.api.call(adminCalls.updateSettings, { body: { jobHistoryDays: 2 } });
    expect(await test.services.housekeeping.sweep()).toMatchObject({ executionJobs: ended, queuedJobs: 2 });
    expect((await left()).sort()).toEqual([`${newInTable.id}`, `${newArchived.id} archived`].sort());
  });

  it('refuses a bad value with the reason and saves nothing of that change', async () => {
    const before = await root.api.call(adminCalls.getSettings);
    const refusals: [object, string][] = [
      [{ sessionIdleHours: 0 }, 'Session idle hours must be a whole number from 1 to 8760.'],
      [{ jobAttempts: 11, sessionIdleHours: 9 }, 'Job attempts must be a whole number from 1 to 10.'],
      [{ jobRetryBackoffSeconds: 1.5 }, 'Retry backoff must be a whole number of seconds from 0 to 600.'],
      [{ jobHistoryDays: 'soon' }, 'Job history must be kept a whole number of days from 1 to 3650.'],
      // A clear beside a bad value clears nothing either.
      [{ jobAttempts: null, sessionIdleHours: 0 }, 'Session idle hours must be a whole number from 1 to 8760.'],
      [{ jobHistoryDays: 'environment' }, 'Job history must be kept a whole number of days from 1 to 3650.'],
      [{ signup: null, defaultAllowedProjects: -1 }, 'Allowed projects must be a whole number from 0 to 10000.'],
      [{}, 'Say what to change.'],
    ];
    for (const [body, message] of refusals) {
      const refused = await test.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: { authorization: `Bearer ${root.token}` },
        payload: body,
      });
      expect([refused.statusCode, (JSON.parse(refused.body) as { error: string }).error], JSON.stringify(body)).toEqual([400, message]);
    }
    expect(await root.api.call(adminCalls.getSettings)).toEqual(before);
  });

  it('refuses a user who is not an instance administrator with 403 and saves nothing', async () => {
    const person = await signUp(test);
    for (const body of [{ jobAttempts: 10 }, { jobAttempts: null }]) {
      const refused = await failure(person.api.call(adminCalls.updateSettings, { body }));
      expect([refused.httpStatus, refused.message]).toEqual([403, 'Only an instance administrator can do this.']);
    }
    const after = await root.api.call(adminCalls.getSettings);
    expect([after.settings.jobAttempts, after.sources.jobAttempts]).toEqual([2, 'saved']);
  });

  it('puts the environment’s value back in force when a saved one is cleared with null, audited, the others kept', async () => {
    const answer = await root.api.call(adminCalls.updateSettings, { body: { jobHistoryDays: null, jobAttempts: null } });
    expect(answer.settings).toMatchObject({ jobHistoryDays: 14, jobAttempts: 3, sessionIdleHours: 4, jobRetryBackoffSeconds: 0 });
    expect(answer.sources).toMatchObject({
      jobHistoryDays: 'environment',
      jobAttempts: 'environment',
      sessionIdleHours: 'saved',
      jobRetryBackoffSeconds: 'saved',
    });
    expect(await root.api.call(adminCalls.getSettings)).toEqual(answer);
    // The saved values are gone, not stored equal to the environment's: a new JOB_HISTORY_DAYS would apply.
    expect(await test.database.rows(`select key from instance_settings order by key`)).toEqual([
      { key: 'jobRetryBackoffSeconds' },
      { key: 'sessionIdleHours' },
    ]);
    const [latest] = (await root.api.call(adminCalls.listActivity, { query: { limit: 1 } })).activity;
    expect(latest).toMatchObject({
      actor: 'root@settings.test',
      action: 'settings.update',
      target: 'instance',
      details: { jobHistoryDays: null, jobAttempts: null },
    });
    // Clearing what is not saved is no error and changes nothing.
    expect((await root.api.call(adminCalls.updateSettings, { body: { jobHistoryDays: null } })).settings).toEqual(answer.settings);
  });
});

describe('the instance settings cache of a server that did not save', () => {
  /** Two servers' services over one table, each with its own clock. */
  function cluster() {
    const table = new Map<string, unknown>();
    const repo = {
      all: async () => new Map(table),
      change: async (values: Record<string, unknown>, cleared: string[]) => {
        for (const [key, value] of Object.entries(values)) table.set(key, value);
        for (const key of cleared) table.delete(key);
      },
    } as unknown as InstanceSettingsRepo;
    const defaults = {
      signup: { kind: 'invite' as const },
      defaultAllowedProjects: 10,
      sessionIdleHours: 72,
      jobAttempts: 3,
      jobRetryBackoffSeconds: 5,
      jobHistoryDays: 14,
    };
    let now = 0;
    const server = () => new InstanceSettingsService(repo, defaults, () => now);
    return { saving: server(), other: server(), advance: (ms: number) => (now += ms) };
  }

  it('applies a change made elsewhere once its copy is INSTANCE_SETTINGS_CACHE_MS old, and the saving server at once', async () => {
    const { saving, other, advance } = cluster();
    expect((await other.cached()).sessionIdleHours).toBe(72);
    await saving.update({ sessionIdleHours: 1 });
    expect((await saving.cached()).sessionIdleHours).toBe(1);
    advance(INSTANCE_SETTINGS_CACHE_MS - 1);
    expect((await other.cached()).sessionIdleHours).toBe(72);
    advance(1);
    expect((await other.cached()).sessionIdleHours).toBe(1);
  });

  it('gives every job kind one retry policy that reads attempts and backoff without waiting, refreshed in the background when stale', async () => {
    const { saving, other, advance } = cluster();
    await other.current();
    const retries = RetryPolicy.following(other);
    expect([retries.maxAttempts, retries.backoffMs, retries.delayAfter(1), retries.delayAfter(2)]).toEqual([3, 5_000, 5_000, 10_000]);
    expect([retries.allowsAnother(2), retries.allowsAnother(3)]).toEqual([true, false]);
    expect(retries.queueOptions()).toEqual({ retryLimit: 2, retryDelaySeconds: 5 });
    await saving.update({ jobAttempts: 1, jobRetryBackoffSeconds: 0 });
    advance(INSTANCE_SETTINGS_CACHE_MS);
    // The stale read answers the last values and starts a new read; the next decision sees the change.
    expect(retries.maxAttempts).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect([retries.maxAttempts, retries.backoffMs, retries.allowsAnother(1)]).toEqual([1, 0, false]);
    expect(retries.queueOptions()).toEqual({ retryLimit: 0, retryDelaySeconds: 0 });
  });
});
