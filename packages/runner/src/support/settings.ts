import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LocatorCandidate } from './elements.js';
import { mergeRows, rowsForEnvironment, type DataType, type TestDataFile, type TestDataRow } from './test-data.js';

export type ScreenshotPolicy = 'every-command' | 'on-failure' | 'off';
/** When a scenario's Playwright trace is kept (Playwright Test's own `trace` values). */
export type TracePolicy = 'off' | 'on' | 'retain-on-failure' | 'on-first-retry';
export const TRACE_POLICIES: readonly TracePolicy[] = ['off', 'on', 'retain-on-failure', 'on-first-retry'];
export type BrowserName = 'chromium' | 'firefox' | 'webkit';
export const SCREENSHOT_POLICIES: readonly ScreenshotPolicy[] = ['every-command', 'on-failure', 'off'];
export const BROWSERS: readonly BrowserName[] = ['chromium', 'firefox', 'webkit'];

export interface Viewport {
  width: number;
  height: number;
}

/** Everything a run needs to know beyond the features; the CLI passes it as world parameter `rehearse`. */
export interface RunSettings {
  env: { name: string; baseUrl: string };
  testData: TestDataRow[];
  browser: BrowserName;
  headless: boolean;
  viewport: Viewport;
  screenshots: ScreenshotPolicy;
  /** Playwright traces (DOM snapshots, screenshots, network, console per action); absent means off. */
  trace?: TracePolicy;
  /** Cucumber's step timeout. */
  stepTimeoutMs: number;
  /** How long one command waits for its element, text or URL. */
  commandTimeoutMs: number;
  /** A scenario past this stops before its next step. */
  scenarioTimeoutMs: number;
  /**
   * Pages see `prefers-reduced-motion: reduce`: apps that honour it skip animations, which makes
   * runs steadier and spares the CPU a looping animation (a loading shimmer) burns while waiting.
   */
  reducedMotion?: boolean;
  /** "Run with AI recovery": an element no candidate finds is looked for by its fingerprint (DESIGN §8). */
  heal?: boolean;
  /**
   * Locator candidates that replace a locator file entry's, keyed `<file>#<key>`: the confirming
   * rerun of a healed scenario runs with the healed candidates as if the fix were accepted.
   */
  locatorOverrides?: Record<string, LocatorCandidate[]>;
  /**
   * Leave the browser open when the run ends, for the next run of this process (a worker thread).
   * Scenarios still get a fresh context each, so nothing but the browser process is shared.
   */
  keepBrowser?: boolean;
  /** The workspace folder the run started in: files a step names (an upload) are relative to it. */
  workspaceDir?: string;
}

/** `rehearse.config.json`, the project's run settings (DESIGN §4); every key optional. */
export interface ProjectConfig {
  screenshots?: ScreenshotPolicy;
  trace?: TracePolicy;
  stepTimeoutMs?: number;
  commandTimeoutMs?: number;
  scenarioTimeoutMs?: number;
  viewport?: Viewport;
  browser?: BrowserName;
  reducedMotion?: boolean;
}

export const DEFAULTS = {
  screenshots: 'every-command',
  // As Playwright Test users set it: a failure comes with its trace, a pass costs no file.
  trace: 'retain-on-failure',
  stepTimeoutMs: 60_000,
  commandTimeoutMs: 10_000,
  scenarioTimeoutMs: 600_000,
  viewport: { width: 1024, height: 768 },
  browser: 'chromium',
  // Off: by default a run sees the app as its users do, animations included.
  reducedMotion: false,
} as const satisfies Required<ProjectConfig>;

export const CONFIG_FILE = 'rehearse.config.json';
export const DATA_FILE = path.join('data', 'data.json');

/** A problem with the user's input or files: the CLI prints the message and exits with 2. */
export class UsageError extends Error {
  override readonly name: string = 'UsageError';
}

