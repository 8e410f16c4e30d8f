import type { ProjectRole } from '@rehearse/contract';
import type { Database } from '../db/database.js';
import { RowCache, type RowCacheOptions } from '../db/row-cache.js';
import type { AccessKeyRow, InvitationRow, MemberRecord, ProjectRow, SessionRow, UserRow } from '../db/rows.js';

/** A session with its user: what `SessionsRepo.findWithUser` reads for every signed-in request. */
export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

/** An access key with its creator: what `AccessKeysRepo.findWithUser` reads for every call a key makes. */
export interface AccessKeyWithUser {
  key: AccessKeyRow;
  user: UserRow;
}

/** A project with a member's role: what `ProjectsRepo.findWithRole` reads for every project call. */
export interface ProjectWithMemberRole {
  project: ProjectRow;
  role: ProjectRole;
}

/** A project's members and pending invitations: what the Members page lists (`MembersRepo.listAll`). */
export interface ProjectMembership {
  members: MemberRecord[];
  pending: InvitationRow[];
}

export type AccessCacheOptions = RowCacheOptions;

/** What the auth repositories use of the cache: reading through it, and forgetting what they change. */
export type AccessLookups = Pick<
  AccessCache,
  | 'session'
  | 'accessKey'
  | 'projectRole'
  | 'membership'
  | 'forgetSession'
  | 'forgetAccessKeys'
  | 'forgetUser'
  | 'forgetProject'
  | 'forgetMember'
  | 'forgetInvitations'
>;

const DEFAULTS: AccessCacheOptions = { maxEntries: 5_000, ttlMs: 30_000 };

const byDatabase = new WeakMap<object, AccessCache>();

/**
 * The reads every request makes before its own work (its session or access key with the user,
 * and its project with the caller's role), kept in memory so that most requests cost the
 * database nothing for authentication and authorization.
 *
 * Exact, not eventually right: every statement that changes what an entry holds (the sessions,
 * access_keys, users, projects and project_members rows it was read from) forgets it in the
 * repository that makes the statement, before the call that made the change answers; a
 * transaction forgets again after it commits. A read that was under way while something was
 * forgotten does not store what it read (it may have read the row as it was before). Time-bound facts (a session's expiry and
 * idle limit, a licence's end) are not cached decisions: the services check them against the
 * clock on every hit. Only access is cached: unknown tokens and non-members are read each time, so
 * nothing that grants access (a sign-in, an accepted invitation) has to forget anything.
 *
 * On only where one process is the only writer: see `forDatabase`.
 */
export class AccessCache {
  private readonly sessions: RowCache<SessionWithUser>;
  private readonly accessKeys: RowCache<AccessKeyWithUser>;
  private readonly roles: RowCache<ProjectWithMemberRole>;
  private readonly memberships: RowCache<ProjectMembership>;

  private constructor(
    readonly enabled: boolean,
    options: AccessCacheOptions,
  ) {
    this.sessions = new RowCache(options, ({ session, user }) => ({ session: { ...session }, user: { ...user } }));
    this.accessKeys = new RowCache(options, ({ key, user }) => ({ key: { ...key }, user: { ...user } }));
    this.roles = new RowCache(options, ({ project, role }) => ({ project: { ...project }, role }));
    this.memberships = new RowCache(options, ({ members, pending }) => ({
      members: members.map((member) => ({ ...member })),
      pending: pending.map((invitation) => ({
        ...invitation,
        createdAt: new Date(invitation.createdAt),
        respondedAt: invitation.respondedAt && new Date(invitation.respondedAt),
      })),
    }));
  }

  /** A cache that keeps nothing: every lookup reads the database. */
  static off(): AccessCache {
    return new AccessCache(false, DEFAULTS);
  }

  static on(options: Partial<AccessCacheOptions> = {}): AccessCache {
    return new AccessCache(true, { ...DEFAULTS, ...options });
  }

  /**
   * The cache of an open database, one per database object, so that everything in this process
   * that writes through repositories on it (the server, an admin command run in the same process)
   * forgets from the same cache.
   *
   * On for PGlite, off for PostgreSQL. PGlite can be opened by one process only, so this server is
   * the only writer of the rows the cache copies and its own forgets are all the forgets there are.
   * PostgreSQL may be shared by several servers (REHEARSE_ROLES, API replicas, `npm run admin`):
   * another server's logout, member removal or user disabling never reaches this process's memory,
   * and even a LISTEN/NOTIFY forget would arrive after that server had answered, so a request here
   * in between would still be let in. There the reads stay in the database, where they are cheap
   * (prepared statements on a pool that serves requests in parallel).
   */
  static forDatabase(database: Pick<Database, 'kind' | 'db'>, options: Partial<AccessCacheOptions> = {}): AccessCache {
    let cache = byDatabase.get(database.db);
    if (!cache) {
      cache = database.kind === 'pglite' ? AccessCache.on(options) : AccessCache.off();
      byDatabase.set(database.db, cache);
    }
    return cache;
  }

  /** Hits and misses since start (tests and benchmarks). */
  stats(): { hits: number; misses: number; sessions: number; roles: number } {
    const sessions = this.sessions.stats();
    const keys = this.accessKeys.stats();
    const roles = this.roles.stats();
    const memberships = this.memberships.stats();
    return {
      hits: sessions.hits + keys.hits + roles.hits + memberships.hits,
      misses: sessions.misses + keys.misses + roles.misses + memberships.misses,
      sessions: sessions.size,
      roles: roles.size,
    };
  }

