import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { signInThrottles, users } from '../db/schema.js';
import { Transactions } from '../db/transactions.js';

export type ThrottleRow = typeof signInThrottles.$inferSelect;
export type ThrottleScope = ThrottleRow['scope'];
export interface ThrottleKey {
  scope: ThrottleScope;
  key: string;
  email: string | null;
}

/** An account a sign-in block stands on now, as the admin area lists it. */
export interface BlockedAccount {
  userId: string;
  email: string;
  /** The latest end of a block on this account, account-wide or from one client. */
  blockedUntil: Date;
  /** Failures counted in the account's current window. */
  failures: number;
  /** How many clients are blocked from this account now (a whole-account guard counts as none). */
  blockedClients: number;
  accountWide: boolean;
}

/** SQL for sign_in_throttles; the rules that read and change these rows live in `sign-in-throttle.ts`. */
export class SignInThrottlesRepo {
  constructor(private readonly db: Db) {}

  /**
   * The rows of `keys`, made when missing (an empty window starting `now`) and locked for the rest
   * of the transaction, always in one order so two claims never wait on each other crosswise.
   */
  async lockRows(keys: ThrottleKey[], now: Date): Promise<ThrottleRow[]> {
    await this.db
      .insert(signInThrottles)
      .values(keys.map((key) => ({ ...key, windowStartedAt: now })))
      .onConflictDoNothing();
    const rows = await this.db
      .select()
      .from(signInThrottles)
      .where(or(...keys.map((key) => and(eq(signInThrottles.scope, key.scope), eq(signInThrottles.key, key.key)))))
      .orderBy(asc(signInThrottles.scope), asc(signInThrottles.key))
      .for('update');
    return keys.map((key) => {
      const row = rows.find((candidate) => candidate.scope === key.scope && candidate.key === key.key);
      if (!row) throw new Error(`sign_in_throttles row ${key.scope}/${key.key} vanished inside its transaction`);
      return row;
    });
  }

  async save(row: ThrottleRow): Promise<void> {
    const { scope, key, ...changes } = row;
    await this.db
      .update(signInThrottles)
      .set(changes)
      .where(and(eq(signInThrottles.scope, scope), eq(signInThrottles.key, key)));
  }

  /** Real accounts with a block standing on them now, latest block first. Emails nobody owns are left out. */
  async blockedAccounts(now: Date): Promise<BlockedAccount[]> {
    const standing = sql`${signInThrottles.blockedUntil} > ${now.toISOString()}::timestamptz`;
    const latest = sql`max(${signInThrottles.blockedUntil}) filter (where ${standing})`;
    return this.db
      .select({
        userId: users.id,
        email: users.email,
        blockedUntil: sql<Date>`${latest}`.mapWith((value: string | Date) => new Date(value)),
        failures: sql<number>`coalesce(max(${signInThrottles.failures}) filter (where ${signInThrottles.scope} = 'account'), 0)::int`,
        blockedClients: sql<number>`(count(*) filter (where ${signInThrottles.scope} = 'pair' and ${standing}))::int`,
        accountWide: sql<boolean>`coalesce(bool_or(${signInThrottles.scope} = 'account' and ${standing}), false)`,
      })
      .from(signInThrottles)
      .innerJoin(users, eq(users.email, signInThrottles.email))
      .groupBy(users.id, users.email)
      .having(sql`${latest} is not null`)
      .orderBy(sql`${latest} desc`);
  }

  /** Lifts every block on an email (account-wide and per client) and forgets its failures; answers how many rows changed. */
  async clearEmail(email: string): Promise<number> {
    const rows = await this.db
      .update(signInThrottles)
      .set({ failures: 0, blockedUntil: null })
      .where(and(eq(signInThrottles.email, email), inArray(signInThrottles.scope, ['pair', 'account'])))
      .returning({ key: signInThrottles.key });
    return rows.length;
  }

  /**
   * Deletes rows that hold nothing any more: no block standing, a window that began before
   * `windowBefore`, and no successful sign-in after `knownBefore` (a client's mark of being known).
   */
  async deleteStale(now: Date, windowBefore: Date, knownBefore: Date): Promise<number> {
    const rows = await this.db
      .delete(signInThrottles)
      .where(
        and(
          or(isNull(signInThrottles.blockedUntil), lt(signInThrottles.blockedUntil, now)),
          lt(signInThrottles.windowStartedAt, windowBefore),
          or(isNull(signInThrottles.signedInAt), lt(signInThrottles.signedInAt, knownBefore)),
        ),
      )
      .returning({ key: signInThrottles.key });
    return rows.length;
  }
}

/** Claims lock their rows, decide and write in one transaction, so parallel guesses are counted one after another. */
export function signInThrottleTransactions(db: Db): Transactions<SignInThrottlesRepo> {
  return new Transactions(db, (tx) => new SignInThrottlesRepo(tx));
}
