import type { Db } from '../db/database.js';
import { Transactions } from '../db/transactions.js';
import { RunsRepo } from '../runs/runs.repo.js';
import { ExecutionJobsRepo } from './execution-jobs.repo.js';
import { ExecutionsRepo } from './executions.repo.js';

/**
 * The repositories an execution's start, halt and end change together: its running flag, its
 * run and jobs, and its run report, which the runs domain's repository writes.
 */
export interface ExecutionRepos {
  executions: ExecutionsRepo;
  jobs: ExecutionJobsRepo;
  runs: RunsRepo;
}

export type ExecutionTransactions = Transactions<ExecutionRepos>;

/** Transactions over an execution's tables: each hands its work the repositories bound to it. */
export function executionTransactions(db: Db): ExecutionTransactions {
  return new Transactions(db, (tx) => ({ executions: new ExecutionsRepo(tx), jobs: new ExecutionJobsRepo(tx), runs: new RunsRepo(tx) }));
}
