import type { Db } from './database.js';

/**
 * Runs work in one database transaction, handing it repositories bound to that transaction: every
 * statement they make commits together or not at all. Services keep their rules between the
 * statements; the SQL stays in the repositories.
 */
export class Transactions<Repos> {
  constructor(
    private readonly db: Db,
    private readonly bind: (tx: Db) => Repos,
  ) {}

  /** Runs `work` in a new transaction; it commits when `work` resolves and rolls back when it throws. */
  async run<T>(work: (repos: Repos) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => work(this.bind(tx)));
  }
}
