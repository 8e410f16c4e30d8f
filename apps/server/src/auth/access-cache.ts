import { performance } from 'node:perf_hooks';
import type { ProjectRole } from '@rehearse/contract';
import type { Database } from '../db/database.js';
import type { ProjectRow } from './projects.repo.js';
import type { SessionRow } from './sessions.repo.js';
import type { UserRow } from './users.repo.js';

/** A session with its user: what `SessionsRepo.findWithUser` reads for every signed-in request. */
export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

/** A project with a member's role: what `ProjectsRepo.findWithRole` reads for every project call. */
export interface ProjectWithMemberRole {
  project: ProjectRow;
  role: ProjectRole;
}

export interface AccessCacheOptions {
  /** Entries kept per lookup; the least recently used go first. */
  maxEntries: number;
  /** How long an entry may be answered at most, whatever happens: a backstop, not the rule. */
  ttlMs: number;
}

/** What the auth repositories use of the cache: reading through it, and forgetting what they change. */
export type AccessLookups = Pick<
  AccessCache,
  'session' | 'projectRole' | 'forgetSession' | 'forgetUser' | 'forgetProject' | 'forgetMember'
>;

const DEFAULTS: AccessCacheOptions = { maxEntries: 5_000, ttlMs: 30_000 };

const byDatabase = new WeakMap<object, AccessCache>();

interface Entry<V> {
  value: V;
  /** performance.now() when stored: monotonic, so a wall-clock jump neither keeps nor drops entries. */
  storedAt: number;
}

/**
 * The two reads every request makes before its own work (its session with the user, and its
 * project with the caller's role), kept in memory so that most requests cost the database nothing
 * for authentication and authorization.
 *
 * Exact, not eventually right: every statement that changes what an entry holds (the sessions,
 * users, projects and project_members rows it was read from) forgets it in the repository that
 * makes the statement, before the call that made the change answers; a transaction forgets again
 * after it commits. A read that was under way while something was forgotten does not store what
 * it read (it may have read the row as it was before). Time-bound facts (a session's expiry and
 * idle limit, a licence's end) are not cached decisions: the services check them against the
 * clock on every hit. Only access is cached: unknown tokens and non-members are read each time, so
 * nothing that grants access (a sign-in, an accepted invitation) has to forget anything.
 *
 * On only where one process is the only writer: see `forDatabase`.
 */
export class AccessCache {
  private readonly sessions = new Map<string, Entry<SessionWithUser>>();
  private readonly roles = new Map<string, Entry<ProjectWithMemberRole>>();
  /** Moves on at every forget: a read that began before it may have read what was forgotten. */
  private generation = 0;
  private hitCount = 0;
  private missCount = 0;

  private constructor(
    readonly enabled: boolean,
    private readonly options: AccessCacheOptions,
  ) {}

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
    return { hits: this.hitCount, misses: this.missCount, sessions: this.sessions.size, roles: this.roles.size };
  }

  /** A session with its user: from memory, or from `load` (kept when it found a user). */
  async session(
    tokenHash: string,
    load: () => Promise<SessionWithUserOrMissing | undefined>,
  ): Promise<SessionWithUserOrMissing | undefined> {
    if (!this.enabled) return load();
    const hit = this.lookup(this.sessions, tokenHash);
    if (hit) return { session: { ...hit.session }, user: { ...hit.user } };
    const generation = this.generation;
    const found = await load();
    if (found?.user && generation === this.generation) {
      this.store(this.sessions, tokenHash, { session: { ...found.session }, user: { ...found.user } });
    }
    return found;
  }

  /** A project with this user's role: from memory, or from `load` (kept when the user is a member). */
  async projectRole(
    projectId: string,
    userId: string,
    load: () => Promise<ProjectWithRoleOrNone | undefined>,
  ): Promise<ProjectWithRoleOrNone | undefined> {
    if (!this.enabled) return load();
    const key = roleKey(projectId, userId);
    const hit = this.lookup(this.roles, key);
    if (hit) return { project: { ...hit.project }, role: hit.role };
    const generation = this.generation;
    const found = await load();
    if (found?.role && generation === this.generation) {
      this.store(this.roles, key, { project: { ...found.project }, role: found.role });
    }
    return found;
  }

  /** A session was deleted or changed. */
  forgetSession(tokenHash: string): void {
    if (!this.enabled) return;
    this.generation += 1;
    this.sessions.delete(tokenHash);
  }

  /** A user's row changed, or their sessions ended: their sessions and memberships go. */
  forgetUser(userId: string): void {
    if (!this.enabled) return;
    this.generation += 1;
    for (const [key, entry] of this.sessions) if (entry.value.user.id === userId) this.sessions.delete(key);
    for (const key of this.roles.keys()) if (key.endsWith(`:${userId}`)) this.roles.delete(key);
  }

  /** A project's row changed or it was deleted: every member's entry for it goes. */
  forgetProject(projectId: string): void {
    if (!this.enabled) return;
    this.generation += 1;
    for (const [key, entry] of this.roles) if (entry.value.project.id === projectId) this.roles.delete(key);
  }

  /** One membership changed (removed, added). */
  forgetMember(projectId: string, userId: string): void {
    if (!this.enabled) return;
    this.generation += 1;
    this.roles.delete(roleKey(projectId, userId));
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
      projectRole: async (_projectId, _userId, load) => load(),
      forgetSession: (tokenHash) => nowAndAfterCommit(() => this.forgetSession(tokenHash)),
      forgetUser: (userId) => nowAndAfterCommit(() => this.forgetUser(userId)),
      forgetProject: (projectId) => nowAndAfterCommit(() => this.forgetProject(projectId)),
      forgetMember: (projectId, userId) => nowAndAfterCommit(() => this.forgetMember(projectId, userId)),
    };
  }

  /** Forgets everything (a test that wrote the tables behind the server's back). */
  clear(): void {
    this.generation += 1;
    this.sessions.clear();
    this.roles.clear();
  }

  private lookup<V>(map: Map<string, Entry<V>>, key: string): V | undefined {
    const entry = map.get(key);
    if (!entry || performance.now() - entry.storedAt > this.options.ttlMs) {
      if (entry) map.delete(key);
      this.missCount += 1;
      return undefined;
    }
    // Map keeps insertion order: taking the entry out and back in makes it the most recently used.
    map.delete(key);
    map.set(key, entry);
    this.hitCount += 1;
    return entry.value;
  }

  private store<V>(map: Map<string, Entry<V>>, key: string, value: V): void {
    map.delete(key);
    map.set(key, { value, storedAt: performance.now() });
    while (map.size > this.options.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }
}

type SessionWithUserOrMissing = { session: SessionRow; user: UserRow | null };
type ProjectWithRoleOrNone = { project: ProjectRow; role: ProjectRole | null };

function roleKey(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}
