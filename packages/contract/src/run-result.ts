import { z } from 'zod';

/**
 * Why a run did not pass, in the three classes a caller acts on: `none` (every scenario passed and
 * the report was uploaded when a server was given), `test-failed` (a scenario failed, or the
 * project's own code stopped cucumber: the tests said no), `infrastructure` (the run could not say
 * whether the scenarios pass: the workspace, the test data, the browser, the upload, a deadline).
 * Infrastructure errors are retried elsewhere and never counted as a failed scenario.
 */
export const RUN_ERROR_CLASSES = ['none', 'test-failed', 'infrastructure'] as const;
export type RunErrorClass = (typeof RUN_ERROR_CLASSES)[number];

/**
 * What `rehearse run` hands its caller (issue 21): returned by the in-process `runRun` and written
 * as JSON to the file `--result-file` names, so a worker or the server learns the outcome without
 * reading the runner's output. `runId`/`reportLink` are set once the report was uploaded.
 */
export const RunResult = z.object({
  exitCode: z.number().int(),
  runId: z.string().nullable(),
  reportLink: z.string().nullable(),
  errorClass: z.enum(RUN_ERROR_CLASSES),
  /** Why it did not pass, in one or a few lines; null when it passed. */
  reason: z.string().nullable(),
});
export type RunResult = z.infer<typeof RunResult>;

/** A result file's text as a `RunResult`, or undefined when it is not one (absent, half-written, another version's). */
export function parseRunResult(text: string | undefined): RunResult | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = RunResult.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One scenario for `rehearse run`, as the server's "Run scenario", a worker thread and a warm
 * runner each start it: the only place its command line is spelled, so the three cannot drift.
 */
export interface ScenarioRunArgs {
  server: string;
  projectId: string;
  branch: string;
  /** Pins the run's test data (and, for a worker, names the workspace it pulled) to this commit. */
  commit?: string | null;
  /** The environment file, relative to the workspace (environments/<name>.json). */
  envFile: string;
  browser?: string;
  viewport?: string;
  heal?: boolean;
  scenarioName: string;
  /** Adds the scenario to an execution's run instead of publishing a run of its own. */
  appendTo?: { runId: string; uploadKey: string };
  /** The report folder. */
  out: string;
  resultFile: string;
  /** The feature file, relative to the workspace. */
  featurePath: string;
}

/** The arguments after `rehearse` for one headless scenario run. */
export function scenarioRunArgs(run: ScenarioRunArgs): string[] {
  return [
    'run',
    '--server',
    run.server,
    '--project',
    run.projectId,
    '--branch',
    run.branch,
    ...(run.commit ? ['--commit', run.commit] : []),
    '--env',
    run.envFile,
    '--headless',
    ...(run.browser ? ['--browser', run.browser] : []),
    ...(run.viewport ? ['--viewport', run.viewport] : []),
    ...(run.heal ? ['--heal'] : []),
    '--scenario',
    run.scenarioName,
    ...(run.appendTo ? ['--append-to', run.appendTo.runId, '--upload-key', run.appendTo.uploadKey] : []),
    '--out',
    run.out,
    '--result-file',
    run.resultFile,
    run.featurePath,
  ];
}

/**
 * What the server or a worker thread asks a warm runner (`rehearse warm-runner`, issue 21), one JSON line each on its
 * standard input. `prepare` fetches the workspace at `commit`, loads its support code and launches
 * the browser; `run` runs one scenario there in a fresh browser context. Each carries the access
 * token of its own job (never the process's environment), used for that request only. A runner
 * started without a project (a worker thread's spare) is bound for good by its first `prepare`.
 */
export const WarmRunnerRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prepare'), projectId: z.string(), branch: z.string(), commit: z.string(), token: z.string() }),
  z.object({
    type: z.literal('run'),
    id: z.string(),
    projectId: z.string(),
    commit: z.string(),
    token: z.string(),
    /** The feature file, relative to the workspace (features/<name>.feature). */
    featurePath: z.string(),
    scenarioName: z.string(),
    /** The environment file, relative to the workspace (environments/<name>.json). */
    envFile: z.string(),
    heal: z.boolean(),
    /** An execution job's browser and viewport (the project's defaults when absent). */
    browser: z.string().optional(),
    viewport: z.string().optional(),
    /** An execution job adds its scenario to the execution's run under its own upload key. */
    appendTo: z.object({ runId: z.string(), uploadKey: z.string() }).optional(),
    /** Where the runner also writes the request's `RunResult` (inside its own folder). */
    resultFile: z.string(),
  }),
]);
export type WarmRunnerRequest = z.infer<typeof WarmRunnerRequest>;

/** The largest screenshot a live step carries (base64 characters): a bigger one waits for the report. */
export const LIVE_SCREENSHOT_MAX = 800_000;

/** One step of a running scenario as it starts and as it ends: what "Run scenario" shows live. */
export const LiveStep = z.object({
  /** 0-based among the scenario's Gherkin steps (hooks are not counted). */
  index: z.number().int().min(0),
  /** How many Gherkin steps the scenario has. */
  count: z.number().int().min(1),
  keyword: z.string().max(50),
  text: z.string().max(2000),
  status: z.enum(['running', 'passed', 'failed', 'skipped', 'undefined', 'pending', 'ambiguous']),
  /** When it ended: the page as its last command left it (PNG, base64), unless larger than LIVE_SCREENSHOT_MAX. */
  screenshot: z.string().max(LIVE_SCREENSHOT_MAX).optional(),
});
export type LiveStep = z.infer<typeof LiveStep>;

/**
 * What a warm runner answers, one JSON line each on its standard output (its step code's output
 * goes to standard error). `step` is no answer but news of the running request, any number of them
 * before its `result`.
 */
export const WarmRunnerAnswer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), commit: z.string() }),
  z.object({ type: z.literal('unprepared'), reason: z.string() }),
  z.object({ type: z.literal('result'), id: z.string(), result: RunResult }),
  z.object({ type: z.literal('step'), id: z.string(), step: LiveStep }),
]);
export type WarmRunnerAnswer = z.infer<typeof WarmRunnerAnswer>;
