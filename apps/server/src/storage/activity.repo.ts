import type { Db } from '../db/database.js';
import { activityLog, productEvents } from '../db/schema.js';

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

  async insertEvent(userId: string, event: string, projectId: string | null): Promise<void> {
    await this.db.insert(productEvents).values({ userId, event, projectId });
  }
}
