import type { Db } from './database.js';

/**
 * Runs work in one database transaction, handing it repositories bound to that transaction: every
 * statement they make commits together or not at all. Services keep their rules between the
 * statements; the SQL stays in the repositories.
 */
export class Transactions<Repos> {
  constructor(
    private readonly db: Db,
    /** Binds the repositories to `tx`; `afterCommit` runs work once the transaction committed (not after a rollback). */
    private readonly bind: (tx: Db, afterCommit: (work: () => void) => void) => Repos,
  ) {}

  /** Runs `work` in a new transaction; it commits when `work` resolves and rolls back when it throws. */
  async run<T>(work: (repos: Repos) => Promise<T>): Promise<T> {
    const committed: (() => void)[] = [];
    const result = await this.db.transaction(async (tx) => work(this.bind(tx, (then) => committed.push(then))));
    for (const then of committed) then();
    return result;
  }
}
