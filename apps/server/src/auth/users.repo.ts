import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { projectMembers, users } from '../db/schema.js';
import { AccessCache, type AccessLookups } from './access-cache.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * SQL for the users table; the only file that touches it. Every change to a user forgets them from
 * the access cache (their sessions carry their row) before it returns.
 */
export class UsersRepo {
  constructor(
    private readonly db: Db,
    private readonly cache: AccessLookups = AccessCache.off(),
  ) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async insert(user: NewUser): Promise<UserRow> {
    const [row] = await this.db
      .insert(users)
      .values({ ...user, email: user.email.toLowerCase() })
      .returning();
    if (!row) throw new Error('insert into users returned nothing');
    return row;
  }

  async setLastActiveProject(userId: string, projectId: string | null): Promise<void> {
    await this.db.update(users).set({ lastActiveProjectId: projectId }).where(eq(users.id, userId));
    this.cache.forgetUser(userId);
  }

  /** Takes one project from the user's allowance; false when none is left (checked in the same statement). */
  async takeProjectAllowance(userId: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ allowedProjectsCount: sql`${users.allowedProjectsCount} - 1` })
      .where(sql`${users.id} = ${userId} and ${users.allowedProjectsCount} > 0`)
      .returning({ id: users.id });
    this.cache.forgetUser(userId);
    return rows.length === 1;
  }

  /**
   * Serializes sign-ups for the rest of the transaction, so "is this the first user?" and the
   * sign-up policy are decided on a users table no concurrent sign-up is changing. Only means
   * something on a repository bound to a transaction (`Transactions`).
   */
  async lockForSignup(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(7311930417)`);
  }

  async anyUser(): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).limit(1);
    return rows.length > 0;
  }

  /**
   * Counts one sign-in attempt against the account before its password is checked, so a burst of
   * parallel guesses cannot all slip in before the lock. Once `after` attempts are counted the
   * account locks for `baseSeconds`, doubling with each later attempt, at most `maxSeconds`.
   * Answers the lock's end instead when the account is locked now (nothing is counted then).
   */
  async claimSignInAttempt(
    userId: string,
    now: Date,
    lockout: { after: number; baseSeconds: number; maxSeconds: number },
  ): Promise<{ claimed: true } | { claimed: false; lockedUntil: Date }> {
    const nowIso = now.toISOString();
    const rows = await this.db
      .update(users)
      .set({
        failedSignIns: sql`${users.failedSignIns} + 1`,
        lockedUntil: sql`case when ${users.failedSignIns} + 1 >= ${lockout.after}
          then ${nowIso}::timestamptz + least(${lockout.maxSeconds}::float8, ${lockout.baseSeconds}::float8 * power(2, least(${users.failedSignIns} + 1 - ${lockout.after}, 30))) * interval '1 second'
          else null end`,
      })
      .where(sql`${users.id} = ${userId} and (${users.lockedUntil} is null or ${users.lockedUntil} <= ${nowIso}::timestamptz)`)
      .returning({ id: users.id });
    this.cache.forgetUser(userId);
    if (rows.length === 1) return { claimed: true };
    const [row] = await this.db.select({ lockedUntil: users.lockedUntil }).from(users).where(eq(users.id, userId));
    return { claimed: false, lockedUntil: row?.lockedUntil ?? now };
  }

  /** A successful sign-in: the failure count and any lock are cleared; a new hash replaces an older, cheaper one. */
  async signedIn(userId: string, newPasswordHash?: string): Promise<void> {
    await this.db
      .update(users)
      .set({ failedSignIns: 0, lockedUntil: null, ...(newPasswordHash ? { passwordHash: newPasswordHash } : {}) })
      .where(eq(users.id, userId));
    this.cache.forgetUser(userId);
  }

  /** Changes what an instance administrator may change; undefined when there is no such user. */
  async update(
    userId: string,
    changes: Partial<Pick<UserRow, 'allowedProjectsCount' | 'allowDeleteProjects' | 'instanceAdmin' | 'disabledAt'>>,
  ): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set(changes).where(eq(users.id, userId)).returning();
    this.cache.forgetUser(userId);
    return row;
  }

  /** Every user (or the one with `userId`) with the number of projects they are a member of, oldest account first. */
  async listWithProjectCounts(userId?: string): Promise<(UserRow & { projects: number })[]> {
    const rows = await this.db
      .select({
        user: users,
        projects: sql<number>`(select count(*)::int from ${projectMembers} where ${projectMembers.userId} = ${users.id})`,
      })
      .from(users)
      .where(userId === undefined ? undefined : eq(users.id, userId))
      .orderBy(asc(users.createdAt), asc(users.id));
    return rows.map(({ user, projects }) => ({ ...user, projects }));
  }
}
