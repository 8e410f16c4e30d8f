import { z } from 'zod';
import { defineCall, EXAMPLE_PROJECT, Ok } from './call.js';
import { RunReport, RunStatus, TestCase } from './report.js';
import { Messages } from './messages.js';
import { ProjectId, RecordKey } from './validation.js';
import { CommitId } from './workspace.calls.js';

/** Where trace links point (outside /api: the trace viewer's service worker fetches them bare); the link rides in `?link=`. */
export const TRACE_FILES_PATH = '/trace-files/trace.zip';
/** Where this server serves Playwright's trace viewer. */
export const TRACE_VIEWER_PATH = '/trace-viewer/';
/** How long a trace link works: long enough to open and browse, short enough that a pasted link dies soon. */
export const TRACE_LINK_MINUTES = 30;

/** Artifacts a run may upload, and the largest one accepted (decoded bytes). */
export const ArtifactContentType = z.enum([
  'image/png',
  'image/jpeg',
  'application/zip',
  'text/plain',
  'application/json',
  'application/xml',
  'text/html',
  'application/x-ndjson',
]);
export type ArtifactContentType = z.infer<typeof ArtifactContentType>;
/**
 * How uploaded cucumber messages name a screenshot stored as an artifact of the project: an
 * attachment with an empty body and the url `rehearse-artifact:<id>`, which the server puts back
 * when it renders the HTML report (so the messages do not carry every screenshot a second time).
 */
export const ARTIFACT_REFERENCE = 'rehearse-artifact:';
export const ARTIFACT_MAX_BYTES = 10 * 1024 * 1024;

/** Calls the runner (CLI and workers) makes: artifacts, reports and the test data of a run. */
export const runnerCalls = {
  uploadArtifact: defineCall({
    method: 'POST',
    path: '/api/runs/upload-artifact',
    summary: 'Store a screenshot, trace or log; answers its content address',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      contentType: ArtifactContentType,
      /** Base64 of the bytes. */
      data: z.string().max(Math.ceil((ARTIFACT_MAX_BYTES * 4) / 3) + 4),
    }),
    response: Ok.extend({ id: z.string() }),
    bodyLimit: Math.ceil((ARTIFACT_MAX_BYTES * 4) / 3) + 64 * 1024,
    example: { body: { projectId: EXAMPLE_PROJECT, contentType: 'text/plain', data: 'aGk=' } },
  }),
  uploadRun: defineCall({
    method: 'POST',
    path: '/api/runs/upload',
    summary: 'Store a run report; the same uploadKey twice stores it once',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      /** Idempotency key chosen by the runner (one per run). */
      uploadKey: z.string().min(8).max(100),
      branch: z.string().max(200).optional(),
      /** 'scenario' for a single-scenario execution; 'run' otherwise. */
      kind: z.enum(['run', 'scenario']).optional(),
      /** The run this one re-runs, shown nested under it. */
      rerunOf: z.uuid().optional(),
      /**
       * An execution's run to append these test cases to (workers); the uploadKey then names the
       * scenario's job, so a retried job's test case is stored once.
       */
      appendTo: z.uuid().optional(),
      report: RunReport,
    }),
    bodyLimit: 20 * 1024 * 1024,
    response: Ok.extend({ runId: z.string(), reportLink: z.string() }),
    example: {
      body: {
        projectId: EXAMPLE_PROJECT,
        uploadKey: 'matrix-example-key',
        report: {
          env: { name: 'default', baseUrl: 'http://localhost:4000/demo-shop/' },
          startTime: '2026-01-01T00:00:00.000Z',
          endTime: '2026-01-01T00:00:01.000Z',
          mode: 'local',
          browser: 'chromium',
          viewport: { width: 1024, height: 768 },
          testCases: [],
        },
      },
    },
  }),
  runTestData: defineCall({
    method: 'POST',
    path: '/api/runs/test-data',
    summary: 'Plain test data values for a run (access keys only: the web app never sees secrets)',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    // commit: an execution's pinned commit, so its scenarios read the test data they were started with.
    body: z.object({
      projectId: ProjectId,
      environment: RecordKey.max(200),
      branch: z.string().max(200).optional(),
      commit: CommitId.optional(),
    }),
    response: Ok.extend({
      testData: z.array(z.object({ key: z.string(), value: z.string(), DataType: z.enum(['string', 'secret', 'totp']) })),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT, environment: 'default' } },
  }),
  keyProject: defineCall({
    method: 'GET',
    path: '/api/runs/key-project',
    summary: 'The project the calling access key belongs to, so `rehearse` needs only a server and a token (access keys only)',
    // Project-level, but the project is the key's own, so no field names it.
    access: 'project',
    response: Ok.extend({ projectId: ProjectId }),
  }),
} as const;

