import { createHash } from 'node:crypto';
import {
  maskDeep,
  Messages,
  navigationEdges,
  TestCase,
  TRACE_FILES_PATH,
  TRACE_LINK_MINUTES,
  TRACE_VIEWER_PATH,
  type ApplicationMemory,
  type PreviousRunsOf,
  type Comment,
  type ReportListRow,
  type RunDetails,
  type RunExecution,
  type RunReport,
  type RunStatus,
  type StoredTestCase,
  DAY_MS,
} from '@rehearse/contract';
import type { Caller, ProjectAccess } from '../auth/caller.js';
import type { SignedLinks } from '../crypto/signed-links.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { ArtifactStore } from '../storage/artifacts.js';
import type { SocketHub } from '../storage/sockets.js';
import { COUNT_CAP, type CommentRow, type RunListFilter, type RunRow, type RunsRepo, type TestCaseRow } from './runs.repo.js';
import { renderHtmlReport } from './html-report.js';
import { ArtifactUsage } from './artifact-usage.js';
import type { DomainEventBus } from '../events/domain-events.js';

/** What a trace link names: the trace is served only while that scenario of that project still names it. */
export interface TraceLinkPayload {
  projectId: string;
  testCaseId: string;
  traceFileId: string;
}

const PASSING: ReadonlySet<string> = new Set(['PASSED', 'FIXED_BY_AI']);
const PAST_RESULTS = 5;
const MEMORY_TEST_CASES = 300;

function displayName(caller: Caller): string {
  return `${caller.user.firstName} ${caller.user.lastName}`.trim() || caller.user.email;
}

function screenshotIds(report: RunReport): string[] {
  const ids = new Set<string>();
  for (const testCase of report.testCases) {
    for (const step of testCase.steps) {
      for (const command of step.commands) {
        if (command.screenshotId) ids.add(command.screenshotId);
        // Self-healing's "before" picture, shown by its Code Review item.
        if (command.healing?.beforeScreenshotId) ids.add(command.healing.beforeScreenshotId);
      }
    }
    // The run's JUnit XML and cucumber messages or HTML report (`rehearse run` uploads them): the project's own, like screenshots.
    if (testCase.reportFiles?.junit) ids.add(testCase.reportFiles.junit);
    if (testCase.reportFiles?.html) ids.add(testCase.reportFiles.html);
    if (testCase.reportFiles?.messages) ids.add(testCase.reportFiles.messages);
    // Its Playwright trace, likewise.
    if (testCase.traceFileId) ids.add(testCase.traceFileId);
  }
  return [...ids];
}

/**
 * Where a run ran (spec 01/02 Run.mode): 'cloud' when the server's own job uploads it (a job key,
 * scope 'run'), 'local' for any other upload (a CLI on someone's machine or CI). The report's own
 * `mode` is the uploader's word and is not trusted for this.
 */
export function runMode(caller: Caller): 'cloud' | 'local' {
  return caller.kind === 'accessKey' && caller.scope === 'run' ? 'cloud' : 'local';
}

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

/** Where a run's report opens in the web app. */
export function runReportLink(publicUrl: string, projectId: string, runId: string): string {
  return `${publicUrl}/${projectId}/run-report/${runId}`;
}

/** What the runs domain asks of the others, given at construction (app.ts wires them). */
export interface RunsLinks {
  /** Hears `runUploaded` (the AI engine files Code Review items from healed runs). */
  events: DomainEventBus;
  /** The execution that made a run and its live counters (the executions engine). */
  executionOfRun: (runId: string) => Promise<RunExecution | null>;
  /** The project's plain secret values at a branch (its test data): uploaded reports are masked with them. */
  secretValues: (caller: Caller, access: ProjectAccess, branch: string | undefined) => Promise<string[]>;
  /** The pages recordings visited (DESIGN §7: every recorded or run page adds to the memory). */
  recordedMemory: (projectId: string) => Promise<ApplicationMemory>;
}

/** Runs and reports: uploads from the runner, the reports list, run and scenario reports, comments, memory. */
export class RunsService {
  constructor(
    private readonly links: RunsLinks,
    private readonly runs: RunsRepo,
    private readonly artifacts: ArtifactStore,
    private readonly sockets: SocketHub,
    private readonly publicUrl: string,
    private readonly traceLinks: SignedLinks<TraceLinkPayload>,
    /** ARTIFACT_QUOTA_MB in bytes; 0 for no limit. */
    private readonly artifactQuotaBytes = 0,
  ) {}

  private readonly artifactUsage = new ArtifactUsage((projectId) => this.runs.artifactBytes(projectId));

