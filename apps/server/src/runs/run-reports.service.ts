import {
  DAY_MS,
  Messages,
  navigationEdges,
  TestCase,
  type ApplicationMemory,
  type Comment,
  type PreviousRunsOf,
  type ReportListRow,
  type RunDetails,
  type RunExecution,
  type RunStatus,
  type StoredTestCase,
} from '@rehearse/contract';
import { displayName, type Caller, type ProjectAccess } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { COUNT_CAP, type CommentRow, type RunListFilter, type RunRow, type RunsRepo, type TestCaseRow } from './runs.repo.js';

const PAST_RESULTS = 5;
const MEMORY_TEST_CASES = 300;

function toRow(
  row: { run: RunRow; executionTime: number; failedStep: string | null; flakyScenarios: number },
  reruns: ReportListRow[] = [],
): ReportListRow {
  const { run } = row;
  return {
    id: run.id,
    _id: run.id,
    type: run.kind,
    name: run.name,
    status: run.status,
    env: { name: run.envName },
    mode: run.mode,
    username: run.username,
    totalScenarios: run.totalScenarios,
    totalScenariosPassed: run.passedScenarios,
    flakyScenarios: row.flakyScenarios,
    publishTime: run.publishTime.toISOString(),
    startTime: run.startTime.toISOString(),
    executionTime: Math.round(row.executionTime),
    failedStep: row.failedStep,
    reruns,
  };
}

function toComment(row: CommentRow, caller: Caller): Comment {
  return {
    _id: row.id,
    type: 'scenario',
    testCaseId: row.testCaseId,
    runId: row.runId,
    username: row.username,
    content: row.content,
    updatedAt: row.updatedAt.toISOString(),
    mine: row.userId === caller.user.id,
  };
}

function storedCase(row: TestCaseRow, comments: Comment[]): StoredTestCase {
  const report = TestCase.parse(row.report);
  return { ...report, id: row.id, runId: row.runId, comments };
}

/** What reading reports asks of the other domains, given at construction (app.ts wires them). */
export interface RunReportLinks {
  /** The execution that made a run and its live counters (the executions engine). */
  executionOfRun: (runId: string) => Promise<RunExecution | null>;
  /** The pages recordings visited (DESIGN §7: every recorded or run page adds to the memory). */
  recordedMemory: (projectId: string) => Promise<ApplicationMemory>;
}

/** Stored runs read back: the reports list, the dashboard's counts, run and scenario reports with their comments, the application map. */
export class RunReportsService {
  constructor(
    private readonly links: RunReportLinks,
    private readonly runs: RunsRepo,
  ) {}

  async list(
    projectId: string,
    query: {
      days: number;
      page: number;
      limit: number;
      sortOrder: 'asc' | 'desc';
      sortField: RunListFilter['sortField'];
      search: string;
      filterType: 'all' | 'passed' | 'failed';
    },
  ) {
    const { rows, reruns, total } = await this.runs.list(projectId, {
      since: new Date(Date.now() - query.days * DAY_MS),
      status: query.filterType === 'all' ? null : query.filterType === 'passed' ? 'PASSED' : 'FAILED',
      search: query.search.trim(),
      sortField: query.sortField,
      sortOrder: query.sortOrder,
      limit: query.limit,
      offset: query.page * query.limit,
    });
    const report = rows.map((row) =>
      toRow(
        row,
        reruns.filter((rerun) => rerun.run.rerunOf === row.run.id).map((rerun) => toRow(rerun)),
      ),
    );
    return { report, stats: { pageCount: Math.ceil(total / query.limit), total, totalIsCapped: total >= COUNT_CAP } };
  }

  async dashboard(projectId: string) {
    const { lastWeek, all } = await this.runs.counts(projectId, new Date(Date.now() - 7 * DAY_MS));
    return {
      dashboardDetails: {
        scenarioCountLastWeek: lastWeek?.scenarios ?? 0,
        runsCountLastWeek: lastWeek?.runs ?? 0,
        passedRunsCountLastWeek: lastWeek?.passed ?? 0,
      },
      projectSummary: {
        runsAndScenarios: { runs: all?.runs ?? 0, scenarios: all?.scenarios ?? 0, passed: all?.passed ?? 0, failed: all?.failed ?? 0 },
      },
    };
  }

  async run(caller: Caller, runId: string): Promise<RunDetails> {
    const found = await this.runs.findRun(runId);
    if (!found) throw notFound(Messages.runNotFound);
    const { run } = found;
    const cases = await this.runs.testCasesOf(run.id);
    const comments = await this.runs.commentsOf(cases.map((c) => c.id));
    const execution = await this.links.executionOfRun(run.id);
    // Previous results come from the same series, so a reader compares like with like.
    const of: PreviousRunsOf = execution
      ? { kind: 'execution', name: (await this.runs.executionNameOfRun(run.id)) ?? run.name }
      : run.kind === 'scenario'
        ? { kind: 'scenario', name: cases[0]?.scenarioName ?? run.name }
        : { kind: 'name', name: run.name };
    const series = execution
      ? { executionId: execution.executionId }
      : of.kind === 'scenario'
        ? { scenarioName: of.name }
        : { name: run.name };
    const previousRuns = await this.runs.previousRunsInSeries(run.projectId, series, run.publishTime, PAST_RESULTS);
    const scenarios: Record<string, RunStatus[]> = {};
    for (const testCase of cases) scenarios[testCase.scenarioName] = [];
    for (const { scenarioName, status } of await this.runs.scenarioStatusesInRuns(previousRuns.map((r) => r.id))) {
      const statuses = scenarios[scenarioName];
      if (statuses && statuses.length < PAST_RESULTS) statuses.push(status as RunStatus);
    }
    const env = { name: run.envName, baseUrl: run.envBaseUrl };
    return {
      id: run.id,
      _id: run.id,
      type: run.kind,
      name: run.name,
      status: run.status,
      changes: cases.filter((c) => c.status === 'FIXED_BY_AI').length,
      totalScenarios: run.totalScenarios,
      totalScenariosPassed: run.passedScenarios,
      publishTime: run.publishTime.toISOString(),
      startTime: run.startTime.toISOString(),
      executionTime: Math.round(found.executionTime),
      mode: run.mode,
      username: run.username,
      branch: run.branch,
      browser: run.browser,
      env,
      execution,
      report: {
        env,
        testCases: cases.map((c) =>
          storedCase(
            c,
            comments.filter((m) => m.testCaseId === c.id).map((m) => toComment(m, caller)),
          ),
        ),
        publishTime: run.publishTime.toISOString(),
        username: run.username,
        prevResults: {
          runs: previousRuns.map((r) => r.status as RunStatus),
          scenarios,
          of,
          previousRuns: previousRuns.map((r) => ({ id: r.id, status: r.status as RunStatus, publishTime: r.publishTime.toISOString() })),
        },
      },
    };
  }

