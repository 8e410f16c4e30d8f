import type { ProjectRole } from '@rehearse/contract';
import type { ProjectRow, UserRow } from '../db/rows.js';

/** Who is making a request: a signed-in person, or an access key acting for one project. */
export type Caller =
  | { kind: 'session'; user: UserRow; tokenHash: string }
  | {
      kind: 'accessKey';
      user: UserRow;
      accessKeyId: string;
      projectId: string;
      /** What the key may do beyond its project: 'run' keys belong to one job (auth/job-keys.ts). */
      scope: AccessKeyScope | null;
      /** Whether the key may read plain secret and totp test data (a project admin's or the server's key). */
      readsSecrets: boolean;
    };

/** What a key may do beyond its project: 'run' keys belong to one job (auth/job-keys.ts). */
export type AccessKeyScope = 'run';

/** Whom work is done for: a caller, or a member the server acts for without a request (a scheduled start). */
export interface Actor {
  user: UserRow;
}

/** The name shown for whom work is done: their first and last name, or their email when they gave neither. */
export function displayName(actor: Actor): string {
  return `${actor.user.firstName} ${actor.user.lastName}`.trim() || actor.user.email;
}

/** The project a call is about, after membership, role and licence were checked. */
export interface ProjectAccess {
  project: ProjectRow;
  role: ProjectRole;
  isExpired: boolean;
}