  /** A session with its user: from memory, or from `load` (kept when it found a user). */
  async session(
    tokenHash: string,
    load: () => Promise<SessionWithUserOrMissing | undefined>,
  ): Promise<SessionWithUserOrMissing | undefined> {
    if (!this.enabled) return load();
    return this.sessions.read(tokenHash, load, (found) => (found?.user ? { session: found.session, user: found.user } : undefined));
  }

  /** An access key with its creator: from memory, or from `load` (kept when it found both). */
  async accessKey(
    tokenHash: string,
    load: () => Promise<AccessKeyWithUserOrMissing | undefined>,
  ): Promise<AccessKeyWithUserOrMissing | undefined> {
    if (!this.enabled) return load();
    return this.accessKeys.read(tokenHash, load, (found) => (found?.user ? { key: found.key, user: found.user } : undefined));
  }

  /** A project with this user's role: from memory, or from `load` (kept when the user is a member). */
  async projectRole(
    projectId: string,
    userId: string,
    load: () => Promise<ProjectWithRoleOrNone | undefined>,
  ): Promise<ProjectWithRoleOrNone | undefined> {
    if (!this.enabled) return load();
    return this.roles.read(roleKey(projectId, userId), load, (found) =>
      found?.role ? { project: found.project, role: found.role } : undefined,
    );
  }

  /** A project's members and pending invitations: from memory, or from `load`. */
  async membership(projectId: string, load: () => Promise<ProjectMembership>): Promise<ProjectMembership> {
    if (!this.enabled) return load();
    return this.memberships.read(projectId, load, (found) => found);
  }

  /** A session was deleted or changed. */
  forgetSession(tokenHash: string): void {
    if (this.enabled) this.sessions.forget(tokenHash);
  }

  /** Access keys were changed or deleted: those `matches` picks go. */
  forgetAccessKeys(matches: (key: AccessKeyRow) => boolean): void {
    if (this.enabled) this.accessKeys.forgetWhere((_tokenHash, { key }) => matches(key));
  }

  /** A user's row changed, or their sessions ended: their sessions, keys and memberships go. */
  forgetUser(userId: string): void {
    if (!this.enabled) return;
    this.sessions.forgetWhere((_tokenHash, { user }) => user.id === userId);
    this.accessKeys.forgetWhere((_tokenHash, { user }) => user.id === userId);
    this.roles.forgetWhere((key) => key.endsWith(`:${userId}`));
    // Their name and email are in the member lists of their projects.
    this.memberships.forgetWhere((_projectId, { members }) => members.some((member) => member.userId === userId));
  }

  /** A project's row changed or it was deleted: every member's entry for it goes. */
  forgetProject(projectId: string): void {
    if (!this.enabled) return;
    this.accessKeys.forgetWhere((_tokenHash, { key }) => key.projectId === projectId);
    this.roles.forgetWhere((_key, { project }) => project.id === projectId);
    this.memberships.forget(projectId);
  }

  /** One membership changed (removed, added). */
  forgetMember(projectId: string, userId: string): void {
    if (!this.enabled) return;
    this.roles.forget(roleKey(projectId, userId));
    this.memberships.forget(projectId);
  }

  /** A project's invitations changed (sent, withdrawn, accepted, declined). */
  forgetInvitations(projectId: string): void {
    if (this.enabled) this.memberships.forget(projectId);
  }

  /**
   * The cache as repositories bound to a transaction use it: they read the transaction's own view
   * (never the cache), and each forget happens at once and again after the commit, since a read
   * outside the transaction between its statement and its commit still saw the old row.
   */
  inTransaction(afterCommit: (work: () => void) => void): AccessLookups {
    const nowAndAfterCommit = (forget: () => void) => {
      forget();
      afterCommit(forget);
    };
    return {
      session: async (_tokenHash, load) => load(),
      accessKey: async (_tokenHash, load) => load(),
      projectRole: async (_projectId, _userId, load) => load(),
      membership: async (_projectId, load) => load(),
      forgetSession: (tokenHash) => nowAndAfterCommit(() => this.forgetSession(tokenHash)),
      forgetAccessKeys: (matches) => nowAndAfterCommit(() => this.forgetAccessKeys(matches)),
      forgetUser: (userId) => nowAndAfterCommit(() => this.forgetUser(userId)),
      forgetProject: (projectId) => nowAndAfterCommit(() => this.forgetProject(projectId)),
      forgetMember: (projectId, userId) => nowAndAfterCommit(() => this.forgetMember(projectId, userId)),
      forgetInvitations: (projectId) => nowAndAfterCommit(() => this.forgetInvitations(projectId)),
    };
  }

  /** Forgets everything (a test that wrote the tables behind the server's back). */
  clear(): void {
    this.sessions.clear();
    this.roles.clear();
    this.memberships.clear();
  }
}

type SessionWithUserOrMissing = { session: SessionRow; user: UserRow | null };
type AccessKeyWithUserOrMissing = { key: AccessKeyRow; user: UserRow | null };
type ProjectWithRoleOrNone = { project: ProjectRow; role: ProjectRole | null };

function roleKey(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}
