import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { workspaceState } from '../db/schema.js';

export type WorkspaceStateRow = typeof workspaceState.$inferSelect;
export type WorkspaceStateChange = Partial<Pick<WorkspaceStateRow, 'lastEnv' | 'lastBranch' | 'lastFeatureIndex' | 'lastScenarioIndex'>>;

/** Where each member left off in a project. */
export class WorkspaceStateRepo {
  constructor(private readonly db: Db) {}

  async get(projectId: string, userId: string): Promise<WorkspaceStateRow | undefined> {
    const [row] = await this.db
      .select()
      .from(workspaceState)
      .where(and(eq(workspaceState.projectId, projectId), eq(workspaceState.userId, userId)));
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
