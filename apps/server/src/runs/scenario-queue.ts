import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../jobs/job-queue.js';
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

/** Claims that may pass over retries left to other servers before one is taken (each passed-over job waits a moment). */
const MAX_PASSES = 10;
/** How long a passed-over retry stays out of every server's reach, so the next claim takes the next job. */
const PASS_HOLD_MS = 500;

/**
 * The "Run scenario" queue: pg-boss (through the job queue door) claims, retries after a backoff,
 * expires and forgets jobs, and keeps one queued job per request; `scenario_jobs` keeps what the
 * product shows of each (state, run, message, times), its owner and lease, under the pg-boss job's
 * id. Every change that both hold is made on our row first, compare-and-swap on its owner, then on
 * pg-boss, so a server that lost a job (its lease lapsed, another server took it) never ends
 * another server's attempt there.
 */
export class ScenarioQueue {
  constructor(
    private readonly rows: ScenarioJobsRepo,
    private readonly jobs: JobQueue,
    private readonly settings: ScenarioQueueSettings,
  ) {}

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
      const sent = await this.jobs.enqueue(
        SCENARIO_QUEUE,
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
      const queuedId = await this.jobs.queuedWithKey(SCENARIO_QUEUE, singletonKey);
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
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const claimed = await this.jobs.claim(SCENARIO_QUEUE);
      if (!claimed) return undefined;
      const outcome = await this.rows.markClaimed(claimed.id, owner, claimed.attempt, preferOtherMs);
      if ('job' in outcome) return outcome.job;
      if ('holdMs' in outcome) await this.jobs.giveBack(SCENARIO_QUEUE, claimed.id, Math.min(outcome.holdMs, PASS_HOLD_MS));
      // Ended or deleted meanwhile (a restart's sweep, job history retention), or still running on
      // its server after pg-boss expired it: nothing for this server to run.
      else await this.jobs.cancel(SCENARIO_QUEUE, [claimed.id]);
    }
    return undefined;
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
    const queued = await this.rows.requeueForRetry(jobId, owner, message, delayMs);
    if (queued) await this.jobs.fail(SCENARIO_QUEUE, jobId, { message });
    return queued;
  }

  /** Finishes a job `owner` still runs and answers it; undefined when it was ended meanwhile (lease lost). */
  async finish(
    jobId: string,
    owner: string,
    outcome: { state: 'passed' | 'failed' | 'error'; runId: string | null; message: string | null },
  ): Promise<ScenarioJobRow | undefined> {
    const finished = await this.rows.finish(jobId, owner, outcome);
    if (finished) await this.jobs.complete(SCENARIO_QUEUE, jobId, outcome);
    return finished;
  }

  /** Ends running jobs whose server died (see `ScenarioJobsRepo.markInterrupted`), in pg-boss too, without a retry. */
  async markInterrupted(which: InterruptedJobs, message: string): Promise<ScenarioJobRow[]> {
    const ended = await this.rows.markInterrupted(which, message);
    await this.jobs.cancel(
      SCENARIO_QUEUE,
      ended.map((job) => job.id),
    );
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
