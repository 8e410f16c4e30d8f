import type { Db } from '../db/database.js';
import { Transactions } from '../db/transactions.js';
import { AccessCache } from './access-cache.js';
import { MembersRepo } from './members.repo.js';
import { ProjectsRepo } from './projects.repo.js';
import { SessionsRepo } from './sessions.repo.js';
import { UsersRepo } from './users.repo.js';

/** The auth repositories a multi-statement change (sign-up, project creation) works through, all on one connection. */
export interface AuthRepos {
  users: UsersRepo;
  projects: ProjectsRepo;
  sessions: SessionsRepo;
  members: MembersRepo;
}

export type AuthTransactions = Transactions<AuthRepos>;

/**
 * Transactions over the auth tables: each hands its work the auth repositories bound to it, which
 * forget what they change from `cache` at once and again after the commit.
 */
export function authTransactions(db: Db, cache: AccessCache = AccessCache.off()): AuthTransactions {
  return new Transactions(db, (tx, afterCommit) => {
    const lookups = cache.inTransaction(afterCommit);
    return {
      users: new UsersRepo(tx, lookups),
      projects: new ProjectsRepo(tx, lookups),
      sessions: new SessionsRepo(tx, lookups),
      members: new MembersRepo(tx, lookups),
    };
  });
}
