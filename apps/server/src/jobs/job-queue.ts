import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

/** Where pg-boss keeps its tables: its own schema beside ours, so its names never meet our tables'. */
export function bossSchemaOf(schemaName: string): string {
  return schemaName === 'public' ? 'pgboss' : `${schemaName}_pgboss`;
}

export interface JobQueueSettings {
  /** A finished job (completed, failed, cancelled) leaves pg-boss's job table this long after it ended. */
  archiveAfterSeconds: number;
  /** ... and its archived copy is deleted this long after that: the queue's retention is both together. */
  deleteAfterSeconds: number;
  /** How often some server runs pg-boss's maintenance (expiry, archive, deletion); one at a time across servers. */
  maintenanceIntervalSeconds: number;
}

export interface QueueDefinition {
  /**
   * `short`: one queued (`created`) job per singleton key, so the same request twice while queued is
   * one job; `standard`: no such rule.
   */
  policy: 'short' | 'standard';
}

export interface EnqueueOptions {
  /** The job's id (a uuid), so a caller's own record of the job can share it. */
  id: string;
  /** With a `short` queue: while a job with this key is queued, another is refused (null). */
  singletonKey?: string;
  /** Further attempts after infrastructure errors (`fail`), each after `retryDelaySeconds` doubled per attempt. */
  retryLimit: number;
  /** Whole seconds; 0 retries at once. */
  retryDelaySeconds: number;
  /** An active job that is neither completed nor failed this long after it was claimed is failed (and retried). */
  expireInSeconds: number;
}

/** A claimed job: its id, data and which attempt this is (1 for the first). */
export interface ClaimedJob<T> {
  id: string;
  data: T;
  attempt: number;
}

/** Row counts of pg-boss's tables for one queue (retention checks, benchmarks). */
export interface QueueRows {
  /** Rows in the job table, every state. */
  jobs: number;
  /** Rows in the archive, where finished jobs wait out `deleteAfterSeconds`. */
  archived: number;
}

/** Longest expiry pg-boss takes (its limit is 24 hours). */
const MAX_EXPIRE_SECONDS = 23 * 3600;

/**
 * The one door to pg-boss (the job queue): claim, expiry, retry with backoff, singleton keys and
 * retention are its, in its own schema of our database. On PostgreSQL it uses our pool and on
 * PGlite our one connection, both through its `db.executeSql` hook, so this server builds no
 * second connection; pg-boss creates and migrates its schema itself on start, under its advisory
 * lock, the same on both databases.
 */
