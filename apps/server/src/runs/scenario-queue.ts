import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../jobs/job-queue.js';
import { RecordedJobQueue } from '../jobs/recorded-job-queue.js';
import type { RetryPolicy } from '../jobs/retry-policy.js';
import type { InterruptedJobs, NewScenarioJob, ScenarioJobRow, ScenarioJobsRepo } from './scenario-jobs.repo.js';

/** pg-boss's queue of "Run scenario" jobs. */
export const SCENARIO_QUEUE = 'run-scenario';

export interface ScenarioQueueSettings {
  /** Attempts and backoff after infrastructure errors, told to pg-boss with each job. */
  retries: RetryPolicy;
  /**
   * pg-boss fails (and retries) a claimed job still active this long after its claim; the retry's
   * claim finds our row still running and cancels it in pg-boss (the owner's lease decides about
   * the row), so pg-boss never keeps a job active that our row ended without telling it.
   */
  expireMs: number;
}

/**
 * The "Run scenario" queue: pg-boss (through the job queue door) claims, retries after a backoff,
 * expires and forgets jobs, and keeps one queued job per request; `scenario_jobs` keeps what the
 * product shows of each (state, run, message, times), its owner and lease, under the pg-boss job's
 * id. Both records change through `RecordedJobQueue` (our row first, then pg-boss).
 */
export class ScenarioQueue {
  private readonly queue: RecordedJobQueue;

  constructor(
    private readonly rows: ScenarioJobsRepo,
    jobs: JobQueue,
    private readonly settings: ScenarioQueueSettings,
  ) {
    // A job still running on its server after pg-boss expired it is cancelled there: the owner's
    // lease decides about our row (the sweep ends it should the owner be dead).
    this.queue = new RecordedJobQueue(jobs, SCENARIO_QUEUE);
  }

  /**
   * Queues a job, or answers the job already queued for the same request (project, user, branch,
   * environment, feature, scenario and healing): asking twice while it waits is one job.
   */
  async enqueue(job: NewScenarioJob): Promise<ScenarioJobRow> {
    const singletonKey = JSON.stringify([
      job.projectId,
      job.userId,
      job.branch,
      job.environment,
      job.featureName,
      job.scenarioName,
      !!job.heal,
    ]);
    // Twice at most: the queued duplicate may be claimed between pg-boss's refusal and our look-up.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      // Our row first: a claim that finds pg-boss's job finds its row too.
      const row = await this.rows.insert({ ...job, id: randomUUID() });
      const sent = await this.queue.enqueue(
        { projectId: job.projectId },
        {
          id: row.id,
          singletonKey,
          ...this.settings.retries.queueOptions(),
          expireInSeconds: this.settings.expireMs / 1000,
        },
      );
      if (sent) return row;
      await this.rows.delete(row.id);
      const queuedId = await this.queue.queuedWithKey(singletonKey);
      const queued = queuedId ? await this.rows.findById(queuedId) : undefined;
      if (queued) return queued;
    }
    throw new Error('a "Run scenario" job was refused as a duplicate of a job that could not be found');
  }

  /**
   * Takes the oldest claimable job for `owner`, or none. A retry whose last attempt errored on this
   * server is passed over (given back to pg-boss, attempt unspent) until `preferOtherMs` after its
   * backoff, so another server that claims meanwhile takes it.
   */
  async claimNext(owner: string, preferOtherMs: number): Promise<ScenarioJobRow | undefined> {
    return this.queue.claimNext((claimed) => this.rows.markClaimed(claimed.id, owner, claimed.attempt, preferOtherMs));
  }

  /** Renews the lease of a job `owner` still runs (ours alone: pg-boss 10 has no heartbeat). */
  async renewLease(jobId: string, owner: string): Promise<void> {
    await this.rows.renewLease(jobId, owner);
  }

  /**
   * Puts a job `owner` still runs back for another attempt after an infrastructure error: queued
   * again in our row (claimable by others after `delayMs`), failed in pg-boss, which retries it after
   * its backoff. Undefined when the job was ended or taken over meanwhile.
   */
  async requeueForRetry(jobId: string, owner: string, message: string, delayMs: number): Promise<ScenarioJobRow | undefined> {
    return this.queue.failAfter(jobId, await this.rows.requeueForRetry(jobId, owner, message, delayMs), message);
  }

  /** Finishes a job `owner` still runs and answers it; undefined when it was ended meanwhile (lease lost). */
  async finish(
    jobId: string,
    owner: string,
    outcome: { state: 'passed' | 'failed' | 'error'; runId: string | null; message: string | null },
  ): Promise<ScenarioJobRow | undefined> {
    return this.queue.completeAfter(jobId, await this.rows.finish(jobId, owner, outcome), outcome);
  }

  /** Ends running jobs whose server died (see `ScenarioJobsRepo.markInterrupted`), in pg-boss too, without a retry. */
  async markInterrupted(which: InterruptedJobs, message: string): Promise<ScenarioJobRow[]> {
    const ended = await this.rows.markInterrupted(which, message);
    await this.queue.cancel(ended.map((job) => job.id));
    return ended;
  }

  /** Deletes our records of jobs that ended before `cutoff`; pg-boss forgets its own by its retention. */
  async deleteEndedBefore(cutoff: Date): Promise<number> {
    return this.rows.deleteEndedBefore(cutoff);
  }

  async projectOf(jobId: string): Promise<string | undefined> {
    return this.rows.projectOf(jobId);
  }

  async findById(jobId: string): Promise<ScenarioJobRow | undefined> {
    return this.rows.findById(jobId);
  }
}