const Uuid = z.uuid({ error: Messages.runNotFound });

/** A row of the reports list: a run, or a single scenario execution (spec 02 §3 "Report list row"). */
export interface ReportListRow {
  id: string;
  _id: string;
  type: 'run' | 'scenario';
  name: string;
  status: 'PASSED' | 'FAILED';
  env: { name: string };
  mode: 'local' | 'cloud';
  username: string;
  totalScenarios: number;
  totalScenariosPassed: number;
  /** Scenarios that passed only on a retry (`rehearse run --retry`). */
  flakyScenarios: number;
  publishTime: string;
  startTime: string;
  executionTime: number;
  failedStep: string | null;
  reruns: ReportListRow[];
}
export const ReportListRow: z.ZodType<ReportListRow> = z.lazy(() =>
  z.object({
    id: z.string(),
    _id: z.string(),
    type: z.enum(['run', 'scenario']),
    name: z.string(),
    status: z.enum(['PASSED', 'FAILED']),
    env: z.object({ name: z.string() }),
    mode: z.enum(['local', 'cloud']),
    username: z.string(),
    totalScenarios: z.number().int(),
    totalScenariosPassed: z.number().int(),
    flakyScenarios: z.number().int(),
    publishTime: z.string(),
    startTime: z.string(),
    executionTime: z.number(),
    failedStep: z.string().nullable(),
    reruns: z.array(ReportListRow),
  }),
);

export const Comment = z.object({
  _id: z.string(),
  type: z.literal('scenario'),
  testCaseId: z.string(),
  runId: z.string(),
  username: z.string(),
  content: z.string(),
  updatedAt: z.string(),
  mine: z.boolean(),
});
export type Comment = z.infer<typeof Comment>;

/** A stored test case: the runner's report plus its stored id, run and comments. */
export const StoredTestCase = TestCase.extend({ runId: z.string(), comments: z.array(Comment) });
export type StoredTestCase = z.infer<typeof StoredTestCase>;

/**
 * The execution a run report belongs to, with the live counters of that run (the same fields as
 * the socket's `statusUpdate:{executionId}`), so a report opened while the execution still appends
 * scenarios knows to follow it. Null for uploaded runs and single scenario executions.
 */
export const RunExecution = z.object({
  executionId: z.string(),
  runId: z.string(),
  running: z.boolean(),
  totalScenarios: z.number().int(),
  scenariosPassed: z.number().int(),
  scenariosFailed: z.number().int(),
  /** Scenarios that could not run (an infrastructure error after their last attempt): not failed scenarios. */
  scenariosErrored: z.number().int(),
  /**
   * Which scenarios those were and why, for the report (they have no test case). Empty once the
   * run's jobs are past JOB_HISTORY_DAYS; the count stays.
   */
  erroredScenarios: z.array(z.object({ featurePath: z.string(), scenarioName: z.string(), reason: z.string() })),
});
export type RunExecution = z.infer<typeof RunExecution>;

/** Which runs a report's previous results come from: the same execution, the same scenario's single runs, or runs of one name. */
export const PreviousRunsOf = z.object({ kind: z.enum(['execution', 'scenario', 'name']), name: z.string() });
export type PreviousRunsOf = z.infer<typeof PreviousRunsOf>;

