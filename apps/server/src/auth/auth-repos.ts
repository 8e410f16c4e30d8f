import type { Db } from '../db/database.js';
import { Transactions } from '../db/transactions.js';
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

/** Transactions over the auth tables: each hands its work the auth repositories bound to it. */
export function authTransactions(db: Db): AuthTransactions {
  return new Transactions(db, (tx) => ({
    users: new UsersRepo(tx),
    projects: new ProjectsRepo(tx),
    sessions: new SessionsRepo(tx),
    members: new MembersRepo(tx),
  }));
}
