import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** SQL for the users table; the only file that touches it. */
export class UsersRepo {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async insert(user: NewUser, db: Db = this.db): Promise<UserRow> {
    const [row] = await db.insert(users).values({ ...user, email: user.email.toLowerCase() }).returning();
    if (!row) throw new Error('insert into users returned nothing');
    return row;
  }

  async setLastActiveProject(userId: string, projectId: string | null): Promise<void> {
    await this.setLastActiveProjectIn(this.db, userId, projectId);
  }

  async setLastActiveProjectIn(db: Db, userId: string, projectId: string | null): Promise<void> {
    await db.update(users).set({ lastActiveProjectId: projectId }).where(eq(users.id, userId));
  }

  /** Takes one project from the user's allowance; false when none is left (checked in the same statement). */
  async takeProjectAllowance(userId: string, db: Db = this.db): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ allowedProjectsCount: sql`${users.allowedProjectsCount} - 1` })
      .where(sql`${users.id} = ${userId} and ${users.allowedProjectsCount} > 0`)
      .returning({ id: users.id });
    return rows.length === 1;
  }

  async update(userId: string, changes: Partial<Pick<UserRow, 'allowedProjectsCount' | 'allowDeleteProjects'>>) {
    const rows = await this.db.update(users).set(changes).where(eq(users.id, userId)).returning({ id: users.id });
    return rows.length === 1;
  }
}