  async uploadArtifact(projectId: string, contentType: string, base64: string, maxBytes: number): Promise<string> {
    const bytes = decodeBase64(base64);
    if (!bytes) throw badRequest(Messages.artifactNotBase64);
    if (bytes.length > maxBytes) throw badRequest(Messages.artifactTooLarge);
    const id = ArtifactStore.idOf(bytes);
    // Quota: what the project already keeps plus this, unless it keeps these very bytes already.
    // Two uploads at once may both pass a nearly full quota; it is a bound on growth, not a lock.
    const counted = this.artifactQuotaBytes > 0 && !(await this.runs.artifactOf(projectId, id));
    if (counted && (await this.artifactUsage.bytes(projectId)) + bytes.length > this.artifactQuotaBytes) {
      throw new AppError(413, Messages.artifactQuotaReached(Math.round(this.artifactQuotaBytes / 1024 / 1024)));
    }
    await this.artifacts.put(id, bytes);
    await this.runs.addArtifact(projectId, id, contentType, bytes.length);
    if (counted) this.artifactUsage.stored(projectId, bytes.length);
    return id;
  }

  reportLink(projectId: string, runId: string): string {
    return runReportLink(this.publicUrl, projectId, runId);
  }

  /** Stores a run; every screenshot it names must have been uploaded to this project first. */
  async upload(
    caller: Caller,
    access: ProjectAccess,
    input: {
      uploadKey: string;
      branch?: string | undefined;
      kind?: 'run' | 'scenario' | undefined;
      rerunOf?: string | undefined;
      appendTo?: string | undefined;
      report: RunReport;
    },
  ): Promise<{ runId: string; reportLink: string }> {
    const projectId = access.project.id;
    // Secrets the runner typed must not be served back: every value of the project's secret test data is masked before storing.
    const report = maskDeep(input.report, await this.links.secretValues(caller, access, input.branch));
    const wanted = screenshotIds(report);
    const known = await this.runs.knownArtifacts(projectId, wanted);
    const missing = wanted.find((id) => !known.has(id));
    if (missing) throw badRequest(`${Messages.artifactUnknown}${missing}`);
    if (input.appendTo) return this.append(projectId, input.appendTo, input.uploadKey, report, wanted);
    if (input.rerunOf && (await this.runs.projectOfRun(input.rerunOf)) !== projectId) throw notFound(Messages.runNotFound);
    const passed = report.testCases.filter((testCase) => PASSING.has(testCase.result.status)).length;
    const kind = input.kind ?? 'run';
    const name =
      report.name ??
      (kind === 'scenario' && report.testCases[0]
        ? report.testCases[0].scenarioName
        : `Run of ${report.startTime.slice(0, 16).replace('T', ' ')}`);
    // What a retry must repeat: the same key with another body is another report, refused.
    const uploadDigest = createHash('sha256')
      .update(JSON.stringify({ branch: input.branch, kind: input.kind, rerunOf: input.rerunOf, report }))
      .digest('hex');
    const { id, created, sameBody } = await this.runs.insertRun(
      {
        projectId,
        uploadKey: input.uploadKey,
        uploadDigest,
        userId: caller.user.id,
        username: displayName(caller),
        name,
        kind,
        mode: runMode(caller),
        branch: input.branch ?? 'main',
        envName: report.env.name,
        envBaseUrl: report.env.baseUrl,
        browser: report.browser,
        // A run passes only when every one of its scenarios passed (spec 02 §4).
        status: passed === report.testCases.length ? 'PASSED' : 'FAILED',
        totalScenarios: report.testCases.length,
        passedScenarios: passed,
        startTime: new Date(report.startTime),
        endTime: new Date(report.endTime),
        rerunOf: input.rerunOf ?? null,
      },
      report.testCases.map((testCase, position) => ({
        projectId,
        position,
        scenarioName: testCase.scenarioName,
        featureName: testCase.featureName,
        status: testCase.result.status,
        failedStepText: testCase.failedStep === undefined ? null : (testCase.steps[testCase.failedStep]?.text ?? null),
        startTime: new Date(testCase.result.startTime),
        endTime: new Date(testCase.result.endTime),
        report: testCase,
      })),
      wanted,
    );
    if (!sameBody) throw conflict(Messages.uploadKeyReused);
    const reportLink = this.reportLink(projectId, id);
    // A retried upload (same key) is the run already stored: its listeners heard it the first time.
    if (created) await this.links.events.emit('runUploaded', { caller, access, runId: id, branch: input.branch ?? 'main', report });
    this.sockets.emitToProject(projectId, 'upload_report', { projectId, runId: id, reportLink });
    return { runId: id, reportLink };
  }

  /** A worker's scenario joins its execution's run report (DESIGN §6: one report per execution). */
  private async append(
    projectId: string,
    runId: string,
    uploadKey: string,
    report: RunReport,
    artifactIds: string[],
  ): Promise<{ runId: string; reportLink: string }> {
    if ((await this.runs.projectOfRun(runId)) !== projectId) throw notFound(Messages.runNotFound);
    await this.runs.appendTestCases(
      runId,
      report.testCases.map((testCase, index) => ({
        projectId,
        appendKey: `${uploadKey}:${index}`,
        scenarioName: testCase.scenarioName,
        featureName: testCase.featureName,
        status: testCase.result.status,
        failedStepText: testCase.failedStep === undefined ? null : (testCase.steps[testCase.failedStep]?.text ?? null),
        startTime: new Date(testCase.result.startTime),
        endTime: new Date(testCase.result.endTime),
        report: testCase,
      })),
      artifactIds,
    );
    const reportLink = this.reportLink(projectId, runId);
    this.sockets.emitToProject(projectId, 'upload_report', { projectId, runId, reportLink });
    return { runId, reportLink };
  }

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

