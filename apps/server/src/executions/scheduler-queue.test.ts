import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { bossSchemaOf, JobQueue } from '../jobs/job-queue.js';
import { RetryPolicy } from '../jobs/retry-policy.js';
import { testBackends } from '../testing/test-app.js';
import type { ExecutionEngine } from './execution-engine.js';
import { ExecutionRefused } from './execution-errors.js';
import type { ExecutionsRepo } from './executions.repo.js';
import { SCHEDULE_QUEUE, Scheduler, slotJobId } from './scheduler.js';

/** 2026-11-16 is a Monday; the slot is Monday 09:00 UTC and the schedulers' clocks read 30 s after it. */
const SLOT = new Date('2026-11-16T09:00:00Z');
const NOW = new Date(SLOT.getTime() + 30_000);
const SCHEDULE = { days: ['Mon'], time: '09:00', timeZone: 0, isBiweekly: false };
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

describe.each(testBackends())('schedules on the job queue (pg-boss) on %s', (backend) => {
  let database: Database;
  let queue: JobQueue;
  const schemaName = backend === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const boss = () => bossSchemaOf(schemaName ?? 'public');

  /** A scheduler server whose executions are `executionIds` (each scheduled Monday 09:00) and whose engine is `start`. */
  const scheduler = (serverId: string, executionIds: string[], start: (executionId: string) => Promise<{ runId: string }>) =>
    new Scheduler(
      {
        listScheduled: async () => executionIds.map((id) => ({ id, schedule: SCHEDULE, setAt: null, createdAt: new Date('2026-01-01') })),
      } as unknown as ExecutionsRepo,
      queue,
      { start } as unknown as ExecutionEngine,
      { now: () => NOW },
      { tickMs: 60_000, serverId, retries: RetryPolicy.fixed(3, 0) },
      quiet,
    );
  const jobOf = async (executionId: string) =>
    (
      await database.rows<{ state: string; retry_count: number; output: unknown }>(
        `select state, retry_count, output from ${boss()}.job where id = '${slotJobId(executionId, SLOT)}'
         union all select state, retry_count, output from ${boss()}.archive where id = '${slotJobId(executionId, SLOT)}'`,
      )
    )[0];

  beforeAll(async () => {
    database = await openDatabase({
      url: backend === 'postgres' ? process.env.DATABASE_URL : undefined,
      ...(schemaName ? { schemaName } : {}),
    });
    // Finished jobs are archived a second after they end, when the test runs maintenance.
    queue = await JobQueue.start(database, { archiveAfterSeconds: 1, deleteAfterSeconds: 3600, maintenanceIntervalSeconds: 3600 });
    await queue.define(SCHEDULE_QUEUE, { policy: 'standard' });
  });
  afterAll(async () => {
    await queue?.stop();
    if (schemaName) {
      await database.execute(`DROP SCHEMA "${bossSchemaOf(schemaName)}" CASCADE`);
      await database.execute(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE`);
    }
    await database?.close();
  });

  it('names a slot’s job the same on every server, as a uuid, and apart from other slots and executions', () => {
    const id = randomUUID();
    expect(slotJobId(id, SLOT)).toBe(slotJobId(id, new Date(SLOT.getTime())));
    expect(slotJobId(id, SLOT)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(slotJobId(id, new Date(SLOT.getTime() + 7 * 86_400_000))).not.toBe(slotJobId(id, SLOT));
    expect(slotJobId(randomUUID(), SLOT)).not.toBe(slotJobId(id, SLOT));
  });

  it('starts a slot once across servers, and not again once its job was archived', async () => {
    const executionId = randomUUID();
    const starts: string[] = [];
    const start = async (id: string) => {
      starts.push(id);
      return { runId: 'run-1' };
    };
    const [first, second] = [scheduler('server-a', [executionId], start), scheduler('server-b', [executionId], start)];
    await Promise.all([first.tick(), second.tick()]);
    await second.tick();
    expect(starts).toEqual([executionId]);
    expect(await jobOf(executionId)).toMatchObject({ state: 'completed', output: { runId: 'run-1' } });

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await queue.maintain();
    expect(await database.rows(`select 1 from ${boss()}.job where id = '${slotJobId(executionId, SLOT)}'`)).toEqual([]);
    await first.tick();
    expect(starts).toEqual([executionId]);
  });

  it('tries a start that failed for an infrastructure reason again, and ends one the engine refused with its reason', async () => {
    const flaky = randomUUID();
    const refused = randomUUID();
    let calls = 0;
    const server = scheduler('server-a', [flaky, refused], async (id) => {
      if (id === refused) throw new ExecutionRefused('running');
      calls += 1;
      if (calls === 1) throw new Error('git fetch timed out');
      return { runId: 'run-2' };
    });
    // No backoff here (0 s): the same tick claims the retry at once.
    await server.tick();
    expect(await jobOf(refused)).toMatchObject({ state: 'completed', retry_count: 0, output: { refused: 'running' } });
    expect(calls).toBe(2);
    expect(await jobOf(flaky)).toMatchObject({ state: 'completed', retry_count: 1, output: { runId: 'run-2' } });
  });
});
