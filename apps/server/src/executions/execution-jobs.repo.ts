import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { executionJobs, executionRuns } from '../db/schema.js';

export type ExecutionRunRow = typeof executionRuns.$inferSelect;
export type ExecutionJobRow = typeof executionJobs.$inferSelect;
export type NewExecutionRun = Omit<typeof executionRuns.$inferInsert, 'id' | 'state' | 'createdAt' | 'finishedAt'>;
/** A job as the engine plans it; the rest (state, attempts, worker, times) starts at its defaults. */
export type NewExecutionJob = Pick<
  typeof executionJobs.$inferInsert,
  'projectId' | 'flowIndex' | 'groupIndex' | 'threadCount' | 'position' | 'featurePath' | 'scenarioName' | 'browser' | 'viewport'
>;
export interface JobCounters {
  total: number;
  passed: number;
  failed: number;
  /** Ended in an infrastructure error after their last attempt: neither passed nor failed scenarios. */
  errored: number;
}

/**
 * The job counts an ending run keeps (in the same UPDATE), so its jobs can become history. The
 * tables are named in plain SQL: an unqualified column inside the subquery would mean the job's own.
 */
const jobsOfThisRun = (state?: 'passed' | 'failed' | 'error') =>
  sql<number>`(select count(*)::int from execution_jobs j where j.execution_run_id = execution_runs.id${state ? sql` and j.state = ${state}` : sql``})`;
const FINAL_COUNTS = {
  totalJobs: jobsOfThisRun(),
  passedJobs: jobsOfThisRun('passed'),
  failedJobs: jobsOfThisRun('failed'),
  erroredJobs: jobsOfThisRun('error'),
};

/** Claims of all servers go one at a time: per-group thread limits are counted, then taken. */
const CLAIM_LOCK = sql`select pg_advisory_xact_lock(hashtext('rehearse.execution-claim'))`;

/**
 * SQL for the executions engine's queue: execution_runs (one start of an execution) and
 * execution_jobs (one scenario of it, claimed by a worker thread under a lease).
 */
export class ExecutionJobsRepo {
  constructor(private readonly db: Db) {}

  /** Stores a started run and queues its jobs (one transaction when the repository is bound to one). */
  async queueRun(run: NewExecutionRun, jobs: NewExecutionJob[]): Promise<string> {
    const [executionRun] = await this.db.insert(executionRuns).values(run).returning({ id: executionRuns.id });
    if (!executionRun) throw new Error('insert into execution_runs returned nothing');
    await this.db.insert(executionJobs).values(jobs.map((job) => ({ ...job, executionRunId: executionRun.id })));
    return executionRun.id;
  }

