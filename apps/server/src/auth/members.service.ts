import { Messages, type InvitationSummary, type Member, type SentInvitation } from '@rehearse/contract';
import { z } from 'zod';
import { isUniqueViolation } from '../db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { escapeHtml, type Mailer } from '../mail/mailer.js';
import type { ProjectAccess } from '../http/caller.js';
import type { MembersRepo } from './members.repo.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { UserRow } from '../db/rows.js';

const isEmail = (value: string) => z.email().safeParse(value).success;
const isUuid = (value: string) => z.uuid().safeParse(value).success;
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

export interface MembersSettings {
  publicUrl: string;
  trialInviteDomains: string[];
}

export interface MembersLogger {
  warn(details: object, message: string): void;
}

/** Members and invitations: the invite rules of spec 01 §5-§6 and the invitation link's life. */
export class MembersService {
  constructor(
    private readonly members: MembersRepo,
    private readonly settings: MembersSettings,
    private readonly mailer: Mailer | null,
    private readonly log: MembersLogger,
    /** Hears `memberRemoved` (their live-update sockets must leave the project). */
    private readonly events: DomainEventBus,
  ) {}

  async list(projectId: string): Promise<Member[]> {
    const { members, pending } = await this.members.listAll(projectId);
    return [
      ...members.map((m) => ({
        name: `${m.firstName} ${m.lastName}`.trim(),
        user_email: m.email,
        user_id: m.userId,
        status: 'active' as const,
        role: m.role,
        isAdmin: m.role === 'ADMIN',
      })),
      ...pending.map((invitation) => ({
        name: invitation.email,
        user_email: invitation.email,
        user_id: invitation.id,
        status: 'pending' as const,
        role: null,
        isAdmin: false,
      })),
    ];
  }

  /** Checks the invite rules in the order the web form shows them, then stores and mails the invitations. */
  async invite(inviter: UserRow, access: ProjectAccess, rawEmails: string[]): Promise<SentInvitation[]> {
    const emails = rawEmails.map((email) => email.trim().toLowerCase()).filter(Boolean);
    if (emails.length === 0) throw badRequest(Messages.inviteNoEmails);
    if (!emails.every(isEmail)) throw badRequest(Messages.inviteInvalidEmail);
    if (emails.includes(inviter.email)) throw badRequest(Messages.inviteSelf);
    if (new Set(emails).size !== emails.length) throw badRequest(Messages.inviteNotUnique);
    if ((await this.members.takenEmails(access.project.id, emails)).length > 0) {
      throw conflict(Messages.inviteAlreadyMember);
    }
    if (!access.project.licensed) {
      const allowed = new Set([domainOf(inviter.email), ...this.settings.trialInviteDomains]);
      if (!emails.every((email) => allowed.has(domainOf(email)))) throw forbidden(Messages.inviteTrial);
    }
    let rows;
    try {
      rows = await this.members.insertInvitations(access.project.id, inviter.id, emails);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(Messages.inviteAlreadyMember);
      throw error;
    }
    return Promise.all(
      rows.map(async (row) => {
        const link = this.invitationLink(row.id, inviter.email, access.project.id);
        const mailed = await this.mailInvitation(row.email, inviter, access.project.name, link);
        return { id: row.id, email: row.email, link, mailed };
      }),
    );
  }

  /** Validates an invitation link for the signed-in user (spec's three "Invalid invitation,…" messages first). */
  async verify(user: UserRow, input: { id?: string; invited_by?: string; project?: string }): Promise<InvitationSummary> {
    if (!input.id) throw badRequest(Messages.invitationNoId);
    if (!input.invited_by) throw badRequest(Messages.invitationNoInviter);
    if (!input.project) throw badRequest(Messages.invitationNoProject);
    const found = await this.findPendingFor(user, input.id);
    const { invitation } = found;
    if (invitation.projectId !== input.project || found.inviterEmail !== input.invited_by.trim().toLowerCase()) {
      throw notFound(Messages.invitationInvalid);
    }
    return {
      id: invitation.id,
      project_id: invitation.projectId,
      project_name: found.projectName,
      email: invitation.email,
      invited_by_email: found.inviterEmail,
      invited_by_name: `${found.inviterFirstName} ${found.inviterLastName}`.trim(),
      status: invitation.status,
    };
  }

  async accept(user: UserRow, id: string): Promise<string> {
    const { invitation } = await this.findPendingFor(user, id);
    if (!(await this.members.acceptInvitation(invitation.id, user.id, invitation.projectId))) {
      throw notFound(Messages.invitationInvalid);
    }
    return invitation.projectId;
  }

  async decline(user: UserRow, id: string): Promise<void> {
    const { invitation } = await this.findPendingFor(user, id);
    if (!(await this.members.declineInvitation(invitation.id))) throw notFound(Messages.invitationInvalid);
  }

  async remove(
    caller: UserRow,
    access: ProjectAccess,
    input: { status: 'active' | 'pending'; user_id_to_remove?: string | undefined; user_email_to_remove?: string | undefined },
  ): Promise<void> {
    if (input.status === 'pending') {
      const email = input.user_email_to_remove?.trim().toLowerCase();
      if (!email || !(await this.members.withdrawInvitation(access.project.id, email))) {
        throw notFound(Messages.memberNotFound);
      }
      return;
    }
    if (!input.user_id_to_remove) throw badRequest(Messages.memberNotFound);
    if (input.user_id_to_remove === caller.id) throw badRequest(Messages.removeSelf);
    const members = await this.members.listMembers(access.project.id);
    const target = members.find((member) => member.userId === input.user_id_to_remove);
    if (!target) throw notFound(Messages.memberNotFound);
    if (target.role === 'ADMIN') throw badRequest(Messages.removeAdmin);
    if (!(await this.members.removeMember(access.project.id, target.userId))) throw notFound(Messages.memberNotFound);
    await this.events.emit('memberRemoved', { projectId: access.project.id, userId: target.userId });
  }

  private async findPendingFor(user: UserRow, id: string) {
    if (!isUuid(id)) throw notFound(Messages.invitationInvalid);
    const found = await this.members.findInvitation(id);
    if (!found || found.invitation.status !== 'pending') throw notFound(Messages.invitationInvalid);
    if (found.invitation.email !== user.email) throw forbidden(Messages.invitationOtherEmail);
    return found;
  }

  private invitationLink(id: string, inviterEmail: string, projectId: string): string {
    const query = new URLSearchParams({ id, invited_by: inviterEmail, project: projectId });
    return `${this.settings.publicUrl}/invitation?${query.toString()}`;
  }

  /** Mail is best effort: the inviter always has the link to pass on. */
  private async mailInvitation(to: string, inviter: UserRow, projectName: string, link: string): Promise<boolean> {
    if (!this.mailer) return false;
    const inviterName = `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email;
    try {
      await this.mailer.send({
        to,
        subject: `${inviterName} invited you to ${projectName} on Rehearse`,
        text: `${inviterName} (${inviter.email}) invited you to the project "${projectName}" on Rehearse.\n\nOpen this link to accept or decline:\n${link}\n`,
        html: `<p>${escapeHtml(inviterName)} (${escapeHtml(inviter.email)}) invited you to the project <strong>${escapeHtml(projectName)}</strong> on Rehearse.</p><p><a href="${escapeHtml(link)}">Accept or decline the invitation</a></p>`,
      });
      return true;
    } catch (error) {
      this.log.warn({ err: error, to }, 'invitation mail failed');
      return false;
    }
  }
}
