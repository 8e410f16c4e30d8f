import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { projectMembers, users } from '../db/schema.js';
import { AccessCache, type AccessLookups } from './access-cache.js';
import type { UserRow } from '../db/rows.js';

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

  /** A successful sign-in: a new hash replaces an older, cheaper one. */
  async signedIn(userId: string, newPasswordHash?: string): Promise<void> {
    if (!newPasswordHash) return;
    await this.db.update(users).set({ passwordHash: newPasswordHash }).where(eq(users.id, userId));
    this.cache.forgetUser(userId);
  }

  /** Keeps a two-factor secret shown for enrolment until a code confirms it (null forgets it). */
  async setTotpPending(userId: string, encryptedSecret: string | null): Promise<void> {
    await this.db.update(users).set({ totpPendingSecret: encryptedSecret }).where(eq(users.id, userId));
    this.cache.forgetUser(userId);
  }

  /** Turns two-factor sign-in on with a confirmed secret, its recovery codes' digests and the step just used. */
  async enableTotp(userId: string, encryptedSecret: string, recoveryDigests: string[], step: number): Promise<void> {
    await this.db
      .update(users)
      .set({ totpSecret: encryptedSecret, totpPendingSecret: null, totpRecoveryCodes: recoveryDigests, totpLastStep: step })
      .where(eq(users.id, userId));
    this.cache.forgetUser(userId);
  }

  /** Turns two-factor sign-in off (the user, or an administrator's reset). */
  async clearTotp(userId: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpRecoveryCodes: [], totpLastStep: null })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    this.cache.forgetUser(userId);
    return rows.length === 1;
  }

  /** Records a code's time step as used, unless it or a later one already was: a code is good once, even in a race. */
  async acceptTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpLastStep: step })
      .where(sql`${users.id} = ${userId} and (${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`)
      .returning({ id: users.id });
    this.cache.forgetUser(userId);
    return rows.length === 1;
  }

  /** Uses up a recovery code by its digest; false when the account has no such unused code. */
  async useRecoveryCode(userId: string, digest: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpRecoveryCodes: sql`${users.totpRecoveryCodes} - ${digest}::text` })
      .where(sql`${users.id} = ${userId} and jsonb_exists(${users.totpRecoveryCodes}, ${digest}::text)`)
      .returning({ id: users.id });
    this.cache.forgetUser(userId);
    return rows.length === 1;
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
