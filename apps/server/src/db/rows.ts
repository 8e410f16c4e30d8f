import type { accessKeys, invitations, projects, sessions, users } from '../db/schema.js';

// The rows the auth repositories return and the access cache keeps. They live apart from both so
// that the cache and the repositories that forget entries in it import them one way only.

export type UserRow = typeof users.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type AccessKeyRow = typeof accessKeys.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;

/** A project member as the Members page lists them. */
export interface MemberRecord {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'ADMIN' | 'MEMBER';
}
