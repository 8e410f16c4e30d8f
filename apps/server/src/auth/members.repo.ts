import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { preparedOnce } from '../db/prepared.js';
import { invitations, projectMembers, projects, users } from '../db/schema.js';
import { AccessCache, type AccessLookups, type ProjectMembership } from './access-cache.js';
import type { InvitationRow, MemberRecord } from '../db/rows.js';

/** SQL for memberships and invitations. A membership change forgets it from the access cache before it returns. */
export class MembersRepo {
  constructor(
    private readonly db: Db,
    private readonly cache: AccessLookups = AccessCache.off(),
  ) {}

  private readonly listMembersQuery = preparedOnce(() =>
    this.db
      .select({
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: projectMembers.role,
      })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(eq(projectMembers.projectId, sql.placeholder('projectId')))
      .orderBy(asc(projectMembers.createdAt), asc(users.email))
      .prepare('members_list'),
  );

  private readonly listPendingInvitationsQuery = preparedOnce(() =>
    this.db
      .select()
      .from(invitations)
      .where(and(eq(invitations.projectId, sql.placeholder('projectId')), eq(invitations.status, 'pending')))
      .orderBy(asc(invitations.createdAt))
      .prepare('invitations_list_pending'),
  );

  async listMembers(projectId: string): Promise<MemberRecord[]> {
    return this.listMembersQuery().execute({ projectId });
  }

  async listPendingInvitations(projectId: string): Promise<InvitationRow[]> {
    return this.listPendingInvitationsQuery().execute({ projectId });
  }

  /** The project's members and pending invitations, from the access cache when it holds them (the Members page). */
  async listAll(projectId: string): Promise<ProjectMembership> {
    return this.cache.membership(projectId, async () => {
      const [members, pending] = await Promise.all([this.listMembers(projectId), this.listPendingInvitations(projectId)]);
      return { members, pending };
    });
  }

  /** Emails among `emails` that are already members or invited to the project. */
  async takenEmails(projectId: string, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const members = await this.db
      .select({ email: users.email })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(and(eq(projectMembers.projectId, projectId), inArray(users.email, emails)));
    const invited = await this.db
      .select({ email: invitations.email })
      .from(invitations)
      .where(and(eq(invitations.projectId, projectId), eq(invitations.status, 'pending'), inArray(invitations.email, emails)));
    return [...members, ...invited].map((row) => row.email);
  }

  async insertInvitations(projectId: string, invitedBy: string, emails: string[]): Promise<InvitationRow[]> {
    const rows = await this.db
      .insert(invitations)
      .values(emails.map((email) => ({ projectId, invitedBy, email })))
      .returning();
    this.cache.forgetInvitations(projectId);
    return rows;
  }

  /** Whether any project has a pending invitation for this email (the sign-up policy lets it in). */
  async hasPendingInvitation(email: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.email, email.toLowerCase()), eq(invitations.status, 'pending')))
      .limit(1);
    return rows.length > 0;
  }

  async findInvitation(id: string) {
    const [row] = await this.db
      .select({
        invitation: invitations,
        projectName: projects.name,
        inviterEmail: users.email,
        inviterFirstName: users.firstName,
        inviterLastName: users.lastName,
      })
      .from(invitations)
      .innerJoin(projects, eq(projects.id, invitations.projectId))
      .innerJoin(users, eq(users.id, invitations.invitedBy))
      .where(eq(invitations.id, id));
    return row;
  }

  /** Accepts a pending invitation and adds the member in one transaction; false if it was no longer pending. */
  async acceptInvitation(invitationId: string, userId: string, projectId: string): Promise<boolean> {
    const accepted = await this.db.transaction(async (tx) => {
      const updated = await tx
        .update(invitations)
        .set({ status: 'accepted', respondedAt: new Date() })
        .where(and(eq(invitations.id, invitationId), eq(invitations.status, 'pending')))
        .returning({ id: invitations.id });
      if (updated.length !== 1) return false;
      await tx.insert(projectMembers).values({ projectId, userId, role: 'MEMBER' }).onConflictDoNothing();
      return true;
    });
    // Non-members are never cached, so no stale role can remain; the project's member list changed.
    this.cache.forgetMember(projectId, userId);
    return accepted;
  }

  async declineInvitation(invitationId: string): Promise<boolean> {
    const rows = await this.db
      .update(invitations)
      .set({ status: 'declined', respondedAt: new Date() })
      .where(and(eq(invitations.id, invitationId), eq(invitations.status, 'pending')))
      .returning({ id: invitations.id, projectId: invitations.projectId });
    for (const row of rows) this.cache.forgetInvitations(row.projectId);
    return rows.length === 1;
  }

  async removeMember(projectId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId), sql`${projectMembers.role} <> 'ADMIN'`))
      .returning({ userId: projectMembers.userId });
    this.cache.forgetMember(projectId, userId);
    return rows.length === 1;
  }

  async withdrawInvitation(projectId: string, email: string): Promise<boolean> {
    const rows = await this.db
      .delete(invitations)
      .where(and(eq(invitations.projectId, projectId), eq(invitations.email, email), eq(invitations.status, 'pending')))
      .returning({ id: invitations.id });
    this.cache.forgetInvitations(projectId);
    return rows.length > 0;
  }
}
