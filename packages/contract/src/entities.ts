import { z } from 'zod';

export const ProjectRoleSchema = z.enum(['ADMIN', 'MEMBER']);

/** The signed-in person (spec 01 §3 User). */
export const User = z.object({
  userId: z.string(),
  name: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  email: z.string(),
  country: z.string().nullable(),
  phone: z.string().nullable(),
  /** The instance administrator (the first user to sign up): sees the instance-administration screens. */
  instanceAdmin: z.boolean(),
  customAttributes: z.object({
    /** How many more projects this user may create. */
    allowedProjectsCount: z.number().int(),
    companyName: z.string().nullable(),
    allowDeleteProjects: z.boolean(),
  }),
});
export type User = z.infer<typeof User>;

/** A project as its member sees it (spec 01 §3 Project). */
export const Project = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  role: ProjectRoleSchema,
  url: z.string().nullable(),
  demo: z.boolean(),
  description: z.string().nullable(),
  privateRepo: z.boolean(),
  configuredPrivateRepo: z.boolean(),
  privateRepoURL: z.string().nullable(),
  is_expired: z.boolean(),
  time_left: z.object({ days: z.number().int() }),
  expiresAt: z.string(),
  /** User id of the project's admin. */
  projectAdmin: z.string().nullable(),
  /** False while the project is on trial: invites are limited to the allowed domains. */
  allowInvite: z.boolean(),
  maxExecutionThreads: z.number().int(),
  createdAt: z.string(),
});
export type Project = z.infer<typeof Project>;

export const MemberStatus = z.enum(['active', 'pending']);

/** A row of the members table: a member, or an invitation still pending. */
export const Member = z.object({
  name: z.string(),
  user_email: z.string(),
  /** The user's id for members; the invitation's id for pending invitations. */
  user_id: z.string(),
  status: MemberStatus,
  role: ProjectRoleSchema.nullable(),
  isAdmin: z.boolean(),
});
export type Member = z.infer<typeof Member>;

export const AccessKey = z.object({
  id: z.string(),
  name: z.string(),
  /** The whole token right after creation; a masked hint afterwards. */
  token: z.string(),
  projectId: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** When the key stops working; null never. */
  expiresAt: z.string().nullable(),
  /** Whether runs with this key get plain secret test data (keys a project admin created). */
  readsSecrets: z.boolean(),
});
export type AccessKey = z.infer<typeof AccessKey>;

export const InvitationSummary = z.object({
  id: z.string(),
  project_id: z.string(),
  project_name: z.string(),
  email: z.string(),
  invited_by_email: z.string(),
  invited_by_name: z.string(),
  status: z.enum(['pending', 'accepted', 'declined']),
});
export type InvitationSummary = z.infer<typeof InvitationSummary>;

export const SentInvitation = z.object({
  id: z.string(),
  email: z.string(),
  /** Copyable link the inviter can pass on when mail is not configured. */
  link: z.string(),
  mailed: z.boolean(),
});
export type SentInvitation = z.infer<typeof SentInvitation>;
