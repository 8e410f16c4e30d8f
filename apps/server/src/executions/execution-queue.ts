import { Limits } from '@rehearse/contract';
import type { JobQueue } from '../jobs/job-queue.js';
import { RecordedJobQueue } from '../jobs/recorded-job-queue.js';
import type { RetryPolicy } from '../jobs/retry-policy.js';
import type { ExecutionJobRow, ExecutionJobsRepo, ReleasedJob } from './execution-jobs.repo.js';

/** pg-boss's queue of execution jobs (one scenario of an execution run each). */
export const EXECUTION_QUEUE = 'execution-scenario';

export interface ExecutionQueueSettings {
  /** Attempts and backoff after infrastructure errors, told to pg-boss at each release. */
  readonly retries: RetryPolicy;
  /** A running job whose worker has not heartbeaten for this long is lost; a claim finding one running leaves it this long. */
  readonly leaseMs: number;
}

/**
 * pg-boss fails (and retries) a claimed job still active this long after its claim. A worker ends
 * its own job well before (pull allowance plus scenario deadline) and the lease notices a dead one
 * sooner, so this is only the backstop should every server have stopped looking.
 */
const EXPIRE_MS = 2 * (Limits.executionPullAllowanceMs + Limits.executionScenarioTimeoutMs);

/**
 * The executions' job queue (issue 21): pg-boss (through the job queue door) hands out, retries
 * after a backoff and expires execution jobs, and forgets them after the job history's period;
 * `execution_jobs` keeps the plan (flows, groups, thread counts, order) and what the product shows
 * of each job (state, worker, lease, outcome), under the pg-boss job's id.
 *
 * The engine decides what may run: a job enters pg-boss only when it is released, once its flow's
 * earlier groups ended and while its group runs fewer jobs than its threadCount, so any worker may
 * take whatever pg-boss hands out. Both records change through `RecordedJobQueue` (our row first,
 * then pg-boss); `maintain` mends what a server that stopped between the two left.
 */
export class ExecutionQueue {
  private readonly queue: RecordedJobQueue;

  constructor(
    private readonly rows: ExecutionJobsRepo,
    jobs: JobQueue,
    private readonly settings: ExecutionQueueSettings,
  ) {
    // A job pg-boss expired while its worker still heartbeats: the lease decides, not a second claim.
    this.queue = new RecordedJobQueue(jobs, EXECUTION_QUEUE, settings.leaseMs);
  }

  /** Releases the run's next jobs to pg-boss (see `ExecutionJobsRepo.releaseNext`); answers how many. */
  async release(executionRunId: string): Promise<number> {
    const released = await this.rows.releaseNext(executionRunId);
    for (const job of released) await this.queue.enqueue(dataOf(job), { id: job.id, ...this.sendOptions() });
    return released.length;
  }

  /**
   * Takes the oldest claimable job for `workerId`, or none. A retry whose last attempt errored on
   * this worker is passed over (given back, attempt unspent) until `preferOtherWorkerMs` after its
   * backoff, so another worker that claims meanwhile takes it.
   */
  async claimNext(workerId: string, preferOtherWorkerMs: number): Promise<ExecutionJobRow | undefined> {
    return this.queue.claimNext((claimed) => this.rows.markClaimed(claimed.id, workerId, preferOtherWorkerMs));
  }

  /**
   * Puts a job its worker still runs back for another attempt after an infrastructure error: queued
   * again in our row (claimable by others after `delayMs`), failed in pg-boss, which retries it after
   * its backoff. False when the job was ended or taken over meanwhile.
   */
  async requeueForRetry(job: Pick<ExecutionJobRow, 'id' | 'workerId'>, message: string, delayMs: number): Promise<boolean> {
    return this.queue.failAfter(job.id, await this.rows.requeueForRetry(job, message, delayMs), message);
  }

  /** Ends a job in `error` after its last attempt (failed in pg-boss too); undefined when it changed meanwhile. */
  async endErrored(job: Pick<ExecutionJobRow, 'id' | 'workerId'>, message: string): Promise<ExecutionJobRow | undefined> {
    return this.queue.failAfter(job.id, await this.rows.endErrored(job, message), message);
  }

  /** Ends a job `workerId` still runs with the scenario's outcome; undefined when it is not (any longer) that worker's. */
  async finish(jobId: string, workerId: string, state: 'passed' | 'failed', message: string | null): Promise<ExecutionJobRow | undefined> {
    return this.queue.completeAfter(jobId, await this.rows.finishJob(jobId, workerId, state, message), { state });
  }

  /** Takes cancelled jobs (a halted run's) out of pg-boss, waiting or claimed. */
  async withdraw(jobIds: string[]): Promise<void> {
    await this.queue.cancel(jobIds);
  }

  /**
   * Mends what a server that stopped mid-change left behind: releases the next jobs of every running
   * run (a start or a job's end whose release never happened), and queues again released jobs that
   * pg-boss does not hold. Answers how many jobs it released or queued again.
   */
  async maintain(): Promise<number> {
    let mended = 0;
    for (const executionRunId of await this.rows.runningRunIds()) mended += await this.release(executionRunId);
    const waiting = await this.rows.releasedQueued();
    mended += await this.queue.ensureQueued(
      waiting.map((job) => ({ id: job.id, data: dataOf(job) })),
      this.sendOptions(),
    );
    return mended;
  }

  private sendOptions() {
    return { ...this.settings.retries.queueOptions(), expireInSeconds: EXPIRE_MS / 1000 };
  }
}

/** What pg-boss keeps with a job: enough to tell whose it is when looking at the queue. */
const dataOf = (job: ReleasedJob) => ({ id: job.id, projectId: job.projectId });
