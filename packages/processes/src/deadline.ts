/** The abort reason of a deadline that passed (a caller's own abort keeps its own reason). */
export class DeadlineExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`The deadline of ${describeDuration(limitMs)} passed.`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * One job's time limit (issue 21: one deadline mechanism bounds every job): an AbortSignal that
 * fires when `limitMs` have passed or when the caller's own signal fires (a halt, a shutdown),
 * whichever comes first. Everything the job does takes this one signal — its downloads (fetch),
 * its child processes (`runChild`/`runJobProcess`, which kill their whole tree on it) — so nothing
 * of it outlives the deadline, and `expired` tells a passed deadline from a stop.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort: () => void;

  constructor(
    readonly limitMs: number,
    private readonly parent?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.endsAt = Date.now() + limitMs;
    this.timer = setTimeout(() => this.controller.abort(new DeadlineExceeded(limitMs)), limitMs);
    this.timer.unref();
    this.onParentAbort = () => this.controller.abort(parent?.reason);
    if (parent?.aborted) this.onParentAbort();
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  /** Whether the deadline itself (not the caller's signal) ended the work. */
  get expired(): boolean {
    return this.signal.aborted && this.signal.reason instanceof DeadlineExceeded;
  }

  /** Time left, at least 1 ms (a timer of 0 would mean none); for APIs that take a timeout. */
  remainingMs(): number {
    return Math.max(1, this.endsAt - Date.now());
  }

  /** `fetch` bound to this deadline: a request still running when it fires is aborted. */
  fetch(fetchImpl: typeof fetch): typeof fetch {
    return (input, init) => fetchImpl(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, this.signal]) : this.signal });
  }

  /** Stops the timer and lets go of the caller's signal; call when the work ended. */
  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}

/**
 * `fetch` whose every request has a deadline of its own, its answer's body included (the timer is
 * left to run out rather than cleared when the headers arrive): for the calls a loop depends on
 * (a worker's claim, heartbeat and finish), where a server that stops answering mid-call must
 * not hang the loop for ever.
 */
export function fetchWithDeadline(fetchImpl: typeof fetch, limitMs: number): typeof fetch {
  return (input, init) => new Deadline(limitMs).fetch(fetchImpl)(input, init);
}

/** "15 minutes", "90 seconds": how a limit reads in a job's message. */
export function describeDuration(ms: number): string {
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes)) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
