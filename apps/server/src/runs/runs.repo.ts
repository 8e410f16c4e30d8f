import { randomUUID } from 'node:crypto';
import { type WithSubquery, and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { artifacts, comments, executionRuns, executions, projectRunTotals, runArtifacts, runs, testCases } from '../db/schema.js';

export type RunRow = typeof runs.$inferSelect;
export type TestCaseRow = typeof testCases.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;

export interface RunListFilter {
  since: Date;
  status: 'PASSED' | 'FAILED' | null;
  search: string;
  sortField: 'publishTime' | 'name' | 'status' | 'executionTime';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

// The same expression as runs_list_duration_idx's, so that sorting by it reads that index.
const executionTime = sql<number>`(extract(epoch from (${runs.endTime} - ${runs.startTime})) * 1000)::float8`;
// Spelled out: drizzle would print the outer column unqualified, and inside the subquery "id" means tc.id.
const firstFailedStep = sql<string | null>`(
  select tc.failed_step_text from test_cases tc
  where tc.run_id = "runs"."id" and tc.failed_step_text is not null
  order by tc.position limit 1)`;
// Whether any rerun points at the row (runs_rerun_of_idx): a page none of whose runs was rerun skips the reruns query.
// A correlated scalar subquery, not EXISTS: the planner may run an EXISTS as one hashed scan of every run.
const hasReruns = sql<boolean>`coalesce((select true from runs r where r.rerun_of = "runs"."id" limit 1), false)`;
// Scenarios that failed, then passed on a retry (`rehearse run --retry`): the runner marks them in the report.
const flakyScenarios = sql<number>`(
  select count(*)::int from test_cases tc
  where tc.run_id = "runs"."id" and tc.report->>'flaky' = 'true')`;

/**
 * Beyond this many matching runs the reports list stops counting: it scrolls page by page, so
 * "100 pages or more" is all it needs, and counting 100,000 runs costs more than a page.
 */
export const COUNT_CAP = 1_000;

/** Escapes LIKE wildcards so a search for "50%" finds "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** Records which artifacts a run names (a retried upload names them again: nothing changes). */
function insertRunArtifacts(db: Db, projectId: string, runId: string, artifactIds: string[]) {
  return db
    .insert(runArtifacts)
    .values(artifactIds.map((artifactId) => ({ runId, projectId, artifactId })))
    .onConflictDoNothing();
}

async function nameArtifacts(db: Db, projectId: string, runId: string, artifactIds: string[]): Promise<void> {
  if (artifactIds.length > 0) await insertRunArtifacts(db, projectId, runId, artifactIds);
}

/** SQL for runs, their scenarios, comments and artifact ownership. */
export class RunsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Records an uploaded artifact. Uploading known bytes again renews its time: retention leaves an
   * artifact no run names yet alone for a day, the time its run has to be uploaded.
   */
  async addArtifact(projectId: string, id: string, contentType: string, size: number): Promise<void> {
    await this.db
      .insert(artifacts)
      .values({ projectId, id, contentType, size })
      .onConflictDoUpdate({ target: [artifacts.projectId, artifacts.id], set: { createdAt: sql`now()` } });
  }

  /** Bytes of the project's artifacts, each counted once. */
  async artifactBytes(projectId: string): Promise<number> {
    const [row] = await this.db
      .select({ bytes: sql<string | null>`sum(${artifacts.size})` })
      .from(artifacts)
      .where(eq(artifacts.projectId, projectId));
    return Number(row?.bytes ?? 0);
  }

  async artifactOf(projectId: string, id: string): Promise<{ contentType: string } | undefined> {
    const [row] = await this.db
      .select({ contentType: artifacts.contentType })
      .from(artifacts)
      .where(and(eq(artifacts.projectId, projectId), eq(artifacts.id, id)));
    return row;
  }

  async knownArtifacts(projectId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: artifacts.id })
      .from(artifacts)
      .where(and(eq(artifacts.projectId, projectId), inArray(artifacts.id, ids)));
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Stores a run and its scenarios together; an upload key seen before returns the first run's id,
   * and `sameBody` says whether that first upload carried the same digest.
   */
  async insertRun(
    run: typeof runs.$inferInsert,
    cases: Omit<typeof testCases.$inferInsert, 'runId'>[],
    artifactIds: string[],
  ): Promise<{ id: string; created: boolean; sameBody: boolean }> {
    // One statement, so one round trip that is atomic by itself: the run, its scenarios and the
    // artifacts it names, as data-modifying CTEs around an id chosen here. On PGlite a transaction
    // of several statements holds the only session across as many turns of a busy event loop.
    const id = randomUUID();
    const storedRun = this.db.$with('stored_run').as(
      this.db
        .insert(runs)
        .values({ ...run, id })
        .returning({ id: runs.id }),
    );
    const parts: WithSubquery[] = [storedRun];
    if (cases.length > 0) {
      parts.push(
        this.db.$with('stored_cases').as(
          this.db
            .insert(testCases)
            .values(cases.map((c) => ({ ...c, runId: id })))
            .returning({ id: testCases.id }),
        ),
      );
    }
    if (artifactIds.length > 0) {
      parts.push(
        this.db
          .$with('named_artifacts')
          .as(insertRunArtifacts(this.db, run.projectId, id, artifactIds).returning({ id: runArtifacts.runId })),
      );
    }
    try {
      await this.db
        .with(...parts)
        .select({ id: storedRun.id })
        .from(storedRun);
      return { id, created: true, sameBody: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const [existing] = await this.db
        .select({ id: runs.id, uploadDigest: runs.uploadDigest })
        .from(runs)
        .where(and(eq(runs.projectId, run.projectId), eq(runs.uploadKey, run.uploadKey)));
      if (!existing) throw error;
      // Runs stored before digests were kept cannot be compared: the retry is taken as the same.
      const sameBody = existing.uploadDigest === null || existing.uploadDigest === run.uploadDigest;
      return { id: existing.id, created: false, sameBody };
    }
  }

  /**
   * Appends test cases to an existing run (an execution's report) and recounts its totals. Each
   * case's append key is unique within the run, so a retried job's scenario is stored once.
   */
  async appendTestCases(
    runId: string,
    cases: (Omit<typeof testCases.$inferInsert, 'runId' | 'position'> & { appendKey: string })[],
    artifactIds: string[],
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      // Serializes appends to one run so positions follow arrival order.
      const [locked] = await tx.select({ id: runs.id, projectId: runs.projectId }).from(runs).where(eq(runs.id, runId)).for('update');
      if (!locked) return 0;
      await nameArtifacts(tx, locked.projectId, runId, artifactIds);
      const [last] = await tx
        .select({ value: sql<number>`coalesce(max(${testCases.position}) + 1, 0)::int` })
        .from(testCases)
        .where(eq(testCases.runId, runId));
      let position = last?.value ?? 0;
      let added = 0;
      for (const testCase of cases) {
        const inserted = await tx
          .insert(testCases)
          .values({ ...testCase, runId, position })
          .onConflictDoNothing({ target: [testCases.runId, testCases.appendKey] })
          .returning({ id: testCases.id });
        if (inserted.length > 0) {
          position += 1;
          added += 1;
        }
      }
      // Once failed (a failed scenario or a halt) a run stays failed; appends only add scenarios.
      await tx.execute(sql`
        update runs set
          total_scenarios = c.total,
          passed_scenarios = c.passed,
          status = case when c.passed < c.total then 'FAILED' else runs.status end,
          end_time = greatest(runs.end_time, coalesce(c.last_end, runs.end_time))
        from (
          select count(*)::int as total,
                 count(*) filter (where status in ('PASSED', 'FIXED_BY_AI'))::int as passed,
                 max(end_time) as last_end
          from test_cases where run_id = ${runId}
        ) c
        where runs.id = ${runId}`);
      return added;
    });
  }

  /**
   * Creates the empty report of an execution run: PASSED with no scenarios until its jobs upload.
   * Bound to a transaction, it commits with the execution run it belongs to.
   */
  async insertExecutionReport(run: Omit<typeof runs.$inferInsert, 'status' | 'totalScenarios' | 'passedScenarios'>): Promise<string> {
    const [row] = await this.db
      .insert(runs)
      .values({ ...run, status: 'PASSED', totalScenarios: 0, passedScenarios: 0 })
      .returning({ id: runs.id });
    if (!row) throw new Error('insert into runs returned nothing');
    return row.id;
  }

  /** A halted execution's report: FAILED, its name marked "(stopped)", ended now. */
  async markStopped(runId: string): Promise<void> {
    await this.db
      .update(runs)
      .set({ status: 'FAILED', name: sql`${runs.name} || ' (stopped)'`, endTime: new Date() })
      .where(eq(runs.id, runId));
  }

  /** Fails a run whatever its scenarios say (an execution job that ended before uploading one). */
  async markFailed(runId: string): Promise<void> {
    await this.db.update(runs).set({ status: 'FAILED' }).where(eq(runs.id, runId));
  }

  /** Lists the project's run as a single scenario execution ("Run scenario", spec 02 §3). */
  async markScenarioRun(projectId: string, runId: string): Promise<void> {
    await this.db
      .update(runs)
      .set({ kind: 'scenario' })
      .where(and(eq(runs.id, runId), eq(runs.projectId, projectId)));
  }

  async projectOfRun(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: runs.projectId }).from(runs).where(eq(runs.id, id));
    return row?.projectId;
  }

  async projectOfTestCase(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: testCases.projectId }).from(testCases).where(eq(testCases.id, id));
    return row?.projectId;
  }

  async projectOfComment(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: comments.projectId }).from(comments).where(eq(comments.id, id));
    return row?.projectId;
  }

  /** Top-level runs (reruns come nested) of a project, one page, with the total count. */
  async list(projectId: string, filter: RunListFilter) {
    const conditions: SQL[] = [eq(runs.projectId, projectId), isNull(runs.rerunOf), gte(runs.publishTime, filter.since)];
    if (filter.status) conditions.push(eq(runs.status, filter.status));
    if (filter.search) conditions.push(ilike(runs.name, likePattern(filter.search)));
    const where = and(...conditions);
    // Each sort column, then the ties in the same direction, is one index read in either direction:
    // the page never sorts a year of runs (status ties go by publish time, as runs_list_status_idx has it).
    const columns = {
      publishTime: [runs.publishTime, runs.id],
      name: [runs.name, runs.id],
      status: [runs.status, runs.publishTime, runs.id],
      executionTime: [executionTime, runs.id],
    }[filter.sortField];
    const order = columns.map((column) => (filter.sortOrder === 'asc' ? asc(column) : desc(column)));
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ run: runs, executionTime, failedStep: firstFailedStep, flakyScenarios, hasReruns })
        .from(runs)
        .where(where)
        .orderBy(...order)
        .limit(filter.limit)
        .offset(filter.offset),
      // Counting stops at COUNT_CAP rows: the list scrolls, and an exact count of 100,000 runs
      // would cost more than the page itself.
      this.db.select({ value: count() }).from(
        this.db
          .select({ one: sql`1` })
          .from(runs)
          .where(where)
          .limit(COUNT_CAP)
          .as('capped'),
      ),
    ]);
    const reruns = rows.some((row) => row.hasReruns)
      ? await this.db
          .select({ run: runs, executionTime, failedStep: firstFailedStep, flakyScenarios })
          .from(runs)
          .where(
            and(
              eq(runs.projectId, projectId),
              inArray(
                runs.rerunOf,
                rows.map((row) => row.run.id),
              ),
            ),
          )
          .orderBy(desc(runs.publishTime))
      : [];
    return { rows, reruns, total: total?.value ?? 0 };
  }

  async counts(projectId: string, since: Date) {
    const [lastWeek] = await this.db
      .select({
        runs: count(),
        passed: sql<number>`count(*) filter (where ${runs.status} = 'PASSED')::int`,
        scenarios: sql<number>`coalesce(sum(${runs.totalScenarios}), 0)::int`,
      })
      .from(runs)
      .where(and(eq(runs.projectId, projectId), gte(runs.publishTime, since)));
    // All time: the totals the runs table's triggers keep (migration 0019), not a count of every run.
    const [all] = await this.db
      .select({
        runs: projectRunTotals.runs,
        scenarios: projectRunTotals.scenarios,
        passed: projectRunTotals.passed,
        failed: projectRunTotals.failed,
      })
      .from(projectRunTotals)
      .where(eq(projectRunTotals.projectId, projectId));
    return { lastWeek, all };
  }

  async findRun(id: string): Promise<{ run: RunRow; executionTime: number } | undefined> {
    const [row] = await this.db.select({ run: runs, executionTime }).from(runs).where(eq(runs.id, id));
    return row;
  }

  async testCasesOf(runId: string): Promise<TestCaseRow[]> {
    return this.db.select().from(testCases).where(eq(testCases.runId, runId)).orderBy(asc(testCases.position));
  }

  async findTestCase(id: string): Promise<TestCaseRow | undefined> {
    const [row] = await this.db.select().from(testCases).where(eq(testCases.id, id));
    return row;
  }

  async commentsOf(testCaseIds: string[]): Promise<CommentRow[]> {
    if (testCaseIds.length === 0) return [];
    return this.db.select().from(comments).where(inArray(comments.testCaseId, testCaseIds)).orderBy(asc(comments.createdAt));
  }

  /**
   * The runs of one series published before `before`, newest first: an execution's runs, one
   * scenario's single runs, or the uploaded runs (no execution's) of one name.
   */
  async previousRunsInSeries(
    projectId: string,
    series: { executionId: string } | { scenarioName: string } | { name: string },
    before: Date,
    limit: number,
  ): Promise<{ id: string; status: string; publishTime: Date }[]> {
    const executionRunIds = (executionId?: string) =>
      this.db
        .select({ id: executionRuns.runId })
        .from(executionRuns)
        .where(executionId ? eq(executionRuns.executionId, executionId) : eq(executionRuns.projectId, projectId));
    const inSeries =
      'executionId' in series
        ? inArray(runs.id, executionRunIds(series.executionId))
        : 'scenarioName' in series
          ? and(
              eq(runs.kind, 'scenario'),
              inArray(
                runs.id,
                this.db
                  .select({ id: testCases.runId })
                  .from(testCases)
                  .where(and(eq(testCases.projectId, projectId), eq(testCases.scenarioName, series.scenarioName))),
              ),
            )
          : and(eq(runs.kind, 'run'), eq(runs.name, series.name), notInArray(runs.id, executionRunIds()));
    return this.db
      .select({ id: runs.id, status: runs.status, publishTime: runs.publishTime })
      .from(runs)
      .where(and(eq(runs.projectId, projectId), lt(runs.publishTime, before), inSeries))
      .orderBy(desc(runs.publishTime))
      .limit(limit);
  }

  /** The current name of the execution a run belongs to (its run is named as the execution was, plus ' (stopped)'). */
  async executionNameOfRun(runId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ name: executions.name })
      .from(executionRuns)
      .innerJoin(executions, eq(executions.id, executionRuns.executionId))
      .where(eq(executionRuns.runId, runId));
    return row?.name;
  }

  /** Each scenario's statuses in the given runs, newest first. */
  async scenarioStatusesInRuns(runIds: string[]): Promise<{ scenarioName: string; status: string }[]> {
    if (runIds.length === 0) return [];
    return this.db
      .select({ scenarioName: testCases.scenarioName, status: testCases.status })
      .from(testCases)
      .where(inArray(testCases.runId, runIds))
      .orderBy(desc(testCases.startTime));
  }

  async recentTestCases(projectId: string, limit: number): Promise<TestCaseRow[]> {
    return this.db.select().from(testCases).where(eq(testCases.projectId, projectId)).orderBy(desc(testCases.startTime)).limit(limit);
  }

  async insertComment(row: typeof comments.$inferInsert): Promise<CommentRow> {
    const [created] = await this.db.insert(comments).values(row).returning();
    if (!created) throw new Error('insert into comments returned nothing');
    return created;
  }

  async findComment(id: string): Promise<CommentRow | undefined> {
    const [row] = await this.db.select().from(comments).where(eq(comments.id, id));
    return row;
  }

  async updateComment(id: string, content: string): Promise<CommentRow | undefined> {
    const [row] = await this.db.update(comments).set({ content, updatedAt: new Date() }).where(eq(comments.id, id)).returning();
    return row;
  }

  async deleteComment(id: string): Promise<void> {
    await this.db.delete(comments).where(eq(comments.id, id));
  }
}
