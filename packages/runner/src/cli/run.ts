import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { loadConfiguration, loadSupport, runCucumber, type IConfiguration, type ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { createApiClient, ApiError } from '@rehearse/api-client';
import { RunReport, RunResult, runnerCalls, stepTextProblem, type LiveStep, type RunErrorClass, type TestCase } from '@rehearse/contract';
import type { LocatorCandidate } from '../support/elements.js';
import { browserEndpoint, missingBrowserMessage } from '../browser.js';
import { ArtifactStore } from '../report/artifacts.js';
import { ReportBuilder } from '../report/builder.js';
import { liveSteps } from '../report/live-steps.js';
import { DEFAULT_FORMATS, FormatterHost, planFormats, type FormatPlan } from '../report/formats.js';
import { isPassed, runStatus } from '../report/status.js';
import { REPORT_FILES, writeReport } from '../report/write.js';
import {
  BROWSERS,
  DATA_FILE,
  DEFAULTS,
  SCREENSHOT_POLICIES,
  UsageError,
  WorkspaceFileError,
  defaultHeadless,
  parseViewport,
  readEnvironment,
  readProjectConfig,
  reducedMotionFrom,
  readTestDataFile,
  traceFrom,
  type BrowserName,
  type RunSettings,
  type ScreenshotPolicy,
} from '../support/settings.js';
import { mergeRows, TestData, type TestDataRow } from '../support/test-data.js';
import { openSharedBrowser, takeLaunchFailure } from '../support/world.js';
import { parse, RUN_OPTIONS, USAGE } from './args.js';
import { DEFAULT_SERVER, EXIT, RUN_CLI_READING_PROFILE, type CliIo } from './io.js';
import { ensureLoaders, withoutSourceMaps } from './loaders.js';
import { BUILT, LOADERS_MODULE, SUPPORT_MODULE, SUPPORT_REGISTER } from './package-files.js';
import { readProjectFile } from './project-file.js';
import { resolveProject, warnOnVersionMismatch } from './server.js';
import { KEPT_DEFAULT_FORMATS, uploadRun } from './upload.js';

/** Support files `rehearse run` loads when no profile names its own: cucumber's, plus TypeScript. */
export const DEFAULT_SUPPORT = ['features/**/*.{js,mjs,cjs,ts}'];
/** The runner's own support modules: a profile written for plain cucumber-js imports one; a run registers it once. */
const OWN_SUPPORT = [fileURLToPath(SUPPORT_REGISTER), fileURLToPath(SUPPORT_MODULE)];

const require = createRequire(import.meta.url);
// cucumber's own path resolution (globs, folders), so support files are found as cucumber-js finds them.
const { resolvePaths } = require('@cucumber/cucumber/lib/paths/index') as {
  resolvePaths: (
    logger: unknown,
    cwd: string,
    sources: { paths: string[] },
    support: { requireModules: string[]; requirePaths: string[]; importPaths: string[]; loaders: string[] },
  ) => Promise<{ requirePaths: string[]; importPaths: string[] }>;
};
const { locateFile } = require('@cucumber/cucumber/lib/configuration/locate_file') as { locateFile: (cwd: string) => string | undefined };
/**
 * tsx's `--import` entry: importing it registers TypeScript support. Only the TypeScript source
 * has it: the built package is plain JavaScript and ships without tsx.
 */
const TSX_LOADER = BUILT ? undefined : pathToFileURL(require.resolve('tsx')).href;

const realPath = (file: string) => {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
};

/**
 * The support files of a workspace (step definitions, hooks, worlds, parameter types): what the
 * cucumber profile imports or requires, else `features/**\/*.{js,mjs,cjs,ts}`; in cucumber's order,
 * without type declarations or the runner's own support module.
 */
export async function findSupportFiles(
  cwd: string,
  patterns: { import: readonly string[]; require: readonly string[] } = { import: [], require: [] },
): Promise<string[]> {
  const none = patterns.import.length === 0 && patterns.require.length === 0;
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const { requirePaths, importPaths } = await resolvePaths(
    silent,
    cwd,
    { paths: [] },
    {
      requireModules: [],
      loaders: [],
      requirePaths: [...patterns.require],
      importPaths: none ? DEFAULT_SUPPORT : [...patterns.import],
    },
  );
  const own = new Set(OWN_SUPPORT.map(realPath));
  return [...new Set([...requirePaths, ...importPaths])].filter((file) => !file.endsWith('.d.ts') && !own.has(realPath(file)));
}

/**
 * A workspace file the support code refused as it loaded (a `.steps` file that calls itself): a
 * usage error with its file and line, as a bad option is. The support module is loaded through
 * the run's own loaders, so its error classes are not this module's: they are known by name.
 */
function unusableSupport(error: unknown): never {
  if (error instanceof Error && error.name === 'ReusableStepError') throw new WorkspaceFileError(error.message);
  throw error;
}

/**
 * The support file cucumber imports for one run. It registers Rehearse, then imports the
 * workspace's support files with a per-run query: a process that runs twice (tests, the bench,
 * a worker) gets fresh step registrations instead of modules Node cached on the first run. A
 * `--parallel` worker process starts without the runner's loaders, so the file registers them first.
 */
function writeEntry(dir: string, runId: string, supportFiles: string[], stepTimeoutMs: number, workspaceDir: string): string {
  const lines = [
    `if (!globalThis[Symbol.for('rehearse.loaders')]) {`,
    ...(TSX_LOADER ? [`  await import(${JSON.stringify(TSX_LOADER)});`, `  globalThis[Symbol.for('rehearse.tsx')] = true;`] : []),
    `  (await import(${JSON.stringify(LOADERS_MODULE)})).ensureLoaders();`,
    `}`,
    `const { registerSupport } = await import(${JSON.stringify(SUPPORT_MODULE)});`,
    `registerSupport({ stepTimeoutMs: ${stepTimeoutMs}, workspaceDir: ${JSON.stringify(workspaceDir)} });`,
    ...supportFiles.map((file) => `await import(${JSON.stringify(`${pathToFileURL(file).href}?run=${runId}`)});`),
  ];
  const entry = path.join(dir, 'support.mjs');
  writeFileSync(entry, `${lines.join('\n')}\n`);
  return entry;
}

/** The cucumber configuration of a run: profile (cucumber.js, .mjs, .cjs, .json, .yaml) under the command line. */
interface CucumberOptions {
  use: IConfiguration;
  /** Scenario name patterns (regular expressions, any may match). */
  names: string[];
}

function wholeNumber(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max} (got "${value}")`);
  return number;
}

type RunOptionValues = ReturnType<typeof parse<typeof RUN_OPTIONS>>['values'];

/**
 * Reads the workspace's cucumber profile (`--profile`, else its "default") and lays the command
 * line over it as cucumber-js does: tags are and-ed, names and formats added, the rest replaced.
 */
async function cucumberOptions(opts: RunOptionValues, cwd: string, io: CliIo): Promise<CucumberOptions> {
  if (opts.name !== undefined && opts.scenario !== undefined)
    throw new UsageError('Choose --scenario (an exact name) or --name (a regular expression), not both');
  if (opts.name !== undefined) {
    try {
      new RegExp(opts.name);
    } catch (error) {
      throw new UsageError(`--name is not a regular expression: ${(error as Error).message}`);
    }
  }
  let formatOptions: IConfiguration['formatOptions'] | undefined;
  if (opts['format-options'] !== undefined) {
    try {
      formatOptions = JSON.parse(opts['format-options']) as IConfiguration['formatOptions'];
    } catch {
      formatOptions = undefined;
    }
    if (!formatOptions || typeof formatOptions !== 'object' || Array.isArray(formatOptions))
      throw new UsageError('--format-options must be a JSON object');
  }
  const retry = wholeNumber(opts.retry, '--retry', 10);
  const parallel = wholeNumber(opts.parallel, '--parallel', 16);
  const provided: Partial<IConfiguration> = {
    ...(opts.tags ? { tags: opts.tags } : {}),
    ...(opts.format ? { format: opts.format } : {}),
    ...(formatOptions ? { formatOptions } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(parallel !== undefined ? { parallel } : {}),
    ...(opts['fail-fast'] ? { failFast: true } : {}),
    ...(opts['dry-run'] ? { dryRun: true } : {}),
    ...(opts.name !== undefined ? { name: [opts.name] } : opts.scenario !== undefined ? { name: [namePattern(opts.scenario)] } : {}),
  };
  const stderr = new Writable({ write: (chunk: Buffer, _encoding, done) => (io.stderr.write(chunk.toString('utf8')), done()) });
  // cucumber-js ignores a profile asked for when there is no configuration file; a typo would run everything.
  if (opts.profile?.length && !locateFile(cwd)) {
    throw new UsageError(
      `--profile ${opts.profile.join(', ')}: there is no cucumber.js, .cjs, .mjs, .json, .yaml or .yml in ${cwd} to take it from`,
    );
  }
  // A workspace's cucumber.mjs imports @rehearse/runner/profile; a pulled folder (a job's, a CI's)
  // has no node_modules of its own, so this runner's loaders resolve it before the profile loads.
  ensureLoaders();
  const flags = globalThis as Record<symbol, unknown>;
  flags[RUN_CLI_READING_PROFILE] = true;
  try {
    const { useConfiguration } = await loadConfiguration({ profiles: opts.profile ?? [], provided }, { cwd, env: io.env, stderr });
    return { use: useConfiguration, names: useConfiguration.name };
  } catch (error) {
    throw new UsageError(`The cucumber configuration is not usable: ${(error as Error).message}`);
  } finally {
    delete flags[RUN_CLI_READING_PROFILE];
  }
}

/**
 * `--dry-run`: lists, scenario by scenario, the steps no definition matches (with the closest
 * phrasings that would run) and those several match; exits as cucumber-js would.
 */
function dryRunSummary(report: RunReport, success: boolean, print: (line?: string) => void): number {
  const seen = new Set<string>();
  let undefinedSteps = 0;
  let ambiguousSteps = 0;
  for (const testCase of report.testCases) {
    for (const step of testCase.steps) {
      // Nothing runs in a dry run: a failed step is one several definitions match.
      if (step.result.status !== 'UNDEFINED' && step.result.status !== 'FAILED') continue;
      const key = `${testCase.id}\n${step.result.status}\n${step.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (step.result.status === 'UNDEFINED') undefinedSteps++;
      else ambiguousSteps++;
      print(
        `${step.result.status === 'UNDEFINED' ? 'Undefined' : 'Ambiguous'}: ${step.keyword} ${step.text} (${testCase.uri}${step.line ? `:${step.line}` : ''} › ${testCase.scenarioName})`,
      );
      const problem = step.result.status === 'UNDEFINED' ? stepTextProblem(step.text) : undefined;
      if (problem) print(`    ${problem}`);
      const didYouMean = /Did you mean: (.*)$/m.exec(step.result.message ?? '')?.[1];
      if (didYouMean) print(`    Did you mean: ${didYouMean}`);
    }
  }
  const total = report.testCases.length;
  print();
  print(
    `Dry run of ${total} scenario${total === 1 ? '' : 's'}: ${undefinedSteps} undefined, ${ambiguousSteps} ambiguous step${ambiguousSteps === 1 ? '' : 's'}`,
  );
  return success ? EXIT.ok : EXIT.failed;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `--scenario` matches one scenario exactly. A Scenario Outline's name as written (`Search for
 * <term>`) matches each of its examples, whose names have the placeholders filled in.
 */
export function namePattern(name: string): string {
  return `^${escapeRegExp(name).replace(/<[^<>]+>/g, '.*')}$`;
}

function seconds(testCase: TestCase): string {
  return `${((Date.parse(testCase.result.endTime) - Date.parse(testCase.result.startTime)) / 1000).toFixed(1)} s`;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

/**
 * "Rerun once to confirm" (DESIGN §11): scenarios that passed only thanks to healing run again
 * with the healed locator candidates in place of the recorded ones and healing off, exactly as
 * the next run would after the fix is accepted. A scenario that fails then is 'failed by AI'.
 */
async function confirmHealed(
  report: RunReport,
  settings: RunSettings,
  rerun: (names: string[], overrides: Record<string, LocatorCandidate[]>) => Promise<ReportBuilder>,
  print: (line?: string) => void,
): Promise<void> {
  const healed = report.testCases.filter((testCase) => testCase.result.status === 'FIXED_BY_AI');
  if (healed.length === 0) return;
  const overrides: Record<string, LocatorCandidate[]> = { ...settings.locatorOverrides };
  for (const testCase of healed) {
    for (const command of testCase.steps.flatMap((step) => step.commands)) {
      const healing = command.healing;
      if (healing?.healed && healing.source && healing.locators)
        overrides[`${healing.source.file}#${healing.source.key}`] = healing.locators as unknown as LocatorCandidate[];
    }
  }
  const confirm = (await rerun([...new Set(healed.map((testCase) => namePattern(testCase.scenarioName)))], overrides)).build();
  for (const testCase of healed) {
    const again = confirm.testCases.find((other) => other.scenarioName === testCase.scenarioName && other.uri === testCase.uri);
    if (again && isPassed(again.result.status)) {
      print(`  ✓ confirmed by a rerun with the healed locators: ${testCase.scenarioName}`);
      continue;
    }
    testCase.result = {
      ...testCase.result,
      status: 'FAILED',
      message: `Fixed by AI, but the confirming rerun with the healed locators failed${again?.result.message ? `: ${again.result.message}` : ''}`,
    };
    testCase.retrainStats = { result: 'failed' };
    print(`  ✗ failed by AI: the confirming rerun of ${testCase.scenarioName} failed`);
  }
}