/** A usage error in the workspace's own files (a reusable step that calls itself): the command line was fine, so no usage text follows it. */
export class WorkspaceFileError extends UsageError {
  override readonly name: string = 'WorkspaceFileError';
}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`Cannot read ${what} ${file}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPositiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/** Parses `1024x768`. */
export function parseViewport(text: string): Viewport {
  const match = /^(\d{2,5})x(\d{2,5})$/.exec(text.trim());
  if (!match) throw new UsageError(`A viewport is WIDTHxHEIGHT, e.g. 1024x768 (got "${text}")`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** Reads and checks `rehearse.config.json` in `dir`; a missing file is an empty config. */
export function readProjectConfig(dir: string): ProjectConfig {
  const file = path.join(dir, CONFIG_FILE);
  if (!existsSync(file)) return {};
  const raw = readJson(file, 'The project settings');
  if (!isRecord(raw)) throw new UsageError(`${file} must hold a JSON object`);
  const config: ProjectConfig = {};
  const bad = (key: string, expected: string) => new UsageError(`${file}: "${key}" must be ${expected}`);
  if (raw.screenshots !== undefined) {
    if (!SCREENSHOT_POLICIES.includes(raw.screenshots as ScreenshotPolicy)) throw bad('screenshots', SCREENSHOT_POLICIES.join(', '));
    config.screenshots = raw.screenshots as ScreenshotPolicy;
  }
  if (raw.trace !== undefined) {
    if (!TRACE_POLICIES.includes(raw.trace as TracePolicy)) throw bad('trace', TRACE_POLICIES.join(', '));
    config.trace = raw.trace as TracePolicy;
  }
  for (const key of ['stepTimeoutMs', 'commandTimeoutMs', 'scenarioTimeoutMs'] as const) {
    if (raw[key] === undefined) continue;
    if (!isPositiveInt(raw[key])) throw bad(key, 'a positive number of milliseconds');
    config[key] = raw[key];
  }
  if (raw.viewport !== undefined) {
    const viewport = raw.viewport;
    if (!isRecord(viewport) || !isPositiveInt(viewport.width) || !isPositiveInt(viewport.height))
      throw bad('viewport', '{ "width": n, "height": n }');
    config.viewport = { width: viewport.width, height: viewport.height };
  }
  if (raw.browser !== undefined) {
    if (!BROWSERS.includes(raw.browser as BrowserName)) throw bad('browser', BROWSERS.join(', '));
    config.browser = raw.browser as BrowserName;
  }
  if (raw.reducedMotion !== undefined) {
    if (typeof raw.reducedMotion !== 'boolean') throw bad('reducedMotion', 'true or false');
    config.reducedMotion = raw.reducedMotion;
  }
  return config;
}

/** Reads `environments/<name>.json` (`{ name, baseUrl }`); the name defaults to the file's. */
export function readEnvironment(file: string): { name: string; baseUrl: string } {
  const raw = readJson(file, 'The environment file');
  if (!isRecord(raw) || typeof raw.baseUrl !== 'string') throw new UsageError(`${file} must hold { "name": …, "baseUrl": … }`);
  const name = typeof raw.name === 'string' && raw.name ? raw.name : path.basename(file).replace(/\.json$/, '');
  return { name, baseUrl: raw.baseUrl };
}

/**
 * Test data from a file: either the workspace shape (`{ "*": [...], "<env>": [...] }`) or a plain
 * array of rows for this run.
 */
export function readTestDataFile(file: string, environment: string): TestDataRow[] {
  const raw = readJson(file, 'The test data file');
  const isRow = (row: unknown): row is { key: string; value: string; DataType?: string } =>
    isRecord(row) && typeof row.key === 'string' && typeof row.value === 'string';
  const toRows = (rows: unknown[]): Array<{ key: string; value: string; DataType: DataType }> =>
    rows.filter(isRow).map((row) => ({
      key: row.key,
      value: row.value,
      DataType: row.DataType === 'secret' || row.DataType === 'totp' ? row.DataType : 'string',
    }));
  if (Array.isArray(raw)) return mergeRows(toRows(raw));
  if (!isRecord(raw)) throw new UsageError(`${file} must hold test data rows`);
  const byEnvironment: TestDataFile = {};
  for (const [env, rows] of Object.entries(raw)) if (Array.isArray(rows)) byEnvironment[env] = toRows(rows);
  return rowsForEnvironment(byEnvironment, environment);
}

/** Headless in CI and wherever no display exists; `REHEARSE_HEADLESS=0|1` decides otherwise. */
export function defaultHeadless(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env.REHEARSE_HEADLESS !== undefined) return env.REHEARSE_HEADLESS !== '0' && env.REHEARSE_HEADLESS !== 'false';
  if (env.CI) return true;
  return process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

/**
 * Settings for plain `cucumber-js` (no CLI): read from the working directory and `REHEARSE_*`
 * variables — `REHEARSE_ENV` (environment file, default `environments/default.json`),
 * `REHEARSE_DATA` (extra test data file), `REHEARSE_BROWSER`, `REHEARSE_VIEWPORT`,
 * `REHEARSE_SCREENSHOTS`, `REHEARSE_TRACE`, `REHEARSE_HEADLESS`, `REHEARSE_REDUCED_MOTION` (1 or 0).
 */
export function settingsFromWorkspace(cwd: string, env: Readonly<Record<string, string | undefined>> = process.env): RunSettings {
  const config = readProjectConfig(cwd);
  const envFile = path.resolve(cwd, env.REHEARSE_ENV ?? path.join('environments', 'default.json'));
  const environment = existsSync(envFile) || env.REHEARSE_ENV ? readEnvironment(envFile) : { name: 'default', baseUrl: '' };
  const workspaceData = existsSync(path.join(cwd, DATA_FILE)) ? readTestDataFile(path.join(cwd, DATA_FILE), environment.name) : [];
  const extraData = env.REHEARSE_DATA ? readTestDataFile(path.resolve(cwd, env.REHEARSE_DATA), environment.name) : [];
  const browser = env.REHEARSE_BROWSER ?? config.browser ?? DEFAULTS.browser;
  if (!BROWSERS.includes(browser as BrowserName)) throw new UsageError(`REHEARSE_BROWSER must be one of ${BROWSERS.join(', ')}`);
  const screenshots = env.REHEARSE_SCREENSHOTS ?? config.screenshots ?? DEFAULTS.screenshots;
  if (!SCREENSHOT_POLICIES.includes(screenshots as ScreenshotPolicy)) {
    throw new UsageError(`REHEARSE_SCREENSHOTS must be one of ${SCREENSHOT_POLICIES.join(', ')}`);
  }
  const trace = traceFrom(env.REHEARSE_TRACE, config);
  return {
    env: environment,
    testData: mergeRows(workspaceData, extraData),
    trace,
    browser: browser as BrowserName,
    headless: defaultHeadless(env),
    viewport: env.REHEARSE_VIEWPORT ? parseViewport(env.REHEARSE_VIEWPORT) : (config.viewport ?? DEFAULTS.viewport),
    screenshots: screenshots as ScreenshotPolicy,
    stepTimeoutMs: config.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs,
    commandTimeoutMs: config.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs,
    scenarioTimeoutMs: config.scenarioTimeoutMs ?? DEFAULTS.scenarioTimeoutMs,
    ...(reducedMotionFrom(env, config) ? { reducedMotion: true } : {}),
  };
}

/** `REHEARSE_REDUCED_MOTION=1|0` overrides the project's `reducedMotion`. */
export function reducedMotionFrom(env: Readonly<Record<string, string | undefined>>, config: ProjectConfig): boolean {
  const fromEnv = env.REHEARSE_REDUCED_MOTION;
  if (fromEnv === undefined || fromEnv === '') return config.reducedMotion ?? DEFAULTS.reducedMotion;
  if (fromEnv === '1' || fromEnv === 'true') return true;
  if (fromEnv === '0' || fromEnv === 'false') return false;
  throw new UsageError('REHEARSE_REDUCED_MOTION must be 1 or 0');
}

/** The trace policy: `value` (a flag or `REHEARSE_TRACE`) over the project's, else the default. */
export function traceFrom(value: string | undefined, config: ProjectConfig, what = 'REHEARSE_TRACE'): TracePolicy {
  if (value === undefined || value === '') return config.trace ?? DEFAULTS.trace;
  if (!TRACE_POLICIES.includes(value as TracePolicy)) throw new UsageError(`${what} must be one of ${TRACE_POLICIES.join(', ')}`);
  return value as TracePolicy;
}
