import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { scenarioJobs } from '../db/schema.js';

export type ScenarioJobRow = typeof scenarioJobs.$inferSelect;
export type NewScenarioJob = Pick<
  typeof scenarioJobs.$inferInsert,
  'projectId' | 'userId' | 'branch' | 'featureName' | 'scenarioName' | 'environment' | 'heal'
>;

/** Which running jobs `markInterrupted` ends: those whose lease lapsed, or every running one. */
export type InterruptedJobs = { leaseLapsedMs: number } | 'every-running';

/** SQL for the "Run scenario" queue (scenario_jobs), shared by every server through row locks and leases. */
export class ScenarioJobsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Ends running jobs with an error and answers them. With a lease, those whose lease lapsed, or
   * that have no lease and started over a lease ago (left by a server from before leases).
   */
  async markInterrupted(which: InterruptedJobs, message: string): Promise<ScenarioJobRow[]> {
    const lapsed = which === 'every-running' ? undefined : sql`now() - make_interval(secs => ${which.leaseLapsedMs / 1000})`;
    return this.db
      .update(scenarioJobs)
      .set({ state: 'error', message, finishedAt: new Date() })
      .where(
        and(
          eq(scenarioJobs.state, 'running'),
          lapsed
            ? or(lt(scenarioJobs.heartbeatAt, lapsed), and(isNull(scenarioJobs.heartbeatAt), lt(scenarioJobs.startedAt, lapsed)))
            : undefined,
        ),
      )
      .returning();
  }

  async projectOf(jobId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: scenarioJobs.projectId }).from(scenarioJobs).where(eq(scenarioJobs.id, jobId));
    return row?.projectId;
  }

  /** Queues a job. */
  async enqueue(job: NewScenarioJob): Promise<ScenarioJobRow> {
    const [row] = await this.db.insert(scenarioJobs).values(job).returning();
    if (!row) throw new Error('insert into scenario_jobs returned nothing');
    return row;
  }

  async findById(jobId: string): Promise<ScenarioJobRow | undefined> {
    const [row] = await this.db.select().from(scenarioJobs).where(eq(scenarioJobs.id, jobId));
    return row;
  }

  /**
   * Takes the oldest queued job for `owner` with its lease started, or none when the queue is
   * empty. A retried job waits for its `retry_at`, and the server whose attempt errored gets it
   * back only `preferOtherMs` later, so another server that claims meanwhile takes it.
   */
  async claimNext(owner: string, preferOtherMs: number): Promise<ScenarioJobRow | undefined> {
    // SKIP LOCKED lets several servers share the queue without taking the same job twice.
    const next = this.db
      .select({ id: scenarioJobs.id })
      .from(scenarioJobs)
      .where(
        and(
          eq(scenarioJobs.state, 'queued'),
          sql`(${scenarioJobs.retryAt} is null or ${scenarioJobs.retryAt} <= now())`,
          sql`(${scenarioJobs.erroredOwner} is distinct from ${owner}
              or ${scenarioJobs.retryAt} + make_interval(secs => ${preferOtherMs / 1000}) <= now())`,
        ),
      )
      .orderBy(asc(scenarioJobs.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [job] = await this.db
      .update(scenarioJobs)
      .set({ state: 'running', startedAt: new Date(), owner, heartbeatAt: sql`now()`, attempts: sql`${scenarioJobs.attempts} + 1` })
      .where(and(inArray(scenarioJobs.id, next), eq(scenarioJobs.state, 'queued')))
      .returning();
    return job;
  }

  /** Renews the lease of a job `owner` still runs; a job ended or taken over meanwhile is left alone. */
  async renewLease(jobId: string, owner: string): Promise<void> {
    await this.db
      .update(scenarioJobs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(scenarioJobs.id, jobId), eq(scenarioJobs.state, 'running'), eq(scenarioJobs.owner, owner)));
  }

  /**
   * Puts a job `owner` still runs back in the queue for another attempt after an infrastructure
   * error, claimable after `delayMs` (database time); answers it, or undefined when it was ended meanwhile.
   */
  async requeueForRetry(jobId: string, owner: string, message: string, delayMs: number): Promise<ScenarioJobRow | undefined> {
    const [queued] = await this.db
      .update(scenarioJobs)
      .set({
        state: 'queued',
        message,
        owner: null,
        heartbeatAt: null,
        erroredOwner: owner,
        retryAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      })
      .where(and(eq(scenarioJobs.id, jobId), eq(scenarioJobs.state, 'running'), eq(scenarioJobs.owner, owner)))
      .returning();
    return queued;
  }

  /** Deletes jobs that ended before `cutoff`; answers how many. */
  async deleteEndedBefore(cutoff: Date): Promise<number> {
    const deleted = await this.db
      .delete(scenarioJobs)
      .where(and(inArray(scenarioJobs.state, ['passed', 'failed', 'error']), lt(scenarioJobs.finishedAt, cutoff)))
      .returning({ id: scenarioJobs.id });
    return deleted.length;
  }

  /** Finishes a job `owner` still runs and answers it; undefined when it was ended meanwhile (lease lost). */
  async finish(
    jobId: string,
    owner: string,
    outcome: { state: 'passed' | 'failed' | 'error'; runId: string | null; message: string | null },
  ): Promise<ScenarioJobRow | undefined> {
    const [finished] = await this.db
      .update(scenarioJobs)
      .set({ ...outcome, finishedAt: new Date() })
      .where(and(eq(scenarioJobs.id, jobId), eq(scenarioJobs.state, 'running'), eq(scenarioJobs.owner, owner)))
      .returning();
    return finished;
  }
}