export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly database: Database,
    private readonly schema: string,
  ) {}

  /** Starts pg-boss on `database` (creating or migrating its schema) with its maintenance running. */
  static async start(database: Database, settings: JobQueueSettings): Promise<JobQueue> {
    const schema = bossSchemaOf(database.schemaName);
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
      schema,
      migrate: true,
      supervise: true,
      // Schedules stay with our scheduler for now (issue 21 moves them later).
      schedule: false,
      archiveCompletedAfterSeconds: settings.archiveAfterSeconds,
      deleteAfterSeconds: settings.deleteAfterSeconds,
      maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
    });
    const queue = new JobQueue(boss, database, schema);
    // pg-boss reports maintenance errors as events; without a listener an EventEmitter would throw them.
    boss.on('error', () => undefined);
    await boss.start();
    return queue;
  }

  /** Creates the queue unless it exists (every server does this at start). */
  async define(name: string, definition: QueueDefinition): Promise<void> {
    await this.boss.createQueue(name, { name, policy: definition.policy });
  }

  /** Queues a job; answers its id, or null when a queued job with the same singleton key exists. */
  async enqueue(name: string, data: object, options: EnqueueOptions): Promise<string | null> {
    return this.boss.send(name, data, {
      id: options.id,
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: options.retryDelaySeconds > 0,
      expireInSeconds: Math.max(1, Math.min(MAX_EXPIRE_SECONDS, Math.ceil(options.expireInSeconds))),
    });
  }

  /**
   * Queues a job under an id its caller derives from what it stands for (a schedule's slot), once:
   * null when a job with that id is in the queue or its archive, whoever sent it. pg-boss's insert
   * skips an id already in its job table; the archive is looked at first, so a job that ended and
   * was archived is not sent again either.
   */
  async enqueueOnce(name: string, data: object, options: Omit<EnqueueOptions, 'singletonKey'>): Promise<string | null> {
    const { rows } = await this.database.executeSql(`SELECT 1 FROM ${this.schema}.archive WHERE name = $1 AND id = $2`, [name, options.id]);
    if (rows.length > 0) return null;
    return this.enqueue(name, data, options);
  }

  /** The id of the queued (not yet claimed, not waiting for a retry) job with this singleton key. */
  async queuedWithKey(name: string, singletonKey: string): Promise<string | undefined> {
    const { rows } = await this.database.executeSql(
      `SELECT id FROM ${this.schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'created' LIMIT 1`,
      [name, singletonKey],
    );
    return (rows[0] as { id: string } | undefined)?.id;
  }

  /** Claims the oldest job whose start time has come (SKIP LOCKED: servers never claim the same job). */
  async claim<T>(name: string): Promise<ClaimedJob<T> | undefined> {
    const [job] = await this.boss.fetch<T>(name, { batchSize: 1, includeMetadata: true });
    return job ? { id: job.id, data: job.data, attempt: job.retryCount + 1 } : undefined;
  }

  /** Ends a claimed job for good; `output` is kept with it until retention removes it. */
  async complete(name: string, id: string, output: object): Promise<void> {
    await this.boss.complete(name, id, output);
  }

  /** Fails a claimed job: retried after its backoff while attempts are left, else failed for good. */
  async fail(name: string, id: string, output: object): Promise<void> {
    await this.boss.fail(name, id, output);
  }

  /** Ends a job without retry, queued or claimed (a job its server left behind). */
  async cancel(name: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.boss.cancel(name, ids);
  }

  /**
   * Puts a claimed job back unclaimed, claimable again `afterMs` from now, without spending an
   * attempt (a server passing on a retry it should leave to another). pg-boss has no call for it.
   */
  async giveBack(name: string, id: string, afterMs: number): Promise<void> {
    await this.database.executeSql(
      `UPDATE ${this.schema}.job SET state = 'retry', retry_count = GREATEST(retry_count - 1, 0),
         start_after = now() + make_interval(secs => $3)
       WHERE name = $1 AND id = $2 AND state = 'active'`,
      [name, id, afterMs / 1000],
    );
  }

  /**
   * Makes sure each of these jobs waits in the queue or is claimed there: one that is missing (its
   * sender stopped between the caller's commit and the send) or that ended there while the
   * caller's record says it still waits is queued again under its id. Answers how many it queued.
   */
  async ensureQueued(
    name: string,
    jobs: { id: string; data: object }[],
    options: Omit<EnqueueOptions, 'id' | 'singletonKey'>,
  ): Promise<number> {
    if (jobs.length === 0) return 0;
    const ids = jobs.map((job) => job.id);
    await this.database.executeSql(`DELETE FROM ${this.schema}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state >= 'completed'`, [
      name,
      ids,
    ]);
    const { rows } = await this.database.executeSql(`SELECT id FROM ${this.schema}.job WHERE name = $1 AND id = ANY($2::uuid[])`, [
      name,
      ids,
    ]);
    const present = new Set((rows as { id: string }[]).map((row) => row.id));
    let queued = 0;
    for (const job of jobs) {
      if (present.has(job.id)) continue;
      if (await this.enqueue(name, job.data, { ...options, id: job.id })) queued += 1;
    }
    return queued;
  }

  /** Runs pg-boss's maintenance now: expires overdue active jobs, archives finished ones, deletes old archives. */
  async maintain(): Promise<void> {
    await this.boss.maintain();
  }

  /**
   * Deletes, from every queue, the finished jobs (completed, failed, cancelled) that ended more than
   * `keepMs` ago, in pg-boss's job table and in its archive, and archived jobs that never ended
   * (left unclaimed past their keep time) archived that long ago; answers how many went. Job history
   * kept for the period an administrator saved: pg-boss's own retention, fixed when it starts, is
   * only the longest a finished job stays.
   */
  async forgetFinishedOlderThan(keepMs: number): Promise<number> {
    const seconds = keepMs / 1000;
    const { rows: fromJobs } = await this.database.executeSql(
      `WITH gone AS (
         DELETE FROM ${this.schema}.job
         WHERE state IN ('completed', 'failed', 'cancelled') AND completed_on < now() - make_interval(secs => $1)
         RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [seconds],
    );
    const { rows: fromArchive } = await this.database.executeSql(
      `WITH gone AS (
         DELETE FROM ${this.schema}.archive
         WHERE COALESCE(completed_on, archived_on) < now() - make_interval(secs => $1)
         RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [seconds],
    );
    return (fromJobs[0] as { n: number }).n + (fromArchive[0] as { n: number }).n;
  }

  /** How many rows the queue holds in pg-boss's job table and archive. */
  async rows(name: string): Promise<QueueRows> {
    const { rows } = await this.database.executeSql(
      `SELECT (SELECT count(*) FROM ${this.schema}.job WHERE name = $1)::int AS jobs,
              (SELECT count(*) FROM ${this.schema}.archive WHERE name = $1)::int AS archived`,
      [name],
    );
    return rows[0] as QueueRows;
  }

  /** Stops maintenance; claimed jobs are left to their owners (and to expiry should those die). */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }
}