/** What a caller running `rehearse run` in its own process (a worker thread) may ask beyond the flags. */
export interface InProcessRunOptions {
  /** Keep the browser open for the process's next run (see RunSettings.keepBrowser). */
  keepBrowser?: boolean;
  /** Support code loaded once and reused by every run of this process (a warm runner). */
  supportCache?: SupportCache;
  /**
   * Write only the default reports an upload keeps (JUnit XML and HTML): a warm runner removes
   * each run's output folder after the upload, and the JSON and message files embed every
   * screenshot once more. Formats a profile or `--format` asks for are still written.
   */
  keptReportsOnly?: boolean;
  /** Told of each Gherkin step as it starts and ends (a warm runner passes it on, for "Run scenario" to show live). */
  onStep?: (step: LiveStep) => void;
}

/**
 * The support code libraries a long-lived process (a warm runner) loaded, by workspace, support
 * files and step timeout: cucumber-js takes a library `loadSupport` answered in place of support
 * options (`runCucumber({ support })`), so a run after the first imports no step file again. A
 * changed step file is a new commit, which a warm runner never serves: it is retired instead.
 */
export class SupportCache {
  private readonly libraries = new Map<string, Promise<{ support: ISupportCodeLibrary; entry: string }>>();

  constructor(
    /** Where the entry modules live: kept for the process's life (a `--parallel` worker imports them again). */
    private readonly dir: string,
  ) {}