export const RunDetails = z.object({
  id: z.string(),
  _id: z.string(),
  type: z.enum(['run', 'scenario']),
  name: z.string(),
  status: z.enum(['PASSED', 'FAILED']),
  /**
   * Spec 02 §3 "Run: … changes": how many of the run's scenarios self-healing changed (status
   * FIXED_BY_AI): each proposes a code change that waits in Code Review.
   */
  changes: z.number().int(),
  totalScenarios: z.number().int(),
  totalScenariosPassed: z.number().int(),
  publishTime: z.string(),
  startTime: z.string(),
  executionTime: z.number(),
  mode: z.enum(['local', 'cloud']),
  username: z.string(),
  branch: z.string(),
  browser: z.string(),
  env: z.object({ name: z.string(), baseUrl: z.string() }),
  execution: RunExecution.nullable(),
  report: z.object({
    env: z.object({ name: z.string(), baseUrl: z.string() }),
    testCases: z.array(StoredTestCase),
    publishTime: z.string(),
    username: z.string(),
    /**
     * Status of the previous runs of the same series and of each scenario in them, newest first
     * (up to 5). The series (`of`) is the run's execution, else for a single scenario run that
     * scenario's single runs, else uploaded runs of the same name; `previousRuns` are those runs.
     */
    prevResults: z.object({
      runs: z.array(RunStatus),
      scenarios: z.record(z.string(), z.array(RunStatus)),
      of: PreviousRunsOf,
      previousRuns: z.array(z.object({ id: z.string(), status: RunStatus, publishTime: z.string() })),
    }),
  }),
});
export type RunDetails = z.infer<typeof RunDetails>;

const MemoryStep = z.object({ commandsLog: z.array(z.unknown()), path: z.string() });
/** One navigation seen in a run or a recording: the page at `from` led to the page at `to`. */
export const MemoryEdge = z.object({ from: z.string(), to: z.string() });
export type MemoryEdge = z.infer<typeof MemoryEdge>;

/** Each change of route in `visited` as an edge, each pair once, in first-seen order. */
export function navigationEdges(visited: string[]): MemoryEdge[] {
  const seen = new Set<string>();
  const edges: MemoryEdge[] = [];
  for (let i = 1; i < visited.length; i += 1) {
    const from = visited[i - 1]!;
    const to = visited[i]!;
    const key = `${from}\n${to}`;
    if (from === to || seen.has(key)) continue;
    seen.add(key);
    edges.push({ from, to });
  }
  return edges;
}

export const ApplicationMemory = z.object({
  paths: z.record(z.string(), z.object({ pathsmap: z.record(z.string(), MemoryStep), snapshot: z.string() })),
  /** Navigations between routes (issue 23), each pair once; both ends are keys of `paths`. */
  edges: z.array(MemoryEdge),
});
export type ApplicationMemory = z.infer<typeof ApplicationMemory>;

const projectQuery = { from: 'query', field: 'projectId' } as const;

