import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { testBackends } from '../testing/test-app.js';
import { bossSchemaOf, JobQueue } from './job-queue.js';

const QUEUE = 'soak';

const enqueueOptions = (id = randomUUID()) => ({ id, retryLimit: 2, retryDelaySeconds: 0, expireInSeconds: 60 });

/**
 * A job retried or given back with no delay is due at now() and claimable once now() has passed it
 * (pg-boss fetches `start_after < now()`). PGlite's clock counts whole milliseconds, so a claim in
 * the same millisecond finds nothing: a clean-clone CI did, and the job it left failed the soak.
 */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

describe.each(testBackends())('the job queue door (pg-boss) on %s', (backend) => {
  let database: Database;
  let queue: JobQueue;
  const schemaName = backend === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;

  beforeAll(async () => {
    database = await openDatabase({
      url: backend === 'postgres' ? process.env.DATABASE_URL : undefined,
      ...(schemaName ? { schemaName } : {}),
    });
    // Retention of one second in pg-boss's job table and one more in its archive; maintenance runs when the test asks.
    queue = await JobQueue.start(database, { archiveAfterSeconds: 1, deleteAfterSeconds: 1, maintenanceIntervalSeconds: 3600 });
    await queue.define(QUEUE, { policy: 'short' });
  });
  afterAll(async () => {
    await queue?.stop();
    if (schemaName) {
      await database.execute(`DROP SCHEMA "${schemaName}" CASCADE`);
      await database.execute(`DROP SCHEMA "${bossSchemaOf(schemaName)}" CASCADE`);
    }
    await database?.close();
  });

  it('starts again on a database where its schema exists (its own migrate on start is idempotent)', async () => {
    const again = await JobQueue.start(database, { archiveAfterSeconds: 1, deleteAfterSeconds: 1, maintenanceIntervalSeconds: 3600 });
    await again.define(QUEUE, { policy: 'short' });
    await again.stop();
    const [version] = await database.rows<{ version: number }>(`select version from ${bossSchemaOf(schemaName ?? 'public')}.version`);
    expect(version!.version).toBeGreaterThan(0);
  });

  it('keeps one queued job per singleton key, and a new one once it was claimed', async () => {
    const first = await queue.enqueue(QUEUE, { n: 1 }, { ...enqueueOptions(), singletonKey: 'same' });
    expect(first).toBeTruthy();
    expect(await queue.enqueue(QUEUE, { n: 2 }, { ...enqueueOptions(), singletonKey: 'same' })).toBeNull();
    expect(await queue.queuedWithKey(QUEUE, 'same')).toBe(first);
    const claimed = await queue.claim<{ n: number }>(QUEUE);
    expect(claimed).toEqual({ id: first, data: { n: 1 }, attempt: 1 });
    expect(await queue.enqueue(QUEUE, { n: 3 }, { ...enqueueOptions(), singletonKey: 'same' })).toBeTruthy();
    await queue.complete(QUEUE, first!, {});
    const next = await queue.claim(QUEUE);
    await queue.complete(QUEUE, next!.id, {});
  });

  it('retries a failed job until its attempts are spent, and a job given back keeps its attempt', async () => {
    const id = (await queue.enqueue(QUEUE, {}, enqueueOptions()))!;
    expect((await queue.claim(QUEUE))?.attempt).toBe(1);
    await queue.fail(QUEUE, id, { message: 'browser did not start' });
    await nextMillisecond();
    expect((await queue.claim(QUEUE))?.attempt).toBe(2);
    await queue.giveBack(QUEUE, id, 0);
    await nextMillisecond();
    expect((await queue.claim(QUEUE))?.attempt).toBe(2);
    await queue.fail(QUEUE, id, {});
    await nextMillisecond();
    expect((await queue.claim(QUEUE))?.attempt).toBe(3);
    await queue.fail(QUEUE, id, {});
    await nextMillisecond();
    // Three attempts (retryLimit 2): failed for good, nothing left to claim.
    expect(await queue.claim(QUEUE)).toBeUndefined();
    const [row] = await database.rows<{ state: string }>(
      `select state from ${bossSchemaOf(schemaName ?? 'public')}.job where id = '${id}'`,
    );
    expect(row!.state).toBe('failed');
  });

  it('soak: 1,000 jobs claimed and completed by 4 claimers are all gone after the retention period', { timeout: 120_000 }, async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i += 1) ids.add((await queue.enqueue(QUEUE, { i }, { ...enqueueOptions(), singletonKey: `job-${i}` }))!);
    expect(ids.size).toBe(1000);
    const done: string[] = [];
    const claimer = async () => {
      for (;;) {
        const job = await queue.claim(QUEUE);
        if (!job) return;
        await queue.complete(QUEUE, job.id, { ok: true });
        done.push(job.id);
      }
    };
    await Promise.all([claimer(), claimer(), claimer(), claimer()]);
    // Each exactly once.
    expect(done.length).toBe(1000);
    expect(new Set(done)).toEqual(ids);
    expect((await queue.rows(QUEUE)).jobs).toBeGreaterThanOrEqual(1000);

    // Older than the retention of the job table: archived; older than the archive's too: deleted.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await queue.maintain();
    const archived = await queue.rows(QUEUE);
    expect(archived.jobs).toBe(0);
    expect(archived.archived).toBeGreaterThanOrEqual(1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await queue.maintain();
    expect(await queue.rows(QUEUE)).toEqual({ jobs: 0, archived: 0 });
  });
});
