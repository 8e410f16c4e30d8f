import type { ClaimedJob, EnqueueOptions, JobQueue } from './job-queue.js';

/**
 * What our record of a claimed job says when pg-boss hands it out: ours now (`job`), a retry this
 * holder should leave to another one for `holdMs`, still running under its holder's lease
 * (`running`: pg-boss expired it, the lease decides), or ended meanwhile (`gone`).
 */
export type ClaimOutcome<Row> = { job: Row } | { holdMs: number } | { running: true } | { gone: true };

/** Claims that may pass over retries left to other holders before one is taken. */
const MAX_PASSES = 10;
/** How long a passed-over retry stays out of every holder's reach, so the next claim takes the next job. */
const PASS_HOLD_MS = 500;

/**
 * One kind of job kept in two records: pg-boss holds the job (claims, retries after a backoff,
 * expiry, its history), our row holds what pg-boss cannot — who runs it under which lease (pg-boss 10
 * has no heartbeat), which holder's attempt errored, and what the product shows (state, outcome,
 * run). Both "Run scenario" and execution jobs go through this one protocol: every change both
 * records hold is made on our row first (compare-and-swap on its holder), then on pg-boss's job, so a
 * holder that lost a job (its lease lapsed, another took it) never ends another's attempt there.
 */
export class RecordedJobQueue {
  constructor(
    private readonly jobs: JobQueue,
    readonly name: string,
    /**
     * What a claim does with a job our row says still runs (pg-boss expired it): hold it back this
     * long, so the holder's lease decides before pg-boss hands it out again; undefined cancels it in
     * pg-boss (the lease sweep ends our row should its holder be dead).
     */
    private readonly stillRunningHoldMs?: number,
  ) {}

  async enqueue(data: object, options: EnqueueOptions): Promise<string | null> {
    return this.jobs.enqueue(this.name, data, options);
  }

  /**
   * Takes the oldest claimable job, asking our record (`markClaimed`) whether it is the caller's to
   * run; a retry left to other holders is given back (attempt unspent) and the next one tried.
   */
  async claimNext<Row, Data = unknown>(markClaimed: (claimed: ClaimedJob<Data>) => Promise<ClaimOutcome<Row>>): Promise<Row | undefined> {
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const claimed = await this.jobs.claim<Data>(this.name);
      if (!claimed) return undefined;
      const outcome = await markClaimed(claimed);
      if ('job' in outcome) return outcome.job;
      if ('holdMs' in outcome) await this.jobs.giveBack(this.name, claimed.id, Math.min(outcome.holdMs, PASS_HOLD_MS));
      else if ('running' in outcome && this.stillRunningHoldMs !== undefined)
        await this.jobs.giveBack(this.name, claimed.id, this.stillRunningHoldMs);
      // Ended meanwhile (halted, swept, deleted by retention): nothing to run.
      else await this.jobs.cancel(this.name, [claimed.id]);
    }
    return undefined;
  }

  /** Our row's change first; when it took (the caller still held the job), pg-boss's job fails and is retried after its backoff. */
  async failAfter<T>(jobId: string, rowChanged: T, message: string): Promise<T> {
    if (rowChanged) await this.jobs.fail(this.name, jobId, { message });
    return rowChanged;
  }

  /** Our row's change first; when it took, pg-boss's job completes with `output`. */
  async completeAfter<T>(jobId: string, rowChanged: T, output: object): Promise<T> {
    if (rowChanged) await this.jobs.complete(this.name, jobId, output);
    return rowChanged;
  }

  /** Takes jobs out of pg-boss, waiting or claimed (our rows already ended them). */
  async cancel(jobIds: string[]): Promise<void> {
    await this.jobs.cancel(this.name, jobIds);
  }

  async ensureQueued(waiting: { id: string; data: object }[], options: Omit<EnqueueOptions, 'id' | 'singletonKey'>): Promise<number> {
    return this.jobs.ensureQueued(this.name, waiting, options);
  }

  async queuedWithKey(singletonKey: string): Promise<string | undefined> {
    return this.jobs.queuedWithKey(this.name, singletonKey);
  }
}
