/** A queue that keeps its ended jobs for a while: it deletes those older than what it is told to keep. */
export interface JobHistorySource {
  forgetJobsOlderThan(keepMs: number): Promise<number>;
}

interface HistoryLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Keeps the job tables to what anyone still reads. Execution jobs, "Run scenario" jobs and fired
 * schedule slots are work records: once a job ended, its run report (kept) says how it went, so
 * they are deleted JOB_HISTORY_DAYS after they ended instead of growing for ever. Servers with the
 * scheduler role sweep; deletes are idempotent, so two schedulers sweeping at once is harmless.
 */
export class JobHistory {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sources: Record<string, JobHistorySource>,
    private readonly keepMs: number,
    private readonly log: HistoryLogger,
  ) {}

  /** Deletes what every source ended before the kept time; answers how many rows each deleted. */
  async sweep(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const [name, source] of Object.entries(this.sources)) {
      try {
        deleted[name] = await source.forgetJobsOlderThan(this.keepMs);
      } catch (error) {
        this.log.warn({ err: error, history: name }, 'deleting job history failed');
      }
    }
    if (Object.values(deleted).some((count) => count > 0)) this.log.info({ deleted }, 'job history deleted');
    return deleted;
  }

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
    void this.sweep();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
