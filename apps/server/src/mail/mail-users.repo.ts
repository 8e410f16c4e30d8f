import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { mailUsers } from '../db/schema.js';

export type MailUserRow = typeof mailUsers.$inferSelect;

export class MailUsersRepo {
  constructor(private readonly db: Db) {}

  list(projectId: string): Promise<MailUserRow[]> {
    return this.db.select().from(mailUsers).where(eq(mailUsers.projectId, projectId)).orderBy(asc(mailUsers.username));
  }

  async find(projectId: string, username: string): Promise<MailUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(mailUsers)
      .where(and(eq(mailUsers.projectId, projectId), eq(mailUsers.username, username)));
    return row;
  }

  async insert(row: typeof mailUsers.$inferInsert): Promise<MailUserRow> {
    const [created] = await this.db.insert(mailUsers).values(row).returning();
    if (!created) throw new Error('insert into mail_users returned nothing');
    return created;
  }

  async update(id: string, changes: Partial<typeof mailUsers.$inferInsert>): Promise<MailUserRow | undefined> {
    const [row] = await this.db
      .update(mailUsers)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(mailUsers.id, id))
      .returning();
    return row;
  }

  async delete(projectId: string, username: string): Promise<boolean> {
    const rows = await this.db
      .delete(mailUsers)
      .where(and(eq(mailUsers.projectId, projectId), eq(mailUsers.username, username)))
      .returning({ id: mailUsers.id });
    return rows.length === 1;
  }
}
