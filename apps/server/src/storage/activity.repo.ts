import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { activityLog, productEvents, users } from '../db/schema.js';

export class ActivityRepo {
  constructor(private readonly db: Db) {}

  async insertLogEntries(userId: string, entries: Record<string, unknown>[]): Promise<number> {
    if (entries.length === 0) return 0;
    const rows = await this.db
      .insert(activityLog)
      .values(entries.map((entry) => ({ userId, entry })))
      .returning({ id: activityLog.id });
    return rows.length;
  }

  /** One administration action, written by the server (kind `admin`); null user: `npm run admin`. */
  async insertAdminEntry(userId: string | null, entry: Record<string, unknown>): Promise<void> {
    await this.db.insert(activityLog).values({ userId, kind: 'admin', entry });
  }

  /** The latest administration actions with their actor's email, newest first. */
  async latestAdminEntries(limit: number): Promise<{ id: number; at: Date; actor: string | null; entry: unknown }[]> {
    return this.db
      .select({ id: activityLog.id, at: activityLog.createdAt, actor: users.email, entry: activityLog.entry })
      .from(activityLog)
      .leftJoin(users, eq(users.id, activityLog.userId))
      .where(eq(activityLog.kind, 'admin'))
      .orderBy(desc(activityLog.id))
      .limit(limit);
  }

  async insertEvent(userId: string, event: string, projectId: string | null): Promise<void> {
    await this.db.insert(productEvents).values({ userId, event, projectId });
  }
}
