import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { preparedOnce } from '../db/prepared.js';
import { RowCache } from '../db/row-cache.js';
import { workspaceState } from '../db/schema.js';

export type WorkspaceStateRow = typeof workspaceState.$inferSelect;
export type WorkspaceStateChange = Partial<Pick<WorkspaceStateRow, 'lastEnv' | 'lastBranch' | 'lastFeatureIndex' | 'lastScenarioIndex'>>;

/**
 * Where each member left off in a project. Most workspace reads (features, test data,
 * environments) start with it, so with `cached` the rows are kept in memory (an absent row too).
 * Exact only where this repository is the only writer of the table: `update` forgets the row before
 * it returns; rows leave the table only with their project (deleted projects are refused before
 * any workspace call reads this, and their ids never come back), so that needs no forget. The
 * server turns it on where the access cache is on (PGlite: one process), never on a database
 * that other servers write.
 */
export class WorkspaceStateRepo {
  private readonly cache: RowCache<{ row: WorkspaceStateRow | undefined }> | undefined;

  constructor(
    private readonly db: Db,
    options: { cached: boolean } = { cached: false },
  ) {
    this.cache = options.cached ? new RowCache({ maxEntries: 5_000, ttlMs: 30_000 }, ({ row }) => ({ row: row && { ...row } })) : undefined;
  }

  private readonly getQuery = preparedOnce(() =>
    this.db
      .select()
      .from(workspaceState)
      .where(and(eq(workspaceState.projectId, sql.placeholder('projectId')), eq(workspaceState.userId, sql.placeholder('userId'))))
      .prepare('workspace_state_get'),
  );

  async get(projectId: string, userId: string): Promise<WorkspaceStateRow | undefined> {
    const read = async () => ({ row: (await this.getQuery().execute({ projectId, userId }))[0] });
    if (!this.cache) return (await read()).row;
    const found = await this.cache.read(`${projectId}:${userId}`, read, (answer) => answer);
    return found.row;
  }

  /** Hits and misses of the cache (null when off), for tests and benchmarks. */
  cacheStats(): { hits: number; misses: number; size: number } | null {
    return this.cache?.stats() ?? null;
  }

  async update(projectId: string, userId: string, change: WorkspaceStateChange): Promise<void> {
    const values = { ...change, updatedAt: new Date() };
    await this.db
      .insert(workspaceState)
      .values({ projectId, userId, ...values })
      .onConflictDoUpdate({ target: [workspaceState.projectId, workspaceState.userId], set: values });
    this.cache?.forget(`${projectId}:${userId}`);
  }
}
