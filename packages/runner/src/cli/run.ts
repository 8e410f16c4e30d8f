import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import { createApiClient, ApiError } from '@rehearse/api-client';
import { RunReport, runnerCalls, type TestCase } from '@rehearse/contract';
import type { LocatorCandidate } from '../support/elements.js';
import { missingBrowserMessage } from '../browser.js';
import { ArtifactStore } from '../report/artifacts.js';
import { ReportBuilder } from '../report/builder.js';
import { isPassed, runStatus } from '../report/exports.js';
import { REPORT_FILES, writeReportFiles } from '../report/write.js';
import {
  BROWSERS,
  DATA_FILE,
  DEFAULTS,
  SCREENSHOT_POLICIES,
  UsageError,
  defaultHeadless,
  parseViewport,
  readEnvironment,
  readProjectConfig,
  reducedMotionFrom,
  readTestDataFile,
  type BrowserName,
  type RunSettings,
  type ScreenshotPolicy,
} from '../support/settings.js';
import { mergeRows, TestData, type TestDataRow } from '../support/test-data.js';
import { parse, RUN_OPTIONS, USAGE } from './args.js';
import { DEFAULT_SERVER, EXIT, type CliIo } from './io.js';
import { ensureLoaders, withoutSourceMaps } from './loaders.js';
import { readProjectFile } from './project-file.js';
import { uploadRun } from './upload.js';

const STEP_DEFINITIONS_DIR = path.join('features', 'step_definitions');
const STEP_EXTENSIONS = ['.mjs', '.js'];
const SUPPORT_MODULE = new URL('../support/index.ts', import.meta.url).href;

/** Step definition files of a workspace (`features/step_definitions/**\/*.mjs`), sorted for a stable load order. */
export function findStepDefinitions(cwd: string): string[] {
  const root = path.join(cwd, STEP_DEFINITIONS_DIR);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && STEP_EXTENSIONS.includes(path.extname(entry.name)))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The support file cucumber imports for one run. It registers Rehearse, then imports the
 * workspace's step definitions with a per-run query: a process that runs twice (tests, the bench,
 * a worker) gets fresh step registrations instead of modules Node cached on the first run.
 */
function writeEntry(dir: string, runId: string, stepFiles: string[], stepTimeoutMs: number): string {
  const lines = [
    `import { registerSupport } from ${JSON.stringify(SUPPORT_MODULE)};`,
    `registerSupport({ stepTimeoutMs: ${stepTimeoutMs} });`,
    ...stepFiles.map((file) => `await import(${JSON.stringify(`${pathToFileURL(file).href}?run=${runId}`)});`),
  ];
  const entry = path.join(dir, 'support.mjs');
  writeFileSync(entry, `${lines.join('\n')}\n`);
  return entry;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `--name` matches one scenario exactly. A Scenario Outline's name as written (`Search for
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
      if (healing?.healed && healing.source && healing.locators) overrides[`${healing.source.file}#${healing.source.key}`] = healing.locators as unknown as LocatorCandidate[];
    }
  }
  const confirm = (await rerun([...new Set(healed.map((testCase) => namePattern(testCase.scenarioName)))], overrides)).build();
  for (const testCase of healed) {
    const again = confirm.testCases.find((other) => other.scenarioName === testCase.scenarioName && other.uri === testCase.uri);
    if (again && isPassed(again.result.status)) {
      print(`  ✓ confirmed by a rerun with the healed locators: ${testCase.scenarioName}`);
      continue;
    }
    testCase.result = { ...testCase.result, status: 'FAILED', message: `Fixed by AI, but the confirming rerun with the healed locators failed${again?.result.message ? `: ${again.result.message}` : ''}` };
    testCase.retrainStats = { result: 'failed' };
    print(`  ✗ failed by AI: the confirming rerun of ${testCase.scenarioName} failed`);
  }
}

/**
 * Loads the support code as cucumber will (the same URL, so the same module instances): a
 * long-lived process (a worker thread) pays the import and TypeScript transform before its first
 * scenario is claimed rather than after.
 */
export async function preloadSupport(): Promise<void> {
  ensureLoaders();
  await import(SUPPORT_MODULE);
}

/** What a caller running `rehearse run` in its own process (a worker thread) may ask beyond the flags. */
export interface InProcessRunOptions {
  /** Keep the browser open for the process's next run (see RunSettings.keepBrowser). */
  keepBrowser?: boolean;
}

