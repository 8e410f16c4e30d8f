import { NOTHING_STORED, type RetentionCounts, type RunRetention, DAY_MS } from '@rehearse/contract';
import { and, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { artifacts, projectRetention, projects, runs } from '../db/schema.js';

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
   * pending Code Review fix stays, with its reruns, whatever its age. A select of `id`, to be used as
   * a subquery: at a year of runs the answer is tens of thousands of ids, more than one statement
   * may bind as parameters, so counting and deleting happen in the database.
   */
  private pastRule(projectId: string, rule: RunRetention, now: Date): SQL | null {
    if (rule.keepDays === null && rule.keepRuns === null) return null;
    const cutoff = rule.keepDays === null ? null : new Date(now.getTime() - rule.keepDays * DAY_MS);
    // The runs kept whatever the rule are found from their (few) holders, once, rather than by a
    // subquery per run: the oversight and execution tables are read by project and state.
    return sql`
      with top_runs as (
        select r.id, r.publish_time, row_number() over (order by r.publish_time desc, r.id desc) as newest
        from runs r
        where r.project_id = ${projectId} and r.rerun_of is null
      ), last_reruns as (
        select c.rerun_of as id, max(c.publish_time) as publish_time
        from runs c
        where c.project_id = ${projectId} and c.rerun_of is not null
        group by c.rerun_of
      ), held as (
        select coalesce(g.rerun_of, g.id) as id
        from oversight_items o join runs g on g.id = o.run_id
        where o.project_id = ${projectId} and o.state = 'pending'
        union
        select coalesce(g.rerun_of, g.id)
        from execution_runs e join runs g on g.id = e.run_id
        where e.project_id = ${projectId} and e.state = 'running'
      )
      select t.id from top_runs t left join last_reruns l on l.id = t.id
      where ((${cutoff}::timestamptz is not null and greatest(t.publish_time, coalesce(l.publish_time, t.publish_time)) < ${cutoff}::timestamptz)
             or (${rule.keepRuns}::int is not null and t.newest > ${rule.keepRuns}::int))
        and not exists (select 1 from held h where h.id = t.id)`;
  }

  /** The top-level runs `rule` lets go (see `pastRule`), oldest first. */
  async runsPastRule(projectId: string, rule: RunRetention, now: Date): Promise<string[]> {
    const past = this.pastRule(projectId, rule, now);
    if (!past) return [];
    const rows = await this.rows<{ id: string }>(
      sql`select p.id from (${past}) p join runs r on r.id = p.id order by r.publish_time, r.id`,
    );
    return rows.map((row) => row.id);
  }

  /** What the runs `rule` lets go, their reruns, and the artifacts that only they name amount to. */
  async countsPastRule(projectId: string, rule: RunRetention, now: Date): Promise<RetentionCounts> {
    const past = this.pastRule(projectId, rule, now);
    if (!past) return NOTHING_STORED;
    const [row] = await this.rows<{ runs: number; test_cases: number; bytes: string | null }>(sql`
      with past as (${past}),
      doomed as (
        select g.id from runs g
        where g.project_id = ${projectId} and (g.id in (select id from past) or g.rerun_of in (select id from past))
      )
      select (select count(*)::int from doomed) as runs,
             -- A run's total_scenarios counts its test cases (kept by upload and append): summed
             -- over the runs, not counted over a year of test cases.
             (select coalesce(sum(r.total_scenarios), 0)::int from runs r where r.id in (select id from doomed)) as test_cases,
             (select sum(a.size) from artifacts a
              where a.project_id = ${projectId}
                and exists (select 1 from run_artifacts ra where ra.project_id = a.project_id and ra.artifact_id = a.id
                            and ra.run_id in (select id from doomed))
                and not exists (select 1 from run_artifacts ra where ra.project_id = a.project_id and ra.artifact_id = a.id
                                and ra.run_id not in (select id from doomed))) as bytes`);
    return { runs: row?.runs ?? 0, testCases: row?.test_cases ?? 0, artifactBytes: Number(row?.bytes ?? 0) };
  }

  /** Raw SQL's rows: both drivers answer it with `{ rows }` (PGlite's Results, node-postgres's QueryResult). */
  private async rows<Row>(query: SQL): Promise<Row[]> {
    const result: unknown = await this.db.execute(query);
    return (result as { rows: Row[] }).rows;
  }

  /** What the project stores: its runs, their scenarios, and its artifacts' bytes. */
  async storedBy(projectId: string): Promise<RetentionCounts> {
    const [row] = await this.stored(eq(projects.id, projectId));
    return row ? { runs: row.runs, testCases: row.testCases, artifactBytes: row.artifactBytes } : NOTHING_STORED;
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
        // The totals the runs table's triggers keep: a run's total_scenarios counts its test cases.
        runs: sql<number>`coalesce((select t.runs from project_run_totals t where t.project_id = projects.id), 0)`,
        testCases: sql<number>`coalesce((select t.scenarios from project_run_totals t where t.project_id = projects.id), 0)::int`,
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
}
