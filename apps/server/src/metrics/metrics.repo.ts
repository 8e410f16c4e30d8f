import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { executionJobs, scenarioJobs } from '../db/schema.js';

/** The queues /metrics reports: execution jobs (worker threads) and "Run scenario" jobs. */
import type { JobKind } from '../events/domain-events.js';

export type { JobKind };

export interface QueueCounts {
  kind: JobKind;
  queued: number;
  running: number;
}

/** Queue depth for /metrics (and for an autoscaler's query, see deploy/kubernetes). */
export class MetricsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Queued and running jobs of each kind, read from the shared tables: every server answers the
   * same figures, so a dashboard or autoscaler takes their max, not their sum.
   */
  async queueCounts(): Promise<QueueCounts[]> {
    const [execution, scenario] = await Promise.all([
      this.db
        .select({ state: executionJobs.state, count: sql<number>`count(*)::int` })
        .from(executionJobs)
        .where(inArray(executionJobs.state, ['queued', 'running']))
        .groupBy(executionJobs.state),
      this.db
        .select({ state: scenarioJobs.state, count: sql<number>`count(*)::int` })
        .from(scenarioJobs)
        .where(inArray(scenarioJobs.state, ['queued', 'running']))
        .groupBy(scenarioJobs.state),
    ]);
    const of = (kind: JobKind, rows: Array<{ state: string; count: number }>): QueueCounts => ({
      kind,
      queued: Number(rows.find((row) => row.state === 'queued')?.count ?? 0),
      running: Number(rows.find((row) => row.state === 'running')?.count ?? 0),
    });
    return [of('execution', execution), of('scenario', scenario)];
  }
}