/** `rehearse run`: runs scenarios, writes the report, uploads it when given a server. */
export async function runRun(args: string[], io: CliIo, inProcess: InProcessRunOptions = {}): Promise<number> {
  const { values: opts, positionals } = parse(args, RUN_OPTIONS);
  if (opts.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
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
  const screenshots: ScreenshotPolicy = oneOf(opts.screenshots, SCREENSHOT_POLICIES, '--screenshots') ?? config.screenshots ?? DEFAULTS.screenshots;
  const viewport = opts.viewport ? parseViewport(opts.viewport) : (config.viewport ?? DEFAULTS.viewport);
  const reducedMotion = reducedMotionFrom(io.env, config);
  if (opts.headless && opts.headed) throw new UsageError('Choose --headless or --headed, not both');
  const headless = opts.headless ? true : opts.headed ? false : defaultHeadless(io.env);
  const missing = missingBrowserMessage(browser, io.env, headless);
  if (missing) throw new UsageError(missing);

  const token = opts.token ?? io.env.REHEARSE_TOKEN;
  const server = opts.server ?? io.env.REHEARSE_SERVER ?? (token ? DEFAULT_SERVER : undefined);
  if (server && !token) throw new UsageError('--server needs --token (or REHEARSE_TOKEN): an access token of the project');
  const projectFile = readProjectFile(cwd);
  const projectId = opts.project ?? io.env.REHEARSE_PROJECT ?? projectFile?.projectId;
  if (server && !projectId) {
    throw new UsageError('Which project? Pass --project <id>, set REHEARSE_PROJECT, or run `rehearse pull` here first (it writes .rehearse/project.json)');
  }
  const branch = opts.branch ?? projectFile?.branch;
  const client =
    server && token ? createApiClient({ baseUrl: server, getToken: () => token, getProjectId: () => projectId, fetch: io.fetch }) : undefined;

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
      io.stderr.write(`Could not fetch the run's test data from ${server}: ${(error as Error).message}\n`);
      return EXIT.failed;
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
    stepTimeoutMs: config.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs,
    commandTimeoutMs: config.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs,
    scenarioTimeoutMs: config.scenarioTimeoutMs ?? DEFAULTS.scenarioTimeoutMs,
    ...(reducedMotion ? { reducedMotion: true } : {}),
    ...(opts.heal || io.env.REHEARSE_HEAL === '1' ? { heal: true } : {}),
    ...(inProcess.keepBrowser ? { keepBrowser: true } : {}),
  };
  // Scrubs what this process prints and writes; the support code scrubs what it records.
  const redactor = new TestData(settings.testData, environment);
  const outDir = path.resolve(cwd, opts.out ?? 'rehearse-report');
  const runId = randomUUID();
  const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-run-'));
  try {
    const paths = positionals.length > 0 ? positionals : [path.join('features', '**', '*.feature')];
    const context = { env: environment, browser, viewport, mode: io.env.REHEARSE_MODE === 'cloud' ? 'cloud' : 'local', ...(opts.name ? { name: opts.name } : {}) } as const;
    const pass = async (passSettings: RunSettings, names: string[], artifactsDir: string, onTestCase: (testCase: TestCase) => void) => {
      const passId = randomUUID();
      const passDir = mkdtempSync(path.join(scratch, 'pass-'));
      const entry = writeEntry(passDir, `${runId}-${passId}`, findStepDefinitions(cwd), passSettings.stepTimeoutMs);
      ensureLoaders();
      const { runConfiguration } = await loadConfiguration(
        {
          file: false,
          provided: {
            paths,
            import: [entry],
            name: names,
            tags: opts.tags ?? '',
            format: [],
            worldParameters: { rehearse: passSettings } as never,
          },
        },
        { cwd, env: io.env },
      );
      const passBuilder = new ReportBuilder(context, new ArtifactStore(artifactsDir), onTestCase);
      // cucumber's own progress output is replaced by the lines above.
      const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
      await withoutSourceMaps(() =>
        runCucumber(runConfiguration, { cwd, env: io.env, stdout: quiet, stderr: io.stderr as Writable }, (envelope) => passBuilder.add(envelope)),
      );
      return passBuilder;
    };

    print(`Running against ${environment.name} (${environment.baseUrl}) in ${browser}${headless ? ', headless' : ''}${settings.heal ? ', with AI recovery' : ''}`);
    const builder = await pass(settings, opts.name ? [namePattern(opts.name)] : [], outDir, (testCase) => {
      const mark = isPassed(testCase.result.status) ? '✓' : '✗';
      print(`${mark} ${testCase.result.status.padEnd(9)} ${testCase.featureName} › ${testCase.scenarioName} (${seconds(testCase)})`);
      if (!isPassed(testCase.result.status) && testCase.result.message) {
        const lines = redactor.redact(testCase.result.message).split('\n').slice(0, 4);
        for (const line of lines) print(`      ${line}`);
      }
    });
    const built = builder.build();
    if (settings.heal) await confirmHealed(built, settings, (names, overrides) => pass({ ...settings, heal: false, locatorOverrides: overrides }, names, path.join(scratch, 'confirm'), () => undefined), print);

    const report = redactor.redactDeep(built);
    const valid = RunReport.safeParse(report);
    if (!valid.success) io.stderr.write(`The report does not match the contract (a runner bug): ${valid.error.message}\n`);
    writeReportFiles(outDir, report);
    for (const error of builder.errors) io.stderr.write(`${redactor.redact(error)}\n`);

    const total = report.testCases.length;
    if (total === 0 && builder.errors.length === 0) {
      io.stderr.write('No scenario matched: check the feature paths, --name and --tags\n');
      return EXIT.usage;
    }
    const passed = report.testCases.filter((testCase) => isPassed(testCase.result.status)).length;
    print();
    print(`${total} scenario${total === 1 ? '' : 's'}: ${passed} passed, ${total - passed} failed — run ${runStatus(report)}`);
    print(`Report: ${path.join(outDir, REPORT_FILES.report)}`);

    let uploadFailed = false;
    if (client && projectId && server) {
      try {
        const { reportLink } = await uploadRun({
          client,
          projectId,
          report,
          outDir,
          appendTo: opts['append-to'],
          uploadKey: opts['upload-key'],
          ...(branch ? { branch } : {}),
        });
        print(`Report link: ${new URL(reportLink, server).href}`);
      } catch (error) {
        uploadFailed = true;
        const reason = error instanceof ApiError ? `${error.message} (HTTP ${error.httpStatus}, trace ${error.traceId})` : (error as Error).message;
        io.stderr.write(`Uploading the report failed: ${reason}. It is still in ${outDir}\n`);
      }
    }
    return runStatus(report) === 'PASSED' && builder.errors.length === 0 && !uploadFailed ? EXIT.ok : EXIT.failed;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
