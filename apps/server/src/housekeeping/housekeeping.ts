/** One kind of housekeeping: deletes what it keeps no longer and answers how many of each it deleted. */
export type HousekeepingTask = () => Promise<Record<string, number>>;

interface HousekeepingLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * The server's periodic deletions, one mechanism for all: job history (ended execution jobs,
 * "Run scenario" jobs and fired schedule slots past JOB_HISTORY_DAYS) and run retention (runs past a
 * project's limit, and artifacts nothing names). Servers with the scheduler role sweep; every task is
 * idempotent, so two schedulers sweeping at once is harmless. A failing task is logged and the others
 * still run.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tasks: Record<string, HousekeepingTask>,
    private readonly log: HousekeepingLogger,
  ) {}

  /** Runs every task once; answers what each deleted. */
  async sweep(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const [name, task] of Object.entries(this.tasks)) {
      try {
        Object.assign(deleted, await task());
      } catch (error) {
        this.log.warn({ err: error, task: name }, 'housekeeping task failed');
      }
    }
    if (Object.values(deleted).some((count) => count > 0)) this.log.info({ deleted }, 'housekeeping deleted');
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
