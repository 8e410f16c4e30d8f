import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { executions, users } from '../db/schema.js';

export type ExecutionRow = typeof executions.$inferSelect;
export type NewExecution = typeof executions.$inferInsert;
/** The columns the planner edits. */
export type ExecutionChanges = Partial<
  Pick<ExecutionRow, 'name' | 'env' | 'branch' | 'flows' | 'schedule' | 'scheduleSetAt' | 'isSingleThreaded' | 'enabled' | 'updatedAt'>
>;

/** An execution with the name fields of its creator (all null once the creator is gone). */
export interface ExecutionWithCreator {
  execution: ExecutionRow;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

const withCreator = { execution: executions, firstName: users.firstName, lastName: users.lastName, email: users.email };

/** SQL for the executions table (the planner's model and each execution's running flag). */
export class ExecutionsRepo {
  constructor(private readonly db: Db) {}

  async projectOf(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: executions.projectId }).from(executions).where(eq(executions.id, id));
    return row?.projectId;
  }

  async findById(id: string): Promise<ExecutionRow | undefined> {
    const [row] = await this.db.select().from(executions).where(eq(executions.id, id));
    return row;
  }

  /** The project's executions, oldest first, with their creators' names. */
  async listWithCreators(projectId: string): Promise<ExecutionWithCreator[]> {
    return this.db
      .select(withCreator)
      .from(executions)
      .leftJoin(users, eq(users.id, executions.userId))
      .where(eq(executions.projectId, projectId))
      .orderBy(asc(executions.createdAt));
  }

  async findWithCreator(id: string): Promise<ExecutionWithCreator | undefined> {
    const [row] = await this.db
      .select(withCreator)
      .from(executions)
      .leftJoin(users, eq(users.id, executions.userId))
      .where(eq(executions.id, id));
    return row;
  }

  async insert(execution: NewExecution): Promise<ExecutionRow> {
    const [row] = await this.db.insert(executions).values(execution).returning();
    if (!row) throw new Error('insert into executions returned nothing');
    return row;
  }

  async update(id: string, changes: ExecutionChanges): Promise<void> {
    await this.db.update(executions).set(changes).where(eq(executions.id, id));
  }

  /** Deletes the execution unless it is running (checked in the same statement). */
  async deleteIdle(id: string): Promise<void> {
    await this.db.delete(executions).where(and(eq(executions.id, id), eq(executions.running, false)));
  }

  /** Flows and threading of the project's running executions: the threads they hold. */
  async runningFlowsOf(projectId: string): Promise<{ flows: unknown; single: boolean }[]> {
    return this.db
      .select({ flows: executions.flows, single: executions.isSingleThreaded })
      .from(executions)
      .where(and(eq(executions.projectId, projectId), eq(executions.running, true)));
  }

  /** Every enabled execution with a schedule, for the scheduler's tick. */
  async listScheduled(): Promise<{ id: string; schedule: unknown; setAt: Date | null; createdAt: Date }[]> {
    return this.db
      .select({ id: executions.id, schedule: executions.schedule, setAt: executions.scheduleSetAt, createdAt: executions.createdAt })
      .from(executions)
      .where(and(eq(executions.enabled, true), isNotNull(executions.schedule)));
  }

  /**
   * Marks the execution running unless it already is; false when it was. The guard makes two
   * simultaneous starts one start.
   */
  async markRunning(id: string): Promise<boolean> {
    const rows = await this.db
      .update(executions)
      .set({ running: true })
      .where(and(eq(executions.id, id), eq(executions.running, false)))
      .returning({ id: executions.id });
    return rows.length > 0;
  }

  async markIdle(id: string): Promise<void> {
    await this.db.update(executions).set({ running: false }).where(eq(executions.id, id));
  }
}
