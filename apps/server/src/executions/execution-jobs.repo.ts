import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { retryHoldMs } from '../db/retry-hold.js';
import type { ClaimOutcome } from '../jobs/recorded-job-queue.js';
import { executionJobs, executionRuns } from '../db/schema.js';

/** Rows per insert of a run's jobs (each row binds up to 20 parameters; PostgreSQL allows 65,535). */
const JOB_INSERT_SLICE = 1000;

export type ExecutionRunRow = typeof executionRuns.$inferSelect;
export type ExecutionJobRow = typeof executionJobs.$inferSelect;
export type NewExecutionRun = Omit<typeof executionRuns.$inferInsert, 'id' | 'state' | 'createdAt' | 'finishedAt'>;
/** A job as the engine plans it; the rest (state, attempts, worker, times) starts at its defaults. */
export type NewExecutionJob = Pick<
  typeof executionJobs.$inferInsert,
  'projectId' | 'flowIndex' | 'groupIndex' | 'threadCount' | 'position' | 'featurePath' | 'scenarioName' | 'browser' | 'viewport'
>;
/** A job released to the job queue: its id is the queue's job id. */
export interface ReleasedJob {
  id: string;
  projectId: string;
}
/**
 * What a claim found in our row: the job now running for the claimer, a retry to leave to another
 * worker for `holdMs`, a job still running under its worker, or one that ended or is gone.
 */
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

/**
 * SQL for the executions engine's records: execution_runs (one start of an execution) and
 * execution_jobs (one scenario of it: its place in the plan, state, worker, lease and outcome).
 * Claims, retries and expiry are the job queue's (`ExecutionQueue`); a released job's row id is
 * its queue job's id.
 */
export class ExecutionJobsRepo {
  constructor(private readonly db: Db) {}

  /** Stores a started run and queues its jobs (one transaction when the repository is bound to one). */
  async queueRun(run: NewExecutionRun, jobs: NewExecutionJob[]): Promise<string> {
    const [executionRun] = await this.db.insert(executionRuns).values(run).returning({ id: executionRuns.id });
    if (!executionRun) throw new Error('insert into execution_runs returned nothing');
    // In slices: PostgreSQL takes at most 65,535 parameters a statement, which one insert of a
    // 10,000-scenario run (ten or more columns a row) would pass.
    for (let start = 0; start < jobs.length; start += JOB_INSERT_SLICE)
      await this.db
        .insert(executionJobs)
        .values(jobs.slice(start, start + JOB_INSERT_SLICE).map((job) => ({ ...job, executionRunId: executionRun.id })));
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
   * Releases the run's next jobs to the job queue and answers them: in each flow, the lowest group
   * with unfinished jobs is its current one, and its unreleased jobs are released in plan order
   * until the group's released, unfinished jobs fill its threadCount. Counting and marking happen
   * under the run's own advisory lock, so two servers ending two of its jobs at once never release
   * more than the limit; releasing again releases nothing new.
   */
  async releaseNext(executionRunId: string): Promise<ReleasedJob[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rehearse.execution-release:${executionRunId}`}))`);
      // Both steps materialized: the planner cannot have statistics for a run that just started
      // (its rows are new), and with the estimate of one row it inlined current_group into a
      // nested loop that re-aggregated the run's jobs for each of them: quadratic, 10 s a call at
      // 10,000 jobs, under the lock every finish waits on (bench/worker-agents-at-scale.ts).
      const result: unknown = await tx.execute(sql`
        with current_group as materialized (
          select flow_index, min(group_index) as group_index from execution_jobs
          where execution_run_id = ${executionRunId} and state in ('queued', 'running')
          group by flow_index
        ), ranked as materialized (
          select j.id, j.released_at, j.thread_count,
                 row_number() over (partition by j.flow_index order by (j.released_at is null), j.position) as slot
          from execution_jobs j
          join current_group g on g.flow_index = j.flow_index and g.group_index = j.group_index
          where j.execution_run_id = ${executionRunId} and j.state in ('queued', 'running')
        )
        update execution_jobs set released_at = now()
        from ranked
        where execution_jobs.id = ranked.id and ranked.released_at is null and ranked.slot <= ranked.thread_count
          and execution_jobs.released_at is null
        returning execution_jobs.id, execution_jobs.project_id as "projectId", execution_jobs.position`);
      return (result as { rows: (ReleasedJob & { position: number })[] }).rows
        .sort((a, b) => a.position - b.position)
        .map(({ id, projectId }) => ({ id, projectId }));
    });
  }

  /** Runs still running: the ones whose jobs the queue's maintenance looks after. */
  async runningRunIds(): Promise<string[]> {
    const rows = await this.db.select({ id: executionRuns.id }).from(executionRuns).where(eq(executionRuns.state, 'running'));
    return rows.map((row) => row.id);
  }

  /** Released jobs of running runs that wait to be claimed (each should have its job in the queue). */
  async releasedQueued(): Promise<ReleasedJob[]> {
    return this.db
      .select({ id: executionJobs.id, projectId: executionJobs.projectId })
      .from(executionJobs)
      .innerJoin(executionRuns, eq(executionRuns.id, executionJobs.executionRunId))
      .where(and(eq(executionRuns.state, 'running'), eq(executionJobs.state, 'queued'), isNotNull(executionJobs.releasedAt)));
  }

  /**
   * Records a job the queue handed to `workerId` as that worker's running attempt, or answers what
   * stands in the way: a retry whose last attempt errored on this worker waits `preferOtherWorkerMs`
   * after its backoff (database time) for another worker; a job still running under its worker
   * (the queue expired it, the lease decides) or ended meanwhile is not this claim's.
   */
  async markClaimed(jobId: string, workerId: string, preferOtherWorkerMs: number): Promise<ClaimOutcome<ExecutionJobRow>> {
    const [row] = await this.db
      .select({
        state: executionJobs.state,
        holdMs: retryHoldMs(executionJobs.erroredWorkerId, executionJobs.retryAt, workerId, preferOtherWorkerMs),
      })
      .from(executionJobs)
      .where(eq(executionJobs.id, jobId));
    if (row?.state === 'running') return { running: true };
    if (row?.state !== 'queued') return { gone: true };
    if (row.holdMs > 0) return { holdMs: row.holdMs };
    const [job] = await this.db
      .update(executionJobs)
      .set({ state: 'running', workerId, attempts: sql`${executionJobs.attempts} + 1`, heartbeatAt: sql`now()`, startedAt: new Date() })
      .where(and(eq(executionJobs.id, jobId), eq(executionJobs.state, 'queued')))
      .returning();
    return job ? { job } : { gone: true };
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

  /** Cancels the run's queued and running jobs; answers the released ones (in the queue) and the job keys they held. */
  async cancelOpenJobs(executionRunId: string, message: string): Promise<{ releasedJobIds: string[]; keyIds: string[] }> {
    const cancelled = await this.db
      .update(executionJobs)
      .set({ state: 'cancelled', message, finishedAt: new Date() })
      .where(and(eq(executionJobs.executionRunId, executionRunId), inArray(executionJobs.state, ['queued', 'running'])))
      .returning({ id: executionJobs.id, releasedAt: executionJobs.releasedAt, accessKeyId: executionJobs.accessKeyId });
    return {
      releasedJobIds: cancelled.flatMap((job) => (job.releasedAt ? [job.id] : [])),
      keyIds: cancelled.flatMap((job) => (job.accessKeyId ? [job.accessKeyId] : [])),
    };
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