  async scenario(caller: Caller, testCaseId: string) {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row) throw notFound(Messages.testCaseNotFound);
    const run = await this.runs.findRun(row.runId);
    const comments = (await this.runs.commentsOf([row.id])).map((m) => toComment(m, caller));
    return {
      _id: row.id,
      type: 'scenario' as const,
      runId: row.runId,
      runName: run?.run.name ?? '',
      report: {
        ...storedCase(row, comments),
        publishTime: run?.run.publishTime.toISOString() ?? row.endTime.toISOString(),
        startTime: row.startTime.toISOString(),
      },
    };
  }

  async addComment(caller: Caller, access: ProjectAccess, testCaseId: string, content: string): Promise<Comment> {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row || row.projectId !== access.project.id) throw notFound(Messages.testCaseNotFound);
    const created = await this.runs.insertComment({
      projectId: row.projectId,
      runId: row.runId,
      testCaseId: row.id,
      userId: caller.user.id,
      username: displayName(caller),
      content,
    });
    return toComment(created, caller);
  }

  /** Only the author changes or deletes a comment. */
  async updateComment(caller: Caller, id: string, content: string): Promise<Comment> {
    await this.ownComment(caller, id);
    const updated = await this.runs.updateComment(id, content);
    if (!updated) throw notFound(Messages.commentNotFound);
    return toComment(updated, caller);
  }

  async deleteComment(caller: Caller, id: string): Promise<void> {
    await this.ownComment(caller, id);
    await this.runs.deleteComment(id);
  }

  private async ownComment(caller: Caller, id: string): Promise<void> {
    const comment = await this.runs.findComment(id);
    if (!comment) throw notFound(Messages.commentNotFound);
    if (comment.userId !== caller.user.id) throw forbidden(Messages.commentNotYours);
  }

  /**
   * The application map: every route a recent scenario visited (from the URLs its commands saw),
   * each with the steps that ran there and the latest ARIA snapshot of that page, and the
   * navigations between routes (each change of route from one command to the next).
   */
  async memory(projectId: string): Promise<ApplicationMemory> {
    const rows = await this.runs.recentTestCases(projectId, MEMORY_TEST_CASES);
    // Recorded pages first: what runs saw later is newer and wins a route's snapshot.
    const recorded = await this.links.recordedMemory(projectId);
    const paths: ApplicationMemory['paths'] = recorded.paths;
    const edges = new Map(recorded.edges.map((edge) => [`${edge.from}\n${edge.to}`, edge]));
    // Oldest first so the newest snapshot of a route wins.
    for (const row of [...rows].reverse()) {
      const report = TestCase.safeParse(row.report);
      if (!report.success) continue;
      const visited: string[] = [];
      for (const step of report.data.steps) {
        const routes = step.commands.flatMap((command) => {
          const route = routeOfUrl(command.info?.url);
          return route ? [route] : [];
        });
        visited.push(...routes);
        const route = routes.at(-1);
        if (!route) continue;
        const entry = (paths[route] ??= { pathsmap: {}, snapshot: '' });
        entry.pathsmap[step.text] = {
          commandsLog: step.commands.map(({ type, element_name, value, info }) => ({
            type,
            element_name,
            value,
            selectors: info?.selectors,
          })),
          path: route,
        };
        if (step.ariaSnapshot) entry.snapshot = step.ariaSnapshot;
      }
      // A route passed through inside a step (a redirect, a link clicked mid-step) is still a page of the map.
      for (const route of visited) paths[route] ??= { pathsmap: {}, snapshot: '' };
      // The runner snapshots the first page a scenario reaches; steps only snapshot on failure.
      const first = visited[0];
      if (first && report.data.initialAriaSnapshot && !paths[first]!.snapshot) paths[first]!.snapshot = report.data.initialAriaSnapshot;
      for (const edge of navigationEdges(visited)) edges.set(`${edge.from}\n${edge.to}`, edge);
    }
    // Every edge joins two routes of the map, even one a recording only passed through.
    for (const edge of edges.values()) {
      paths[edge.from] ??= { pathsmap: {}, snapshot: '' };
      paths[edge.to] ??= { pathsmap: {}, snapshot: '' };
    }
    return { paths, edges: [...edges.values()] };
  }
}

/** A URL's path, the map's route, or undefined when there is no readable URL. */
function routeOfUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