  async latestRunOf(executionId: string): Promise<ExecutionRunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(executionRuns)
      .where(eq(executionRuns.executionId, executionId))
      .orderBy(desc(executionRuns.createdAt))
      .limit(1);
    return row;
  }

  /** The latest run of each of a project's executions, by execution id. */
  async latestRunsOfProject(projectId: string): Promise<Map<string, ExecutionRunRow>> {
    const rows = await this.db
      .selectDistinctOn([executionRuns.executionId])
      .from(executionRuns)
      .where(eq(executionRuns.projectId, projectId))
      .orderBy(executionRuns.executionId, desc(executionRuns.createdAt));
    return new Map(rows.map((row) => [row.executionId, row]));
  }

  /** The execution run whose report is `runId`, if an execution made that run. */
  async runOfReport(runId: string): Promise<ExecutionRunRow | undefined> {
    const [row] = await this.db.select().from(executionRuns).where(eq(executionRuns.runId, runId)).limit(1);
    return row;
  }

  async findRun(executionRunId: string): Promise<ExecutionRunRow | undefined> {
    const [row] = await this.db.select().from(executionRuns).where(eq(executionRuns.id, executionRunId));
    return row;
  }

  /** How many of the run's jobs there are, and how many passed and failed: kept once it ended, counted while it runs. */
  async countersOf(run: Pick<ExecutionRunRow, 'id' | 'totalJobs' | 'passedJobs' | 'failedJobs' | 'erroredJobs'>): Promise<JobCounters> {
    // Runs that ended before jobs could end in error (migration 0016) have no errored count: none.
    if (run.totalJobs !== null)
      return { total: run.totalJobs, passed: run.passedJobs ?? 0, failed: run.failedJobs ?? 0, errored: run.erroredJobs ?? 0 };
    const executionRunId = run.id;
    const [counts] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        passed: sql<number>`count(*) filter (where ${executionJobs.state} = 'passed')::int`,
        failed: sql<number>`count(*) filter (where ${executionJobs.state} = 'failed')::int`,
        errored: sql<number>`count(*) filter (where ${executionJobs.state} = 'error')::int`,
      })
      .from(executionJobs)
      .where(eq(executionJobs.executionRunId, executionRunId));
    return { total: counts?.total ?? 0, passed: counts?.passed ?? 0, failed: counts?.failed ?? 0, errored: counts?.errored ?? 0 };
  }

  /** The jobs of an execution run that ended in error, with their reasons, in plan order. */
  async erroredJobsOf(executionRunId: string): Promise<{ featurePath: string; scenarioName: string; reason: string }[]> {
    const rows = await this.db
      .select({ featurePath: executionJobs.featurePath, scenarioName: executionJobs.scenarioName, message: executionJobs.message })
      .from(executionJobs)
      .where(and(eq(executionJobs.executionRunId, executionRunId), eq(executionJobs.state, 'error')))
      .orderBy(asc(executionJobs.flowIndex), asc(executionJobs.groupIndex), asc(executionJobs.position));
    return rows.map((row) => ({ featurePath: row.featurePath, scenarioName: row.scenarioName, reason: row.message ?? '' }));
  }

  /**
   * Gives `workerId` the next claimable job, or none: the oldest run's queued job whose flow has no
   * unfinished earlier group and whose group runs fewer jobs than its threadCount. Counting and
   * taking happen under one global advisory lock, so servers never overfill a group. A retried job
   * waits for its `retry_at`, and the worker whose attempt errored gets it back only after
   * `preferOtherWorkerMs` more, so another thread that claims meanwhile takes it.
   */
  async claimNextJob(workerId: string, preferOtherWorkerMs: number): Promise<ExecutionJobRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(CLAIM_LOCK);
      // Spelled out: inside the subqueries drizzle would print the outer columns unqualified.
      const [next] = await tx
        .select({ id: executionJobs.id })
        .from(executionJobs)
        .innerJoin(executionRuns, eq(executionRuns.id, executionJobs.executionRunId))
        .where(
          and(
            eq(executionJobs.state, 'queued'),
            eq(executionRuns.state, 'running'),
            sql`(${executionJobs.retryAt} is null or ${executionJobs.retryAt} <= now())`,
            sql`(${executionJobs.erroredWorkerId} is distinct from ${workerId}
                or ${executionJobs.retryAt} + make_interval(secs => ${preferOtherWorkerMs / 1000}) <= now())`,
            sql`not exists (select 1 from execution_jobs e where e.execution_run_id = "execution_jobs"."execution_run_id"
                and e.flow_index = "execution_jobs"."flow_index" and e.group_index < "execution_jobs"."group_index"
                and e.state in ('queued', 'running'))`,
            sql`(select count(*) from execution_jobs r where r.execution_run_id = "execution_jobs"."execution_run_id"
                and r.flow_index = "execution_jobs"."flow_index" and r.group_index = "execution_jobs"."group_index"
                and r.state = 'running') < "execution_jobs"."thread_count"`,
          ),
        )
        .orderBy(asc(executionRuns.createdAt), asc(executionJobs.groupIndex), asc(executionJobs.position))
        .limit(1);
      if (!next) return undefined;
      const [job] = await tx
        .update(executionJobs)
        .set({ state: 'running', workerId, attempts: sql`${executionJobs.attempts} + 1`, heartbeatAt: sql`now()`, startedAt: new Date() })
        .where(eq(executionJobs.id, next.id))
        .returning();
      return job;
    });
  }

  /** Records the job key made for a claimed job, so whoever ends the job can delete it. */
  async setAccessKey(jobId: string, accessKeyId: string): Promise<void> {
    await this.db.update(executionJobs).set({ accessKeyId }).where(eq(executionJobs.id, jobId));
  }

  /** Renews the leases of the jobs `workerId` still runs; answers their ids (the others were halted or taken over). */
  async renewLeases(workerId: string, jobIds: string[]): Promise<Set<string>> {
    const alive = await this.db
      .update(executionJobs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(inArray(executionJobs.id, jobIds), eq(executionJobs.workerId, workerId), eq(executionJobs.state, 'running')))
      .returning({ id: executionJobs.id });
    return new Set(alive.map((row) => row.id));
  }

  /** Ends a job `workerId` still runs and answers it; undefined when it is not (any longer) that worker's running job. */
  async finishJob(
    jobId: string,
    workerId: string,
    state: 'passed' | 'failed',
    message: string | null,
  ): Promise<ExecutionJobRow | undefined> {
    const [job] = await this.db
      .update(executionJobs)
      .set({ state, message, finishedAt: new Date() })
      .where(and(eq(executionJobs.id, jobId), eq(executionJobs.workerId, workerId), eq(executionJobs.state, 'running')))
      .returning();
    return job;
  }

  /** The job if `workerId` still runs it; undefined once it ended or another worker took it over. */
  async runningJobOf(jobId: string, workerId: string): Promise<ExecutionJobRow | undefined> {
    const [job] = await this.db
      .select()
      .from(executionJobs)
      .where(and(eq(executionJobs.id, jobId), eq(executionJobs.workerId, workerId), eq(executionJobs.state, 'running')));
    return job;
  }

  /**
   * Puts a job whose attempt ended in an infrastructure error (or whose worker was lost) back in
   * the queue for another attempt, claimable after `delayMs` (database time, as the claim reads it),
   * remembering the worker to avoid; false when it changed since it was read.
   */
  async requeueForRetry(job: Pick<ExecutionJobRow, 'id' | 'workerId'>, message: string, delayMs: number): Promise<boolean> {
    const rows = await this.db
      .update(executionJobs)
      .set({
        state: 'queued',
        message,
        workerId: null,
        accessKeyId: null,
        heartbeatAt: null,
        erroredWorkerId: job.workerId,
        retryAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      })
      .where(stillRunningBy(job))
      .returning({ id: executionJobs.id });
    return rows.length > 0;
  }

  /** Ends a job in `error` after its last attempt and answers it; undefined when it changed since it was read. */
  async endErrored(job: Pick<ExecutionJobRow, 'id' | 'workerId'>, message: string): Promise<ExecutionJobRow | undefined> {
    const [ended] = await this.db
      .update(executionJobs)
      .set({ state: 'error', message, erroredWorkerId: job.workerId, finishedAt: new Date() })
      .where(stillRunningBy(job))
      .returning();
    return ended;
  }

  /** Running jobs whose worker has not heartbeaten for `leaseMs`. */
  async lapsedJobs(leaseMs: number): Promise<ExecutionJobRow[]> {
    return this.db
      .select()
      .from(executionJobs)
      .where(and(eq(executionJobs.state, 'running'), sql`${executionJobs.heartbeatAt} < now() - make_interval(secs => ${leaseMs / 1000})`));
  }

  /** Skips the queued jobs of the job's flow in later groups (a failure ends its flow). */
  async skipLaterGroups(job: Pick<ExecutionJobRow, 'executionRunId' | 'flowIndex' | 'groupIndex'>, message: string): Promise<void> {
    await this.db
      .update(executionJobs)
      .set({ state: 'skipped', message, finishedAt: new Date() })
      .where(
        and(
          eq(executionJobs.executionRunId, job.executionRunId),
          eq(executionJobs.flowIndex, job.flowIndex),
          sql`${executionJobs.groupIndex} > ${job.groupIndex}`,
          eq(executionJobs.state, 'queued'),
        ),
      );
  }

  /** How many of the run's jobs are queued or running. */
  async openJobCount(executionRunId: string): Promise<number> {
    const [open] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(executionJobs)
      .where(and(eq(executionJobs.executionRunId, executionRunId), inArray(executionJobs.state, ['queued', 'running'])));
    return open?.count ?? 0;
  }

  /** Whether any of the run's jobs failed, errored, was skipped or was cancelled: then the run cannot pass. */
  async anyJobFailed(executionRunId: string): Promise<boolean> {
    const [bad] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(executionJobs)
      .where(
        and(eq(executionJobs.executionRunId, executionRunId), inArray(executionJobs.state, ['failed', 'error', 'skipped', 'cancelled'])),
      );
    return (bad?.count ?? 0) > 0;
  }

  /** Ends a running execution run as passed or failed and answers it; undefined when it had already ended (halted). */
  async finishRun(executionRunId: string, failed: boolean): Promise<ExecutionRunRow | undefined> {
    const [done] = await this.db
      .update(executionRuns)
      .set({ state: failed ? 'failed' : 'passed', finishedAt: new Date(), ...FINAL_COUNTS })
      .where(and(eq(executionRuns.id, executionRunId), eq(executionRuns.state, 'running')))
      .returning();
    return done;
  }

  /** Marks a running execution run halted and answers its report's id; undefined when it had already ended. */
  async haltRun(executionRunId: string): Promise<string | undefined> {
    const [halted] = await this.db
      .update(executionRuns)
      .set({ state: 'halted', finishedAt: new Date(), ...FINAL_COUNTS })
      .where(and(eq(executionRuns.id, executionRunId), eq(executionRuns.state, 'running')))
      .returning({ runId: executionRuns.runId });
    return halted?.runId;
  }

  /** Deletes the jobs of runs that ended before `cutoff` (their counts stay on the run); answers how many. */
  async deleteJobsOfRunsEndedBefore(cutoff: Date): Promise<number> {
    const ended = this.db
      .select({ id: executionRuns.id })
      .from(executionRuns)
      .where(and(ne(executionRuns.state, 'running'), lt(executionRuns.finishedAt, cutoff), isNotNull(executionRuns.totalJobs)));
    const deleted = await this.db
      .delete(executionJobs)
      .where(inArray(executionJobs.executionRunId, ended))
      .returning({ id: executionJobs.id });
    return deleted.length;
  }

  /** Cancels the run's queued and running jobs; answers the job keys they held. */
  async cancelOpenJobs(executionRunId: string, message: string): Promise<string[]> {
    const cancelled = await this.db
      .update(executionJobs)
      .set({ state: 'cancelled', message, finishedAt: new Date() })
      .where(and(eq(executionJobs.executionRunId, executionRunId), inArray(executionJobs.state, ['queued', 'running'])))
      .returning({ accessKeyId: executionJobs.accessKeyId });
    return cancelled.flatMap((job) => (job.accessKeyId ? [job.accessKeyId] : []));
  }
}

/** The job is still running under the worker it was read with. */
function stillRunningBy(job: Pick<ExecutionJobRow, 'id' | 'workerId'>) {
  return and(
    eq(executionJobs.id, job.id),
    eq(executionJobs.state, 'running'),
    sql`${executionJobs.workerId} is not distinct from ${job.workerId}`,
  );
}