  /**
   * A screenshot's (or the run's JUnit or HTML report's, or the scenario's trace's) bytes, only when
   * the scenario names it and the project uploaded it. The run's cucumber messages come back as
   * the HTML report rendered from them: that is the file they are kept for.
   */
  async screenshot(projectId: string, testCaseId: string, screenshotId: string, runId?: string) {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row || row.projectId !== projectId || (runId && row.runId !== runId)) throw notFound(Messages.testCaseNotFound);
    const report = TestCase.parse(row.report);
    const named =
      report.reportFiles?.junit === screenshotId ||
      report.reportFiles?.html === screenshotId ||
      report.reportFiles?.messages === screenshotId ||
      report.traceFileId === screenshotId ||
      report.steps.some((step) =>
        step.commands.some((command) => command.screenshotId === screenshotId || command.healing?.beforeScreenshotId === screenshotId),
      );
    const artifact = named ? await this.storedArtifact(projectId, screenshotId) : undefined;
    if (!artifact) throw notFound(Messages.screenshotNotFound);
    if (report.reportFiles?.messages === screenshotId) {
      // The messages name the run's screenshots by reference: only this project's PNG artifacts resolve.
      const screenshot = async (id: string) => {
        const stored = await this.storedArtifact(projectId, id);
        return stored?.contentType === 'image/png' ? stored.bytes : undefined;
      };
      return { image: (await renderHtmlReport(artifact.bytes, screenshot)).toString('base64'), contentType: 'text/html' as const };
    }
    return { image: artifact.bytes.toString('base64'), contentType: artifact.contentType };
  }

  /** An artifact the project uploaded, with its bytes; undefined when it has no such artifact (or its bytes are gone). */
  private async storedArtifact(projectId: string, id: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    const artifact = await this.runs.artifactOf(projectId, id);
    const bytes = artifact ? await this.artifacts.get(id) : null;
    return artifact && bytes ? { contentType: artifact.contentType, bytes } : undefined;
  }

  /**
   * A link that opens a scenario's trace in the trace viewer this server serves. The viewer's
   * service worker fetches the zip without the session, so the link itself is the credential:
   * signed, naming the project, scenario and artifact, and dead after `TRACE_LINK_MINUTES`.
   */
  async traceLink(
    projectId: string,
    testCaseId: string,
    now = new Date(),
  ): Promise<{ viewerPath: string; filePath: string; expiresAt: string }> {
    const traceFileId = await this.storedTraceOf(projectId, testCaseId);
    const expiresAt = new Date(now.getTime() + TRACE_LINK_MINUTES * 60_000);
    const filePath = `${TRACE_FILES_PATH}?${new URLSearchParams({ link: this.traceLinks.sign({ projectId, testCaseId, traceFileId }, expiresAt) }).toString()}`;
    return {
      viewerPath: `${TRACE_VIEWER_PATH}index.html?trace=${encodeURIComponent(filePath)}`,
      filePath,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The trace zip a link names, while the link lasts and the scenario still names that trace. */
  async traceFile(link: string, now = new Date()): Promise<Buffer> {
    const named = this.traceLinks.verify(link, now);
    if (!named) throw notFound(Messages.traceLinkExpired);
    // A deleted run (or project) takes its links with it.
    const traceFileId = await this.storedTraceOf(named.projectId, named.testCaseId).catch(() => undefined);
    const bytes = traceFileId === named.traceFileId ? await this.artifacts.get(traceFileId) : null;
    if (!bytes) throw notFound(Messages.traceLinkExpired);
    return bytes;
  }

  private async storedTraceOf(projectId: string, testCaseId: string): Promise<string> {
    const row = await this.runs.findTestCase(testCaseId);
    if (!row || row.projectId !== projectId) throw notFound(Messages.testCaseNotFound);
    const { traceFileId } = TestCase.parse(row.report);
    if (!traceFileId || !(await this.runs.artifactOf(projectId, traceFileId))) throw notFound(Messages.traceNotFound);
    return traceFileId;
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

/**
 * The bytes of `text` when it is base64 (`/^[A-Za-z0-9+/]*={0,2}$/`, padded or not), else
 * undefined. Node's decoder is the check, at native speed (a regex over every character was the
 * server's hottest code during an execution, at 20 ms a scenario): it skips or stops at any
 * character outside the alphabet, so such text decodes to fewer bytes than its length promises.
 * It also takes the URL-safe alphabet, which base64 does not, and a length of 4n+1 can lose a
 * character without losing a byte: both are refused first.
 */
function decodeBase64(text: string): Buffer | undefined {
  let end = text.length;
  while (end > 0 && text.length - end < 2 && text.charCodeAt(end - 1) === EQUALS_SIGN) end--;
  if (end % 4 === 1 || text.includes('-') || text.includes('_')) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === Math.floor((end * 3) / 4) ? bytes : undefined;
}

const EQUALS_SIGN = 61;