  /** The workspace's support code and the entry that loaded it, loaded the first time it is asked for (a failed load is not kept). */
  get(
    cwd: string,
    supportFiles: string[],
    stepTimeoutMs: number,
    load: (entry: string) => Promise<ISupportCodeLibrary>,
  ): Promise<{ support: ISupportCodeLibrary; entry: string }> {
    const key = JSON.stringify([cwd, supportFiles, stepTimeoutMs]);
    let library = this.libraries.get(key);
    if (!library) {
      const entry = writeEntry(mkdtempSync(path.join(this.dir, 'support-')), randomUUID(), supportFiles, stepTimeoutMs, cwd);
      library = load(entry).then((support) => ({ support, entry }));
      library.catch(() => this.libraries.delete(key));
      this.libraries.set(key, library);
    }
    return library;
  }
}

/**
 * Readies a warm runner's workspace before its first request, as its runs will use it: the
 * support code loaded into `cache` (the key a run computes, so the run finds it) and the browser
 * the project's settings name launched, headless, and kept. The two go at once: the import of
 * the step files is this process's work, the launch mostly the browser's.
 */
export async function warmUp(cwd: string, io: CliIo, cache: SupportCache): Promise<void> {
  const { values: opts } = parse([], RUN_OPTIONS);
  const config = readProjectConfig(cwd);
  const browser = config.browser ?? DEFAULTS.browser;
  const missing = missingBrowserMessage(browser, io.env, true);
  if (missing) throw new UsageError(missing);
  const launched = openSharedBrowser({ browser, headless: true }).then(
    () => undefined,
    // Read as a run's launch failure reads, so a job's message says the same either way.
    (error: Error) => new Error(launchReason(error.message)),
  );
  const cucumber = await cucumberOptions(opts, cwd, io);
  const supportFiles = await findSupportFiles(cwd, { import: cucumber.use.import, require: cucumber.use.require });
  const toWritable = (sink: CliIo['stdout']) =>
    new Writable({ write: (chunk: Buffer, _encoding, done) => (sink.write(chunk.toString('utf8')), done()) });
  const environmentOf = { cwd, env: io.env, stdout: toWritable(io.stdout), stderr: toWritable(io.stderr) };
  const loaded = cache
    .get(cwd, supportFiles, config.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs, async (entry) => {
      const { runConfiguration } = await loadConfiguration(
        { file: false, provided: { ...cucumber.use, import: [entry], require: [], format: [], publish: false } },
        { cwd, env: io.env },
      );
      return withoutSourceMaps(() => loadSupport(runConfiguration, environmentOf)).catch(unusableSupport);
    })
    .then(
      () => undefined,
      (error: Error) => error,
    );
  // Both settle before either is reported, so neither is left unhandled; the support code's error is the one a user can fix.
  const [supportFailure, launchFailure] = await Promise.all([loaded, launched]);
  if (supportFailure) throw supportFailure;
  if (launchFailure) throw launchFailure;
}

