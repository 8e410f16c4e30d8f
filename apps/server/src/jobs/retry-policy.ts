/** The instance settings a retry policy follows (JOB_ATTEMPTS, JOB_RETRY_BACKOFF_SECONDS, or what an administrator saved). */
export interface RetrySettings {
  jobAttempts: number;
  jobRetryBackoffSeconds: number;
}

/**
 * The one rule for retrying an attempt that ended in an infrastructure error, for every kind of
 * job (execution scenarios, "Run scenario", fired schedule slots): `maxAttempts` attempts in all,
 * each retry after the backoff doubled per attempt after the first. Read at each decision, so a
 * setting saved on any server applies from the next one. pg-boss is told the same rule when a job
 * is sent (`queueOptions`), so its retry state and ours agree.
 */
export class RetryPolicy {
  constructor(private readonly settings: () => RetrySettings) {}

  /** Follows an instance's settings as last read (`InstanceSettingsService.latest`). */
  static following(instance: { latest(): RetrySettings }): RetryPolicy {
    return new RetryPolicy(() => instance.latest());
  }

  /** A fixed rule (benches, tests). */
  static fixed(maxAttempts: number, backoffMs: number): RetryPolicy {
    return new RetryPolicy(() => ({ jobAttempts: maxAttempts, jobRetryBackoffSeconds: backoffMs / 1000 }));
  }

  get maxAttempts(): number {
    return this.settings().jobAttempts;
  }

  /** The first retry's wait; the worker or server whose attempt errored also leaves the retry to others this long after it. */
  get backoffMs(): number {
    return this.settings().jobRetryBackoffSeconds * 1000;
  }

  /** Whether a job whose attempt number `attempts` just ended in an infrastructure error gets another. */
  allowsAnother(attempts: number): boolean {
    return attempts < this.maxAttempts;
  }

  /** The wait before the attempt after attempt number `attempts`: the backoff, doubled for each attempt after the first. */
  delayAfter(attempts: number): number {
    return this.backoffMs * 2 ** Math.max(0, attempts - 1);
  }

  /** pg-boss's retry options for a job sent now (it counts whole seconds and adds jitter up to as much again). */
  queueOptions(): { retryLimit: number; retryDelaySeconds: number } {
    return { retryLimit: Math.max(0, this.maxAttempts - 1), retryDelaySeconds: Math.ceil(this.backoffMs / 1000) };
  }
}