/** The "Runs service" calls of spec 02 §7 that read runs, reports, screenshots, comments and memory. */
export const runsCalls = {
  getDetails: defineCall({
    method: 'POST',
    path: '/api/runs/project/getDetails',
    summary: 'Runs and single scenario executions, newest first, paged and filtered',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: z.object({
      projectId: ProjectId,
      days: z.number().int().min(1).max(365).default(365),
      page: z.number().int().min(0).max(100_000).default(0),
      limit: z.number().int().min(1).max(100).default(10),
      sortOrder: z.enum(['asc', 'desc']).default('desc'),
      sortField: z.enum(['publishTime', 'name', 'status', 'executionTime']).default('publishTime'),
      search: z.string().max(200).default(''),
      filterType: z.enum(['all', 'passed', 'failed']).default('all'),
    }),
    response: Ok.extend({
      projectSummary: z.object({
        report: z.array(ReportListRow),
        /** `total` stops counting at 1,000 (then `totalIsCapped`): the list scrolls page by page. */
        stats: z.object({ pageCount: z.number().int(), total: z.number().int(), totalIsCapped: z.boolean() }),
      }),
    }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  dashboardDetails: defineCall({
    method: 'GET',
    path: '/api/runs/project/dashboardDetails',
    summary: 'Counts for the dashboard cards and chart',
    access: 'project',
    project: projectQuery,
    query: z.object({ projectId: ProjectId }),
    response: Ok.extend({
      dashboardDetails: z.object({
        scenarioCountLastWeek: z.number().int(),
        runsCountLastWeek: z.number().int(),
        passedRunsCountLastWeek: z.number().int(),
      }),
      projectSummary: z.object({
        runsAndScenarios: z.object({
          runs: z.number().int(),
          scenarios: z.number().int(),
          passed: z.number().int(),
          failed: z.number().int(),
        }),
      }),
    }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  getRun: defineCall({
    method: 'GET',
    path: '/api/runs/cucumber-runs/get',
    summary: 'One run with every scenario report and its comments',
    access: 'project',
    project: { from: 'query', field: 'runId', resource: 'run' },
    query: z.object({ runId: Uuid }),
    response: Ok.extend({ run: RunDetails }),
    example: { query: { runId: EXAMPLE_PROJECT } },
  }),
  getScenario: defineCall({
    method: 'GET',
    path: '/api/runs/scenarios/get',
    summary: 'One scenario execution',
    access: 'project',
    project: { from: 'query', field: 'scenarioId', resource: 'testCase' },
    query: z.object({ scenarioId: Uuid }),
    response: Ok.extend({
      scenario: z.object({
        _id: z.string(),
        type: z.literal('scenario'),
        runId: z.string(),
        /** The run it belongs to, for the breadcrumb (spec 02 §2: Executions > run name). */
        runName: z.string(),
        report: StoredTestCase.extend({ publishTime: z.string(), startTime: z.string() }),
      }),
    }),
    example: { query: { scenarioId: EXAMPLE_PROJECT } },
  }),
  runScreenshot: defineCall({
    method: 'GET',
    path: '/api/runs/screenshots/run/:runId/:testCaseId/:screenshotId',
    summary: 'A screenshot of a run’s scenario, base64',
    access: 'project',
    project: { from: 'params', field: 'runId', resource: 'run' },
    params: z.object({ runId: Uuid, testCaseId: Uuid, screenshotId: z.string().regex(/^[0-9a-f]{64}$/, Messages.screenshotNotFound) }),
    response: Ok.extend({ image: z.string(), contentType: z.string() }),
    example: { params: { runId: EXAMPLE_PROJECT, testCaseId: EXAMPLE_PROJECT, screenshotId: '0'.repeat(64) } },
  }),
  /**
   * Spec 02 §7 "GET screenshots/scenario/{a}/{b}[/{c}]", the three-segment form: a scenario's
   * screenshot named with the run it belongs to (the scenario report knows both), answered as the
   * run form is.
   */
  scenarioRunScreenshot: defineCall({
    method: 'GET',
    path: '/api/runs/screenshots/scenario/:runId/:testCaseId/:screenshotId',
    summary: 'A screenshot of a scenario execution named with its run, base64',
    access: 'project',
    project: { from: 'params', field: 'runId', resource: 'run' },
    params: z.object({ runId: Uuid, testCaseId: Uuid, screenshotId: z.string().regex(/^[0-9a-f]{64}$/, Messages.screenshotNotFound) }),
    response: Ok.extend({ image: z.string(), contentType: z.string() }),
    example: { params: { runId: EXAMPLE_PROJECT, testCaseId: EXAMPLE_PROJECT, screenshotId: '0'.repeat(64) } },
  }),
  scenarioScreenshot: defineCall({
    method: 'GET',
    path: '/api/runs/screenshots/scenario/:testCaseId/:screenshotId',
    summary: 'A screenshot of a scenario execution, base64',
    access: 'project',
    project: { from: 'params', field: 'testCaseId', resource: 'testCase' },
    params: z.object({ testCaseId: Uuid, screenshotId: z.string().regex(/^[0-9a-f]{64}$/, Messages.screenshotNotFound) }),
    response: Ok.extend({ image: z.string(), contentType: z.string() }),
    example: { params: { testCaseId: EXAMPLE_PROJECT, screenshotId: '0'.repeat(64) } },
  }),
  traceLink: defineCall({
    method: 'GET',
    path: '/api/runs/trace-link',
    summary: 'A short-lived link that opens a scenario’s Playwright trace in the trace viewer this server serves',
    access: 'project',
    project: { from: 'query', field: 'testCaseId', resource: 'testCase' },
    query: z.object({ testCaseId: Uuid }),
    response: Ok.extend({
      /** Opens Playwright's trace viewer on this trace (a path on this server). */
      viewerPath: z.string(),
      /** The trace zip itself, for `npx playwright show-trace <url>`, until `expiresAt`. */
      filePath: z.string(),
      expiresAt: z.string(),
    }),
    example: { query: { testCaseId: EXAMPLE_PROJECT } },
  }),
  traceFile: defineCall({
    method: 'GET',
    path: TRACE_FILES_PATH,
    summary:
      'The trace zip a trace link names, while the link lasts (the link is the credential: the trace viewer fetches it without the session)',
    access: 'public',
    query: z.object({ link: z.string().max(1000, Messages.traceLinkExpired) }),
    /** A zip, not JSON. */
    response: z.unknown(),
    example: { query: { link: 'x.y' } },
  }),
  addComment: defineCall({
    method: 'POST',
    path: '/api/runs/comments/add',
    summary: 'Comment on a scenario of a run',
    access: 'project',
    project: { from: 'body', field: 'testCaseId', resource: 'testCase' },
    body: z.object({ testCaseId: Uuid, content: z.string().trim().min(1, Messages.commentEmpty).max(5000) }),
    response: Ok.extend({ comment: Comment }),
    example: { body: { testCaseId: EXAMPLE_PROJECT, content: 'Looks flaky' } },
  }),
  updateComment: defineCall({
    method: 'PUT',
    path: '/api/runs/comments/update/:id',
    summary: 'Change one of your comments',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'comment' },
    params: z.object({ id: Uuid }),
    body: z.object({ content: z.string().trim().min(1, Messages.commentEmpty).max(5000) }),
    response: Ok.extend({ comment: Comment }),
    example: { params: { id: EXAMPLE_PROJECT }, body: { content: 'Edited' } },
  }),
  deleteComment: defineCall({
    method: 'DELETE',
    path: '/api/runs/comments/delete/:id',
    summary: 'Delete one of your comments',
    access: 'project',
    project: { from: 'params', field: 'id', resource: 'comment' },
    params: z.object({ id: Uuid }),
    response: Ok,
    example: { params: { id: EXAMPLE_PROJECT } },
  }),
  applicationMemory: defineCall({
    method: 'GET',
    path: '/api/runs/cucumber-runs/getApplicationMemory',
    summary: 'Routes seen in runs, with the steps that visited them and the latest ARIA snapshot',
    access: 'project',
    project: projectQuery,
    query: z.object({ projectId: ProjectId }),
    response: Ok.extend({ memory: ApplicationMemory }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
} as const;

export const ScenarioJob = z.object({
  id: z.string(),
  state: z.enum(['queued', 'running', 'passed', 'failed', 'error']),
  featureName: z.string(),
  scenarioName: z.string(),
  environment: z.string(),
  branch: z.string(),
  heal: z.boolean(),
  runId: z.string().nullable(),
  reportLink: z.string().nullable(),
  message: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ScenarioJob = z.infer<typeof ScenarioJob>;

/** "Run scenario" from the features page: queued on the server's workers (spec 02 §2, issue "Running from the server"). */
export const scenarioJobCalls = {
  runScenario: defineCall({
    method: 'POST',
    path: '/api/runs/run-scenario',
    summary: 'Queue one scenario to run on the project’s workers; answers a job to follow',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({
      projectId: ProjectId,
      branch: z.string().max(200).optional(),
      featureName: z.string().min(1).max(300),
      scenarioName: z.string().min(1).max(300),
      /** Environment name, with or without `.json`. */
      environment: z.string().min(1).max(200),
      /** "Run with AI recovery": elements no locator finds are healed, and a fix goes to Code Review. */
      heal: z.boolean().default(false),
    }),
    response: Ok.extend({ job: ScenarioJob }),
    example: { body: { projectId: EXAMPLE_PROJECT, featureName: 'missing', scenarioName: 'missing', environment: 'default' } },
  }),
  warmUp: defineCall({
    method: 'POST',
    path: '/api/runs/run-scenario/warm-up',
    summary:
      'A scenario page opened: starts a runner for the branch in the background so the first "Run scenario" click finds it warm; answers how it stands',
    access: 'project',
    project: { from: 'body', field: 'projectId', write: true },
    body: z.object({ projectId: ProjectId, branch: z.string().max(200).optional() }),
    response: Ok.extend({ runner: z.enum(['ready', 'starting', 'unavailable']) }),
    example: { body: { projectId: EXAMPLE_PROJECT } },
  }),
  scenarioJob: defineCall({
    method: 'GET',
    path: '/api/runs/run-scenario/:jobId',
    summary: 'State of a "Run scenario" job, with its run once it finished',
    access: 'project',
    project: { from: 'params', field: 'jobId', resource: 'job' },
    params: z.object({ jobId: z.uuid({ error: Messages.jobNotFound }) }),
    response: Ok.extend({ job: ScenarioJob }),
    example: { params: { jobId: EXAMPLE_PROJECT } },
  }),
} as const;

/** How long a project keeps its runs; null keeps them without that limit. */
export const RunRetention = z.object({
  keepDays: z
    .number({ error: Messages.retentionDays })
    .int(Messages.retentionDays)
    .min(1, Messages.retentionDays)
    .max(3650, Messages.retentionDays)
    .nullable(),
  keepRuns: z
    .number({ error: Messages.retentionRuns })
    .int(Messages.retentionRuns)
    .min(1, Messages.retentionRuns)
    .max(1_000_000, Messages.retentionRuns)
    .nullable(),
});
export type RunRetention = z.infer<typeof RunRetention>;

/** What runs, with their scenarios and the artifact bytes only they name, amount to. */
export const RetentionCounts = z.object({ runs: z.number().int(), testCases: z.number().int(), artifactBytes: z.number() });
export type RetentionCounts = z.infer<typeof RetentionCounts>;

/** What a project with nothing stored, or a rule that deletes nothing, amounts to. */
export const NOTHING_STORED: RetentionCounts = { runs: 0, testCases: 0, artifactBytes: 0 };

/** Project settings → Retention: how long runs, their artifacts and traces are kept (admins). */
export const retentionCalls = {
  getRetention: defineCall({
    method: 'GET',
    path: '/api/runs/retention',
    summary: 'The project’s run retention, what it stores, and what the retention would delete now',
    access: 'project',
    project: projectQuery,
    query: z.object({ projectId: ProjectId }),
    response: Ok.extend({ retention: RunRetention, stored: RetentionCounts, wouldDelete: RetentionCounts }),
    example: { query: { projectId: EXAMPLE_PROJECT } },
  }),
  previewRetention: defineCall({
    method: 'POST',
    path: '/api/runs/retention/preview',
    summary: 'What a retention would delete now, without deleting anything (a dry run)',
    access: 'project',
    project: { from: 'body', field: 'projectId' },
    body: RunRetention.extend({ projectId: ProjectId }),
    response: Ok.extend({ wouldDelete: RetentionCounts }),
    example: { body: { projectId: EXAMPLE_PROJECT, keepDays: 30, keepRuns: null } },
  }),
  setRetention: defineCall({
    method: 'PUT',
    path: '/api/runs/retention',
    summary: 'Set the project’s run retention (admin); the hourly sweep applies it',
    access: 'project',
    project: { from: 'body', field: 'projectId', role: 'ADMIN', roleMessage: Messages.adminRoleRequired, write: true },
    body: RunRetention.extend({ projectId: ProjectId }),
    response: Ok.extend({ retention: RunRetention, wouldDelete: RetentionCounts }),
    example: { body: { projectId: EXAMPLE_PROJECT, keepDays: 30, keepRuns: null } },
  }),
} as const;
