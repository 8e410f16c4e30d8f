import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { retryHoldMs } from '../db/retry-hold.js';
import type { ClaimOutcome } from '../jobs/recorded-job-queue.js';
import { scenarioJobs } from '../db/schema.js';

export type ScenarioJobRow = typeof scenarioJobs.$inferSelect;
export type NewScenarioJob = Pick<
  typeof scenarioJobs.$inferInsert,
  'projectId' | 'userId' | 'branch' | 'featureName' | 'scenarioName' | 'environment' | 'heal'
>;

/** Which running jobs `markInterrupted` ends: those whose lease lapsed, or every running one. */
export type InterruptedJobs = { leaseLapsedMs: number } | 'every-running';

/** What recording a claim found: the job now running, a retry to leave to another server for `holdMs`, or a job that ended or is gone. */

/**
 * SQL for the "Run scenario" jobs' records (scenario_jobs): what the product shows of a job (its
 * DTO), its owner and lease. Claims, retries and expiry are pg-boss's (`ScenarioQueue`); a row's
 * id is its pg-boss job's id.
 */
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

  /** Records a job about to be queued (under its pg-boss id). */
  async insert(job: NewScenarioJob & { id: string }): Promise<ScenarioJobRow> {
    const [row] = await this.db.insert(scenarioJobs).values(job).returning();
    if (!row) throw new Error('insert into scenario_jobs returned nothing');
    return row;
  }

  async findById(jobId: string): Promise<ScenarioJobRow | undefined> {
    const [row] = await this.db.select().from(scenarioJobs).where(eq(scenarioJobs.id, jobId));
    return row;
  }

  /** Records a claimed job as `owner`'s running attempt `attempt` (pg-boss's count), or answers what stands in the way. */
  async markClaimed(jobId: string, owner: string, attempt: number, preferOtherMs: number): Promise<ClaimOutcome<ScenarioJobRow>> {
    const [row] = await this.db
      .select({
        state: scenarioJobs.state,
        // The server whose attempt errored leaves the retry to another one for `preferOtherMs` after its backoff (database time).
        holdMs: retryHoldMs(scenarioJobs.erroredOwner, scenarioJobs.retryAt, owner, preferOtherMs),
      })
      .from(scenarioJobs)
      .where(eq(scenarioJobs.id, jobId));
    // A job still running here that pg-boss hands out again was expired there: its owner's lease
    // decides (the sweep ends it should the owner be dead), never a second claim.
    if (row?.state !== 'queued') return { gone: true };
    if (row.holdMs > 0) return { holdMs: row.holdMs };
    const [job] = await this.db
      .update(scenarioJobs)
      .set({ state: 'running', startedAt: new Date(), owner, heartbeatAt: sql`now()`, attempts: attempt })
      .where(and(eq(scenarioJobs.id, jobId), eq(scenarioJobs.state, 'queued')))
      .returning();
    return job ? { job } : { gone: true };
  }

  /** Deletes a job that was never queued (pg-boss refused it as a duplicate). */
  async delete(jobId: string): Promise<void> {
    await this.db.delete(scenarioJobs).where(eq(scenarioJobs.id, jobId));
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
