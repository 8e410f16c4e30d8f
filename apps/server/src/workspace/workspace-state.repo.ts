import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { preparedOnce } from '../db/prepared.js';
import { workspaceState } from '../db/schema.js';

export type WorkspaceStateRow = typeof workspaceState.$inferSelect;
export type WorkspaceStateChange = Partial<Pick<WorkspaceStateRow, 'lastEnv' | 'lastBranch' | 'lastFeatureIndex' | 'lastScenarioIndex'>>;

/** Where each member left off in a project. */
export class WorkspaceStateRepo {
  constructor(private readonly db: Db) {}

  private readonly getQuery = preparedOnce(() =>
    this.db
      .select()
      .from(workspaceState)
      .where(and(eq(workspaceState.projectId, sql.placeholder('projectId')), eq(workspaceState.userId, sql.placeholder('userId'))))
      .prepare('workspace_state_get'),
  );

  async get(projectId: string, userId: string): Promise<WorkspaceStateRow | undefined> {
    const [row] = await this.getQuery().execute({ projectId, userId });
    return row;
  }

  async update(projectId: string, userId: string, change: WorkspaceStateChange): Promise<void> {
    const values = { ...change, updatedAt: new Date() };
    await this.db
      .insert(workspaceState)
      .values({ projectId, userId, ...values })
      .onConflictDoUpdate({ target: [workspaceState.projectId, workspaceState.userId], set: values });
  }
}