/**
 * Starts the browser a warm runner's project most likely names (the default, headless) while its
 * first request, the pull and the support code are still to come: `warmUp` then finds it
 * launched, or replaces it when the project's settings name another. A failure here is nobody's:
 * `warmUp` launches again and reports its own.
 */
export function launchLikelyBrowser(env: NodeJS.ProcessEnv): void {
  if (missingBrowserMessage(DEFAULTS.browser, env, true)) return;
  openSharedBrowser({ browser: DEFAULTS.browser, headless: true }).catch(() => undefined);
}

/** A run's result without an upload (none, or not reached). */
function resultOf(exitCode: number, errorClass: RunErrorClass, reason: string | null): RunResult {
  return { exitCode, runId: null, reportLink: null, errorClass, reason };
}

/** A launch error as a result's reason: one sentence that starts by saying so (Playwright's launch log follows on one line). */
function launchReason(failure: string): string {
  const text = failure.replace(/\s+/g, ' ').trim().slice(0, 500);
  return /^the browser did not start/i.test(text) ? `T${text.slice(1)}` : `The browser did not start: ${text}`;
}

/** Writes the typed result where `--result-file` asked, whole or not at all (a reader never sees half a file). */
function writeResultFile(file: string, result: RunResult): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(RunResult.parse(result))}\n`);
  renameSync(partial, file);
}

/**
 * `rehearse run`: runs scenarios, writes the report, uploads it when given a server. Answers a
 * typed result (exit code, the uploaded run and its link, and why it did not pass: a failed
 * scenario or an infrastructure error) and writes the same to `--result-file`, so a worker never
 * reads the runner's output to learn how it went. A usage error is still thrown (the CLI prints
 * the usage), after the result file says so.
 */
export async function runRun(args: string[], io: CliIo, inProcess: InProcessRunOptions = {}): Promise<RunResult> {
  const { values: opts, positionals } = parse(args, RUN_OPTIONS);
  const resultFile = opts['result-file'] ? path.resolve(io.cwd, opts['result-file']) : undefined;
  let result: RunResult;
  try {
    result = await runParsed(opts, positionals, io, inProcess);
  } catch (error) {
    // The run could not say whether its scenarios pass: a setup problem, an unreachable server.
    if (resultFile)
      writeResultFile(
        resultFile,
        resultOf(error instanceof UsageError ? EXIT.usage : EXIT.failed, 'infrastructure', (error as Error).message),
      );
    throw error;
  }
  if (resultFile) writeResultFile(resultFile, result);
  return result;
}

async function runParsed(opts: RunOptionValues, positionals: string[], io: CliIo, inProcess: InProcessRunOptions): Promise<RunResult> {
  if (opts.help) {
    io.stdout.write(USAGE);
    return resultOf(EXIT.ok, 'none', null);
  }
  const cwd = path.resolve(io.cwd);
  const print = (line = '') => io.stdout.write(`${line}\n`);

  const envPath = opts.env ?? path.join('environments', 'default.json');
  if (!existsSync(path.resolve(cwd, envPath))) {
    throw new UsageError(
      opts.env ? `No environment file ${opts.env}` : 'Say which environment to run against: --env environments/<name>.json',
    );
  }
  const environment = readEnvironment(path.resolve(cwd, envPath));
  const config = readProjectConfig(cwd);
  const browser: BrowserName = oneOf(opts.browser, BROWSERS, '--browser') ?? config.browser ?? DEFAULTS.browser;
  const screenshots: ScreenshotPolicy =
    oneOf(opts.screenshots, SCREENSHOT_POLICIES, '--screenshots') ?? config.screenshots ?? DEFAULTS.screenshots;
  const viewport = opts.viewport ? parseViewport(opts.viewport) : (config.viewport ?? DEFAULTS.viewport);
  const trace = opts.trace !== undefined ? traceFrom(opts.trace, config, '--trace') : traceFrom(io.env.REHEARSE_TRACE, config);
  const reducedMotion = reducedMotionFrom(io.env, config);
  if (opts.headless && opts.headed) throw new UsageError('Choose --headless or --headed, not both');
  const headless = opts.headless ? true : opts.headed ? false : defaultHeadless(io.env);
  const cucumber = await cucumberOptions(opts, cwd, io);
  const missing = missingBrowserMessage(browser, io.env, headless);
  if (missing) throw new UsageError(missing);

  const token = opts.token ?? io.env.REHEARSE_TOKEN;
  const projectFile = readProjectFile(cwd);
  const server = opts.server ?? io.env.REHEARSE_SERVER ?? (token ? (projectFile?.server ?? DEFAULT_SERVER) : undefined);
  if (server && !token) throw new UsageError('--server needs --token (or REHEARSE_TOKEN): an access token of the project');
  const givenProject = opts.project ?? io.env.REHEARSE_PROJECT;
  let projectId = givenProject ?? projectFile?.projectId;
  if (server && token) {
    await warnOnVersionMismatch(io, server);
    projectId = await resolveProject(io, server, token, { given: givenProject, remembered: projectFile?.projectId });
  }
  const branch = opts.branch ?? projectFile?.branch;
  const client =
    server && token
      ? createApiClient({ baseUrl: server, getToken: () => token, getProjectId: () => projectId, fetch: io.fetch })
      : undefined;

  // Test data, later layers winning: the workspace's data/data.json ("*" then this environment;
  // encrypted secrets unusable), then the server's plain values for the run, then --data.
  const layers: TestDataRow[][] = [];
  if (existsSync(path.join(cwd, DATA_FILE))) layers.push(readTestDataFile(path.join(cwd, DATA_FILE), environment.name));
  if (client && projectId) {
    try {
      const answer = await client.call(runnerCalls.runTestData, {
        body: { projectId, environment: environment.name, ...(branch ? { branch } : {}), ...(opts.commit ? { commit: opts.commit } : {}) },
      });
      layers.push(answer.testData);
    } catch (error) {
      const reason = `Could not fetch the run's test data from ${server}: ${(error as Error).message}`;
      io.stderr.write(`${reason}\n`);
      return resultOf(EXIT.failed, 'infrastructure', reason);
    }
  }
  if (opts.data) layers.push(readTestDataFile(path.resolve(cwd, opts.data), environment.name));

  const settings: RunSettings = {
    env: environment,
    testData: mergeRows(...layers),
    browser,
    headless,
    viewport,
    screenshots,
    trace,
    stepTimeoutMs: config.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs,
    commandTimeoutMs: config.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs,
    scenarioTimeoutMs: config.scenarioTimeoutMs ?? DEFAULTS.scenarioTimeoutMs,
    ...(reducedMotion ? { reducedMotion: true } : {}),
    ...(opts.heal || io.env.REHEARSE_HEAL === '1' ? { heal: true } : {}),
    ...(inProcess.keepBrowser ? { keepBrowser: true } : {}),
    workspaceDir: cwd,
  };
  // Scrubs what this process prints and writes; the support code scrubs what it records.
  const redactor = new TestData(settings.testData, environment);
  const outDir = path.resolve(cwd, opts.out ?? 'rehearse-report');
  const runId = randomUUID();
  const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-run-'));
  try {
    // Feature paths: the command line's, else the profile's, else every feature (cucumber-js
    // merges a profile's paths with the command line's, and says it will stop doing so).
    const paths =
      positionals.length > 0
        ? positionals
        : cucumber.use.paths.length > 0
          ? cucumber.use.paths
          : [path.join('features', '**', '*.feature')];
    const supportFiles = await findSupportFiles(cwd, { import: cucumber.use.import, require: cucumber.use.require });
    const selected = opts.scenario ?? opts.name;
    const context = {
      env: environment,
      browser,
      viewport,
      mode: io.env.REHEARSE_MODE === 'cloud' ? 'cloud' : 'local',
      ...(selected ? { name: selected } : {}),
    } as const;
    const toWritable = (sink: CliIo['stdout']) =>
      new Writable({ write: (chunk: Buffer, _encoding, done) => (sink.write(chunk.toString('utf8')), done()) });
    const environmentOf = { cwd, env: io.env, stdout: toWritable(io.stdout), stderr: toWritable(io.stderr) };
    const pass = async (
      passSettings: RunSettings,
      names: string[],
      artifactsDir: string,
      onTestCase: (testCase: TestCase) => void,
      formats?: FormatPlan,
    ) => {
      ensureLoaders();
      const configure = (entry: string) =>
        loadConfiguration(
          {
            file: false,
            provided: {
              ...cucumber.use,
              paths,
              import: [entry],
              require: [],
              name: names,
              format: [],
              // Publishing would send the unredacted messages to a third party.
              publish: false,
              worldParameters: { ...cucumber.use.worldParameters, rehearse: passSettings } as never,
            },
          },
          { cwd, env: io.env },
        );
      const loadFrom = async (entry: string) =>
        withoutSourceMaps(async () => loadSupport((await configure(entry)).runConfiguration, environmentOf)).catch(unusableSupport);
      let support: ISupportCodeLibrary;
      let entry: string;
      if (inProcess.supportCache) {
        ({ support, entry } = await inProcess.supportCache.get(cwd, supportFiles, passSettings.stepTimeoutMs, loadFrom));
      } else {
        entry = writeEntry(
          mkdtempSync(path.join(scratch, 'pass-')),
          `${runId}-${randomUUID()}`,
          supportFiles,
          passSettings.stepTimeoutMs,
          cwd,
        );
        support = await loadFrom(entry);
      }
      const { runConfiguration } = await configure(entry);
      const host = formats
        ? await FormatterHost.start({
            ...environmentOf,
            plan: formats,
            supportCodeLibrary: support,
            redact: (text) => redactor.redact(text),
          })
        : undefined;
      const passBuilder = new ReportBuilder(context, new ArtifactStore(artifactsDir), onTestCase);
      const live = inProcess.onStep ? liveSteps(inProcess.onStep) : undefined;
      // cucumber's own progress output is replaced by the lines above (a --format without a file brings one back).
      const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
      const { success } = await withoutSourceMaps(() =>
        runCucumber({ ...runConfiguration, support }, { cwd, env: io.env, stdout: quiet, stderr: environmentOf.stderr }, (envelope) => {
          passBuilder.add(envelope);
          host?.emit(envelope);
          live?.(envelope);
        }),
      );
      const written = (await host?.finish()) ?? true;
      return { builder: passBuilder, success: success && written };
    };

    // A browser endpoint that does not answer is a setup error (exit 2), not one failed scenario each.
    if (browserEndpoint(io.env)) {
      try {
        await openSharedBrowser({ browser, headless });
      } catch (error) {
        io.stderr.write(`${(error as Error).message}\n`);
        return resultOf(EXIT.usage, 'infrastructure', (error as Error).message);
      }
    }
    // A launch failure of this run (not an earlier one of the process) is what classifies it.
    takeLaunchFailure();
    print(
      `Running against ${environment.name} (${environment.baseUrl}) in ${browser}${headless ? ', headless' : ''}${settings.heal ? ', with AI recovery' : ''}${cucumber.use.dryRun ? ' (dry run)' : ''}`,
    );
    const formats = planFormats(
      outDir,
      cucumber.use.format,
      cucumber.use.formatOptions,
      inProcess.keptReportsOnly ? KEPT_DEFAULT_FORMATS : DEFAULT_FORMATS,
    );
    const { builder, success } = await pass(
      settings,
      cucumber.names,
      outDir,
      (testCase) => {
        if (cucumber.use.dryRun) return;
        const mark = isPassed(testCase.result.status) ? '✓' : '✗';
        const flaky = testCase.flaky
          ? `, flaky: passed on attempt ${testCase.attempts} of ${testCase.attempts}`
          : testCase.attempts
            ? `, ${testCase.attempts} attempts`
            : '';
        print(
          `${mark} ${testCase.result.status.padEnd(9)} ${testCase.featureName} › ${testCase.scenarioName} (${seconds(testCase)}${flaky})`,
        );
        if (!isPassed(testCase.result.status) && testCase.result.message) {
          const lines = redactor.redact(testCase.result.message).split('\n').slice(0, 4);
          for (const line of lines) print(`      ${line}`);
        }
      },
      formats,
    );
    for (const error of builder.errors) io.stderr.write(`${redactor.redact(error)}\n`);
    if (cucumber.use.dryRun) {
      const code = dryRunSummary(redactor.redactDeep(builder.build()), success, print);
      return resultOf(
        code,
        code === EXIT.ok ? 'none' : 'test-failed',
        code === EXIT.ok ? null : 'The dry run found undefined or ambiguous steps.',
      );
    }

    const built = builder.build();
    if (settings.heal) {
      await confirmHealed(
        built,
        settings,
        async (names, overrides) =>
          (await pass({ ...settings, heal: false, locatorOverrides: overrides }, names, path.join(scratch, 'confirm'), () => undefined))
            .builder,
        print,
      );
    }

    const report = redactor.redactDeep(built);
    const valid = RunReport.safeParse(report);
    if (!valid.success) io.stderr.write(`The report does not match the contract (a runner bug): ${valid.error.message}\n`);
    writeReport(outDir, report);

    const total = report.testCases.length;
    if (total === 0 && !success && builder.errors.length === 0) {
      io.stderr.write('cucumber-js stopped before running any scenario (see the errors above)\n');
      // The project's own code (a support file, a profile) stopped it: the tests said no.
      return resultOf(EXIT.failed, 'test-failed', 'cucumber-js stopped before running any scenario.');
    }
    if (total === 0 && builder.errors.length === 0) {
      const reason = 'No scenario matched: check the feature paths, --scenario, --name and --tags';
      io.stderr.write(`${reason}\n`);
      return resultOf(EXIT.usage, 'infrastructure', reason);
    }
    const passed = report.testCases.filter((testCase) => isPassed(testCase.result.status)).length;
    const flaky = report.testCases.filter((testCase) => testCase.flaky).length;
    print();
    print(
      `${total} scenario${total === 1 ? '' : 's'}: ${passed} passed${flaky ? ` (${flaky} flaky)` : ''}, ${total - passed} failed — run ${runStatus(report)}`,
    );
    print(`Report: ${path.join(outDir, REPORT_FILES.report)}`);

    let uploaded: { runId: string; reportLink: string } | undefined;
    let uploadFailure: string | undefined;
    if (client && projectId && server) {
      try {
        const {
          runId: uploadedRunId,
          reportLink,
          notKept,
        } = await uploadRun({
          client,
          projectId,
          report,
          outDir,
          appendTo: opts['append-to'],
          uploadKey: opts['upload-key'],
          ...(branch ? { branch } : {}),
        });
        for (const file of notKept) io.stderr.write(`${file} is larger than an artifact may be: it stays in ${outDir} only\n`);
        uploaded = { runId: uploadedRunId, reportLink: new URL(reportLink, server).href };
        print(`Report link: ${uploaded.reportLink}`);
      } catch (error) {
        const reason =
          error instanceof ApiError ? `${error.message} (HTTP ${error.httpStatus}, trace ${error.traceId})` : (error as Error).message;
        uploadFailure = `Uploading the report failed: ${reason}`;
        io.stderr.write(`${uploadFailure}. It is still in ${outDir}\n`);
      }
    }
    const passedAll = runStatus(report) === 'PASSED' && builder.errors.length === 0 && success;
    const launchFailure = takeLaunchFailure();
    const failure = report.testCases.find((testCase) => !isPassed(testCase.result.status));
    const reason = (): string | null => {
      if (passedAll) return null;
      if (failure) return redactor.redact(`${failure.scenarioName}: ${failure.result.message ?? failure.result.status}`).split('\n')[0]!;
      return builder.errors[0] ? redactor.redact(builder.errors[0]).split('\n')[0]! : 'cucumber-js reported the run as failed.';
    };
    // A scenario that failed because its browser never started, or a report the server never got,
    // says nothing about the application under test.
    const errorClass: RunErrorClass =
      uploadFailure || (launchFailure && !passedAll) ? 'infrastructure' : passedAll ? 'none' : 'test-failed';
    return {
      exitCode: passedAll && !uploadFailure ? EXIT.ok : EXIT.failed,
      runId: uploaded?.runId ?? null,
      reportLink: uploaded?.reportLink ?? null,
      errorClass,
      reason: uploadFailure ?? (launchFailure && !passedAll ? launchReason(launchFailure) : reason()),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
