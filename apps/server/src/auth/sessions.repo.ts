import { eq, lt, or, sql } from 'drizzle-orm';
import { preparedOnce } from '../db/prepared.js';
import { AccessCache, type AccessLookups } from './access-cache.js';
import type { Db } from '../db/database.js';
import { sessions, users } from '../db/schema.js';
import type { SessionRow } from '../db/rows.js';

/** SQL for sessions; every change forgets the session from the access cache before it returns. */
export class SessionsRepo {
  constructor(
    private readonly db: Db,
    private readonly cache: AccessLookups = AccessCache.off(),
  ) {}

  private readonly findWithUserQuery = preparedOnce(() =>
    this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .leftJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
      .prepare('sessions_find_with_user'),
  );

  async insert(row: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  /**
   * A session with its user, in one read (or none, from the access cache): every signed-in request
   * starts here. The caller checks expiry and idle time against the clock on every answer.
   */
  async findWithUser(tokenHash: string): Promise<{ session: SessionRow; user: typeof users.$inferSelect | null } | undefined> {
    return this.cache.session(tokenHash, async () => {
      const [row] = await this.findWithUserQuery().execute({ tokenHash });
      return row;
    });
  }

  async touch(tokenHash: string, at: Date): Promise<void> {
    await this.db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.tokenHash, tokenHash));
    // Read again next time: the idle limit counts from lastUsedAt.
    this.cache.forgetSession(tokenHash);
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    this.cache.forgetSession(tokenHash);
  }

  /** Drops sessions past either expiry so the table does not grow forever. */
  async deleteExpired(now: Date, idleCutoff: Date): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.lastUsedAt, idleCutoff)))
      .returning({ hash: sessions.tokenHash });
    for (const row of rows) this.cache.forgetSession(row.hash);
    return rows.length;
  }

  /** Ends every session of a user; answers their digests (their live sockets must close too). */
  async deleteForUser(userId: string): Promise<string[]> {
    const rows = await this.db.delete(sessions).where(eq(sessions.userId, userId)).returning({ hash: sessions.tokenHash });
    this.cache.forgetUser(userId);
    return rows.map((row) => row.hash);
  }

  async countForUser(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    return row?.count ?? 0;
  }
}
