import { and, asc, eq, sql } from 'drizzle-orm';
import type { ProjectRole } from '@rehearse/contract';
import type { Db } from '../db/database.js';
import { preparedOnce } from '../db/prepared.js';
import { projectMembers, projects, users } from '../db/schema.js';
import { AccessCache, type AccessLookups } from './access-cache.js';
import type { ProjectRow } from '../db/rows.js';

export type NewProject = typeof projects.$inferInsert;
export interface ProjectWithRole extends ProjectRow {
  role: ProjectRole;
  adminId: string | null;
}

// The creator is the project's only ADMIN (admin rights are never handed over), so the admin's
// id is a column read, not a per-row subquery: that subquery cost 10-20 ms on 1,000 projects.
const adminIdColumn = projects.createdBy;

/**
 * SQL for projects and their memberships. Every change to a project forgets it from the access
 * cache (each member's entry carries its row) before it returns.
 */
export class ProjectsRepo {
  constructor(
    private readonly db: Db,
    private readonly cache: AccessLookups = AccessCache.off(),
  ) {}

  private readonly findWithRoleQuery = preparedOnce(() =>
    this.db
      .select({ project: projects, role: projectMembers.role })
      .from(projects)
      .leftJoin(projectMembers, and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, sql.placeholder('userId'))))
      .where(eq(projects.id, sql.placeholder('projectId')))
      .prepare('projects_find_with_role'),
  );

  /** Creates a project with its creator as ADMIN (both or neither when the repository is bound to a transaction). */
  async insertWithAdmin(project: NewProject, adminUserId: string): Promise<ProjectRow> {
    const [row] = await this.db.insert(projects).values(project).returning();
    if (!row) throw new Error('insert into projects returned nothing');
    await this.db.insert(projectMembers).values({ projectId: row.id, userId: adminUserId, role: 'ADMIN' });
    return row;
  }

  /**
   * Serializes, for the rest of the transaction, the creation of a user's Default project: two
   * tabs loading at once must not create two. Only means something on a repository bound to a
   * transaction (`Transactions`).
   */
  async lockDefaultProjectOf(userId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
  }

  async findById(id: string): Promise<ProjectRow | undefined> {
    const [row] = await this.db.select().from(projects).where(eq(projects.id, id));
    return row;
  }

  async listForUser(userId: string): Promise<ProjectWithRole[]> {
    const rows = await this.db
      .select({ project: projects, role: projectMembers.role, adminId: adminIdColumn })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(eq(projectMembers.userId, userId))
      .orderBy(asc(projects.createdAt), asc(projects.id));
    return rows.map(({ project, role, adminId }) => ({ ...project, role, adminId }));
  }

  async findForUser(projectId: string, userId: string): Promise<ProjectWithRole | undefined> {
    const [row] = await this.db
      .select({ project: projects, role: projectMembers.role, adminId: adminIdColumn })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(and(eq(projectMembers.userId, userId), eq(projectMembers.projectId, projectId)));
    return row ? { ...row.project, role: row.role, adminId: row.adminId } : undefined;
  }

  /**
   * A project with this user's role in it (null when not a member), in one read (or none, from the
   * access cache for a member): every project call starts here.
   */
  async findWithRole(projectId: string, userId: string): Promise<{ project: ProjectRow; role: ProjectRole | null } | undefined> {
    return this.cache.projectRole(projectId, userId, async () => {
      const [row] = await this.findWithRoleQuery().execute({ projectId, userId });
      return row;
    });
  }

  async roleOf(projectId: string, userId: string): Promise<ProjectRole | undefined> {
    const [row] = await this.db
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
    return row?.role;
  }

  /** Every project with its admin's email and member count, oldest first (instance administration). */
  async listForInstanceAdmin(): Promise<(ProjectRow & { adminEmail: string | null; members: number })[]> {
    const rows = await this.db
      .select({
        project: projects,
        adminEmail: users.email,
        members: sql<number>`(select count(*)::int from ${projectMembers} where ${projectMembers.projectId} = ${projects.id})`,
      })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.createdBy))
      .orderBy(asc(projects.createdAt), asc(projects.id));
    return rows.map(({ project, adminEmail, members }) => ({ ...project, adminEmail, members }));
  }

  /** One project with its admin's email and member count. */
  async findForInstanceAdmin(id: string): Promise<(ProjectRow & { adminEmail: string | null; members: number }) | undefined> {
    const [row] = await this.db
      .select({
        project: projects,
        adminEmail: users.email,
        members: sql<number>`(select count(*)::int from ${projectMembers} where ${projectMembers.projectId} = ${projects.id})`,
      })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.createdBy))
      .where(eq(projects.id, id));
    return row ? { ...row.project, adminEmail: row.adminEmail, members: row.members } : undefined;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id });
    this.cache.forgetProject(id);
    return rows.length === 1;
  }

  async update(id: string, changes: Partial<Omit<ProjectRow, 'id' | 'createdAt'>>): Promise<ProjectRow | undefined> {
    const [row] = await this.db.update(projects).set(changes).where(eq(projects.id, id)).returning();
    this.cache.forgetProject(id);
    return row;
  }

  /** Marks the workspace created; false when it already was. */
  async markWorkspaceCreated(id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(projects)
      .set({ workspaceCreatedAt: at })
      .where(and(eq(projects.id, id), sql`${projects.workspaceCreatedAt} is null`))
      .returning({ id: projects.id });
    this.cache.forgetProject(id);
    return rows.length === 1;
  }
}
