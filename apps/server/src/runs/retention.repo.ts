import type { RetentionCounts, RunRetention } from '@rehearse/contract';
import { and, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { artifacts, projectRetention, projects, runs, testCases } from '../db/schema.js';

const NO_COUNTS: RetentionCounts = { runs: 0, testCases: 0, artifactBytes: 0 };

/**
 * SQL for run retention: the projects' rules, the runs past them, and the artifacts no run names.
 * Correlated subqueries name their tables in plain SQL: drizzle leaves columns unqualified in a
 * one-table select, and an unqualified column inside a subquery means the subquery's own table.
 */
export class RetentionRepo {
  constructor(private readonly db: Db) {}

  async ruleOf(projectId: string): Promise<RunRetention> {
    const [row] = await this.db
      .select({ keepDays: projectRetention.keepDays, keepRuns: projectRetention.keepRuns })
      .from(projectRetention)
      .where(eq(projectRetention.projectId, projectId));
    return row ?? { keepDays: null, keepRuns: null };
  }

  async saveRule(projectId: string, rule: RunRetention): Promise<void> {
    await this.db
      .insert(projectRetention)
      .values({ projectId, ...rule })
      .onConflictDoUpdate({ target: projectRetention.projectId, set: { ...rule, updatedAt: sql`now()` } });
  }

  /** The projects with a limit on their runs. */
  async projectsWithRules(): Promise<{ projectId: string; rule: RunRetention }[]> {
    const rows = await this.db
      .select()
      .from(projectRetention)
      .where(or(isNotNull(projectRetention.keepDays), isNotNull(projectRetention.keepRuns)));
    return rows.map((row) => ({ projectId: row.projectId, rule: { keepDays: row.keepDays, keepRuns: row.keepRuns } }));
  }

  /**
   * The runs `rule` lets go: top-level runs (each with its reruns) whose newest activity is older than
   * `keepDays`, or past the `keepRuns` newest. A run still filling (an execution running) or holding a
   * pending Code Review fix stays, with its reruns, whatever its age.
   */
  async runsPastRule(projectId: string, rule: RunRetention, now: Date): Promise<string[]> {
    if (rule.keepDays === null && rule.keepRuns === null) return [];
    const cutoff = rule.keepDays === null ? null : new Date(now.getTime() - rule.keepDays * 86_400_000);
    // Both drivers answer raw SQL with `{ rows }` (PGlite's Results, node-postgres's QueryResult).
    const result: unknown = await this.db.execute(sql`
      with top_runs as (
        select r.id,
               greatest(r.publish_time, coalesce((select max(c.publish_time) from runs c where c.rerun_of = r.id), r.publish_time)) as last_active,
               row_number() over (order by r.publish_time desc, r.id desc) as newest
        from runs r
        where r.project_id = ${projectId} and r.rerun_of is null
      )
      select t.id from top_runs t
      where ((${cutoff}::timestamptz is not null and t.last_active < ${cutoff}::timestamptz)
             or (${rule.keepRuns}::int is not null and t.newest > ${rule.keepRuns}::int))
        and not exists (
          select 1 from runs g join oversight_items o on o.run_id = g.id and o.state = 'pending'
          where g.id = t.id or g.rerun_of = t.id)
        and not exists (
          select 1 from runs g join execution_runs e on e.run_id = g.id and e.state = 'running'
          where g.id = t.id or g.rerun_of = t.id)`);
    return (result as { rows: { id: string }[] }).rows.map((row) => row.id);
  }

  /** What these top-level runs, their reruns, and the artifacts that only they name amount to. */
  async countsOf(projectId: string, topRunIds: string[]): Promise<RetentionCounts> {
    if (topRunIds.length === 0) return NO_COUNTS;
    const group = this.groupOf(projectId, topRunIds);
    const [cases] = await this.db
      .select({ testCases: sql<number>`count(*)::int` })
      .from(testCases)
      .where(inArray(testCases.runId, group));
    const [runCount] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(runs)
      .where(inArray(runs.id, group));
    const [bytes] = await this.db
      .select({ total: sql<string | null>`sum(${artifacts.size})` })
      .from(artifacts)
      .where(
        and(
          eq(artifacts.projectId, projectId),
          sql`exists (select 1 from run_artifacts ra where ra.project_id = artifacts.project_id and ra.artifact_id = artifacts.id and ra.run_id in ${group})`,
          sql`not exists (select 1 from run_artifacts ra where ra.project_id = artifacts.project_id and ra.artifact_id = artifacts.id and ra.run_id not in ${group})`,
        ),
      );
    return { runs: runCount?.n ?? 0, testCases: cases?.testCases ?? 0, artifactBytes: Number(bytes?.total ?? 0) };
  }

  /** What the project stores: its runs, their scenarios, and its artifacts' bytes. */
  async storedBy(projectId: string): Promise<RetentionCounts> {
    const [row] = await this.stored(eq(projects.id, projectId));
    return row ? { runs: row.runs, testCases: row.testCases, artifactBytes: row.artifactBytes } : NO_COUNTS;
  }

  /** Every project's stored runs, scenarios and artifact bytes, the largest first (instance administrators). */
  async storedByProject(): Promise<({ projectId: string; name: string } & RetentionCounts)[]> {
    const rows = await this.stored();
    return rows.sort((a, b) => b.artifactBytes - a.artifactBytes || a.name.localeCompare(b.name));
  }

  private async stored(which?: SQL): Promise<({ projectId: string; name: string } & RetentionCounts)[]> {
    const rows = await this.db
      .select({
        projectId: projects.id,
        name: projects.name,
        runs: sql<number>`(select count(*)::int from runs r where r.project_id = projects.id)`,
        testCases: sql<number>`(select count(*)::int from test_cases tc where tc.project_id = projects.id)`,
        artifactBytes: sql<string>`(select coalesce(sum(a.size), 0)::bigint from artifacts a where a.project_id = projects.id)`,
      })
      .from(projects)
      .where(which);
    return rows.map((row) => ({ ...row, artifactBytes: Number(row.artifactBytes) }));
  }

  /** Deletes these top-level runs and their reruns (scenarios, comments and artifact names go with them); answers how many runs. */
  async deleteRuns(projectId: string, topRunIds: string[]): Promise<number> {
    if (topRunIds.length === 0) return 0;
    const deleted = await this.db
      .delete(runs)
      .where(and(eq(runs.projectId, projectId), or(inArray(runs.id, topRunIds), inArray(runs.rerunOf, topRunIds))))
      .returning({ id: runs.id });
    return deleted.length;
  }

  /**
   * Forgets the artifacts of every project that no run and no Code Review item names, once they are
   * older than `uploadedBefore` (an artifact is uploaded just before the run that names it); answers
   * the ids and bytes forgotten.
   */
  async deleteUnnamedArtifacts(uploadedBefore: Date): Promise<{ id: string; size: number }[]> {
    return this.db
      .delete(artifacts)
      .where(
        and(
          lt(artifacts.createdAt, uploadedBefore),
          sql`not exists (select 1 from run_artifacts ra where ra.project_id = artifacts.project_id and ra.artifact_id = artifacts.id)`,
          sql`not exists (select 1 from oversight_items o where o.project_id = artifacts.project_id
                and (o.before_screenshot_id = artifacts.id or o.after_screenshot_id = artifacts.id))`,
        ),
      )
      .returning({ id: artifacts.id, size: artifacts.size });
  }

  /** Which of these artifact ids some project still stores (the bytes on disk are shared by content). */
  async storedArtifactIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectDistinct({ id: artifacts.id }).from(artifacts).where(inArray(artifacts.id, ids));
    return new Set(rows.map((row) => row.id));
  }

  private groupOf(projectId: string, topRunIds: string[]) {
    return this.db
      .select({ id: runs.id })
      .from(runs)
      .where(and(eq(runs.projectId, projectId), or(inArray(runs.id, topRunIds), inArray(runs.rerunOf, topRunIds))));
  }
}
