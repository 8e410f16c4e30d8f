import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { oversightItems } from '../db/schema.js';

export type OversightItemRow = typeof oversightItems.$inferSelect;
export type NewOversightItem = typeof oversightItems.$inferInsert;

/** SQL for the Code Review items (oversight_items). */
export class OversightRepo {
  constructor(private readonly db: Db) {}

  async insert(item: NewOversightItem): Promise<void> {
    await this.db.insert(oversightItems).values(item);
  }

  /** The project's pending items, newest first. */
  async listPending(projectId: string): Promise<OversightItemRow[]> {
    return this.db
      .select()
      .from(oversightItems)
      .where(and(eq(oversightItems.projectId, projectId), eq(oversightItems.state, 'pending')))
      .orderBy(desc(oversightItems.createdAt));
  }

  /** The project's pending items, in no particular order. */
  async pendingOf(projectId: string): Promise<OversightItemRow[]> {
    return this.db
      .select()
      .from(oversightItems)
      .where(and(eq(oversightItems.projectId, projectId), eq(oversightItems.state, 'pending')));
  }

  /** Discarded: the item leaves the Code Review list. */
  async markArchived(id: string): Promise<void> {
    await this.db.update(oversightItems).set({ state: 'archived' }).where(eq(oversightItems.id, id));
  }

  /** Its fix was committed to the workspace. */
  async markAccepted(id: string): Promise<void> {
    await this.db.update(oversightItems).set({ state: 'accepted' }).where(eq(oversightItems.id, id));
  }
}
