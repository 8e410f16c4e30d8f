import { and, asc, eq, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { preparedOnce } from '../db/prepared.js';
import { accessKeys, users } from '../db/schema.js';
import { AccessCache, type AccessLookups } from './access-cache.js';
import type { AccessKeyRow } from '../db/rows.js';

/**
 * Access keys. Every statement that changes or deletes keys forgets them in the access cache
 * before it returns, as the other auth repositories do (see AccessCache).
 */
export class AccessKeysRepo {
  constructor(
    private readonly db: Db,
    private readonly cache: AccessLookups = AccessCache.off(),
  ) {}

  private readonly findWithUserQuery = preparedOnce(() =>
    this.db
      .select({ key: accessKeys, user: users })
      .from(accessKeys)
      .leftJoin(users, eq(users.id, accessKeys.createdBy))
      .where(eq(accessKeys.tokenHash, sql.placeholder('tokenHash')))
      .prepare('access_keys_find_with_user'),
  );

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

  /**
   * A key with its creator, in one read (or none, from the access cache): every call a key makes
   * starts here. The caller checks the expiry against the clock on every answer.
   */
  async findWithUser(tokenHash: string): Promise<{ key: AccessKeyRow; user: typeof users.$inferSelect | null } | undefined> {
    return this.cache.accessKey(tokenHash, async () => {
      const [row] = await this.findWithUserQuery().execute({ tokenHash });
      return row;
    });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.update(accessKeys).set({ lastUsedAt: at }).where(eq(accessKeys.id, id));
    // Read again next time: the next touch is due a minute after this one.
    this.cache.forgetAccessKeys((key) => key.id === id);
  }

  /** Deletes the job keys (scope 'run') whose name starts with `prefix`; answers how many. */
  async deleteJobKeysNamed(prefix: string): Promise<number> {
    const rows = await this.db
      .delete(accessKeys)
      .where(and(eq(accessKeys.scope, 'run'), like(accessKeys.name, `${prefix.replace(/[\\%_]/g, '\\$&')}%`)))
      .returning({ id: accessKeys.id });
    const deleted = new Set(rows.map((row) => row.id));
    this.cache.forgetAccessKeys((key) => deleted.has(key.id));
    return rows.length;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(accessKeys).where(eq(accessKeys.id, id)).returning({ id: accessKeys.id });
    this.cache.forgetAccessKeys((key) => key.id === id);
    return rows.length === 1;
  }
}
