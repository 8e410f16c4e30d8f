/** A full pool's refusal; the caller answers 429 with `retryAfterSeconds`. */
export class PasswordPoolFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the password hashing queue is full');
    this.name = 'PasswordPoolFull';
  }
}

interface Waiting {
  start: () => void;
}

export interface PasswordPoolLimits {
  /** Hashes computed at once (each scrypt at N=2^17 takes a core and 128 MiB). */
  concurrency: number;
  /** Hashes waiting or running, from all clients together, before more are refused. */
  queue: number;
  /** Hashes waiting or running for one client before its next is refused: its fair share. */
  perClient: number;
}

/**
 * Password hashing in a bounded pool (DESIGN §9). scrypt runs on libuv's threads, which file reads
 * and DNS share, and costs a core and 128 MiB a hash: unbounded, a burst of sign-ins stalled every
 * other call for a minute. Here at most `concurrency` hashes run; the rest wait in one queue per
 * client, served in turn, so one client's burst cannot starve another's single sign-in; past the
 * caps a request is refused at once with the wait it should expect.
 */
export class PasswordPool {
  private running = 0;
  private pending = 0;
  /** Waiting work by client, in the order clients are served next. */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly perClient = new Map<string, number>();
  /** Recent hash time, to say how long a refused caller should wait. */
  private averageMs = 200;

  constructor(private readonly limits: PasswordPoolLimits) {}

  /** Runs `hash` (one scrypt) in the pool for `client`, or throws `PasswordPoolFull` at once. */
  async run<T>(client: string, hash: () => Promise<T>): Promise<T> {
    const mine = this.perClient.get(client) ?? 0;
    if (this.pending >= this.limits.queue || mine >= this.limits.perClient) throw new PasswordPoolFull(this.expectedWaitSeconds());
    this.pending += 1;
    this.perClient.set(client, mine + 1);
    try {
      if (this.running >= this.limits.concurrency) await this.enqueue(client);
      else this.running += 1;
      const started = performance.now();
      try {
        return await hash();
      } finally {
        this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
        this.running -= 1;
        this.startNext();
      }
    } finally {
      this.pending -= 1;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    }
  }

  private enqueue(client: string): Promise<void> {
    return new Promise<void>((start) => {
      const queue = this.waiting.get(client);
      if (queue) queue.push({ start });
      else this.waiting.set(client, [{ start }]);
    });
  }

  /** Starts the first waiting client's oldest work, and moves that client to the back of the turn. */
  private startNext(): void {
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [client, queue] = next.value;
    const work = queue.shift()!;
    this.waiting.delete(client);
    if (queue.length > 0) this.waiting.set(client, queue);
    this.running += 1;
    work.start();
  }

  private expectedWaitSeconds(): number {
    return Math.max(1, Math.ceil(((this.pending / this.limits.concurrency) * this.averageMs) / 1000));
  }
}
