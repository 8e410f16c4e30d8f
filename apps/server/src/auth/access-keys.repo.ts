import { and, asc, eq, isNull, like } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { accessKeys } from '../db/schema.js';

export type AccessKeyRow = typeof accessKeys.$inferSelect;

export class AccessKeysRepo {
  constructor(private readonly db: Db) {}

  async listForProject(projectId: string): Promise<AccessKeyRow[]> {
    return (
      this.db
        .select()
        .from(accessKeys)
        // Jobs' keys live only as long as their job and are nobody's to manage.
        .where(and(eq(accessKeys.projectId, projectId), isNull(accessKeys.scope)))
        .orderBy(asc(accessKeys.createdAt))
    );
  }

  async insert(row: typeof accessKeys.$inferInsert): Promise<AccessKeyRow> {
    const [created] = await this.db.insert(accessKeys).values(row).returning();
    if (!created) throw new Error('insert into access_keys returned nothing');
    return created;
  }

  async findById(id: string): Promise<AccessKeyRow | undefined> {
    const [row] = await this.db.select().from(accessKeys).where(eq(accessKeys.id, id));
    return row;
  }

  async findByHash(tokenHash: string): Promise<AccessKeyRow | undefined> {
    const [row] = await this.db.select().from(accessKeys).where(eq(accessKeys.tokenHash, tokenHash));
    return row;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.update(accessKeys).set({ lastUsedAt: at }).where(eq(accessKeys.id, id));
  }

  /** Deletes the job keys (scope 'run') whose name starts with `prefix`; answers how many. */
  async deleteJobKeysNamed(prefix: string): Promise<number> {
    const rows = await this.db
      .delete(accessKeys)
      .where(and(eq(accessKeys.scope, 'run'), like(accessKeys.name, `${prefix.replace(/[\\%_]/g, '\\$&')}%`)))
      .returning({ id: accessKeys.id });
    return rows.length;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(accessKeys).where(eq(accessKeys.id, id)).returning({ id: accessKeys.id });
    return rows.length === 1;
  }
}
