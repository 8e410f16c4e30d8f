import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { chromium, firefox, webkit, type Browser, type BrowserType } from 'playwright-core';
import { UsageError, type BrowserName } from './support/settings.js';
import { useEgressProxyFromEnv } from '@rehearse/egress';

// The only module that launches a browser (CONVENTIONS "every technology behind one door"). No
// browser is downloaded at install: Chromium comes from CHROMIUM_PATH, Playwright's cache or the
// system, the same order scripts/ensure-chromium.mjs uses. Headless Chromium runs in Chromium's
// headless shell when one is installed (see findHeadlessShell).

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** Where each browser sits inside a Playwright cache folder (`chromium-1187/chrome-linux/chrome`, …). */
const CACHE_LAYOUT: Record<BrowserName, { prefix: string; files: string[] }> = {
  chromium: {
    prefix: 'chromium-',
    files: ['chrome-linux/chrome', 'chrome-linux64/chrome', 'chrome-mac/Chromium.app/Contents/MacOS/Chromium', 'chrome-win/chrome.exe'],
  },
  // Playwright drives patched Firefox and WebKit builds; a system Firefox or Safari will not answer.
  firefox: { prefix: 'firefox-', files: ['firefox/firefox', 'firefox/Nightly.app/Contents/MacOS/firefox', 'firefox/firefox.exe'] },
  webkit: { prefix: 'webkit-', files: ['pw_run.sh', 'Playwright.app/Contents/MacOS/Playwright', 'Playwright.exe'] },
};

/**
 * Chromium's headless shell in a Playwright cache folder (`npx playwright install chromium` puts
 * it beside Chromium): `chromium_headless_shell-1255/chrome-headless-shell-linux64/…`, or
 * `…/chrome-linux/headless_shell` from Playwright releases before 1.57.
 */
const HEADLESS_SHELL_LAYOUT = {
  prefix: 'chromium_headless_shell-',
  files: [
    'chrome-headless-shell-linux64/chrome-headless-shell',
    'chrome-headless-shell-linux-arm64/chrome-headless-shell',
    'chrome-linux/headless_shell',
    'chrome-headless-shell-mac-arm64/chrome-headless-shell',
    'chrome-headless-shell-mac-x64/chrome-headless-shell',
    'chrome-mac/headless_shell',
    'chrome-headless-shell-win64/chrome-headless-shell.exe',
    'chrome-win/headless_shell.exe',
  ],
};

/**
 * Debian's `chromium-headless-shell` package: its binary first, because the `/usr/bin` wrapper
 * runs it as a child of `sh` without exec, so a browser killed through its pid (a crash as the
 * worker sees it) would leave the real one running and still answering Playwright's pipe.
 */
const SYSTEM_HEADLESS_SHELL = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

const ENV_VARIABLE: Record<BrowserName, string> = { chromium: 'CHROMIUM_PATH', firefox: 'FIREFOX_PATH', webkit: 'WEBKIT_PATH' };

/** `REHEARSE_HEADLESS_SHELL=0` runs headless Chromium in the full browser instead of the shell. */
const HEADLESS_SHELL_VARIABLE = 'REHEARSE_HEADLESS_SHELL';
/** Points at a headless shell executable of one's own. */
const HEADLESS_SHELL_PATH_VARIABLE = 'CHROMIUM_HEADLESS_SHELL_PATH';

function fromPlaywrightCache({ prefix, files }: { prefix: string; files: string[] }, env: NodeJS.ProcessEnv): string | undefined {
  const cache = env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return undefined;
  // Newest build first; `chromium_headless_shell-*` does not match `chromium-`.
  for (const dir of readdirSync(cache)
    .filter((entry) => entry.startsWith(prefix))
    .sort()
    .reverse()) {
    for (const file of files) {
      const candidate = path.join(cache, dir, file);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Whether headless Chromium may run in the headless shell: yes unless REHEARSE_HEADLESS_SHELL=0. */
function headlessShellAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[HEADLESS_SHELL_VARIABLE];
  if (value === undefined || value === '' || value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new UsageError(`${HEADLESS_SHELL_VARIABLE} must be 1 or 0`);
}

/**
 * Chromium's headless shell, where headless runs go when it is installed, as Playwright's own
 * headless runs do: the same Blink and V8 without the browser's UI layer, it costs about a third of
 * the full browser's CPU per scenario (measured: 0.45 against 1.46 CPU-s opening the demo shop),
 * which on a small machine is what lets a second thread run beside the first. An explicit
 * CHROMIUM_PATH is taken as the one browser every run uses, so it turns the shell off unless
 * CHROMIUM_HEADLESS_SHELL_PATH names one too.
 */
export function findHeadlessShell(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!headlessShellAllowed(env)) return undefined;
  const explicit = env[HEADLESS_SHELL_PATH_VARIABLE];
  if (explicit && existsSync(explicit)) return explicit;
  if (env[ENV_VARIABLE.chromium]) return undefined;
  return fromPlaywrightCache(HEADLESS_SHELL_LAYOUT, env) ?? SYSTEM_HEADLESS_SHELL.find((candidate) => existsSync(candidate));
}

/** The executable a run would use for `name` (headless or not), or undefined when none is installed. */
export function findBrowserExecutable(name: BrowserName, env: NodeJS.ProcessEnv = process.env, headless = false): string | undefined {
  if (name === 'chromium' && headless) {
    const shell = findHeadlessShell(env);
    if (shell) return shell;
  }
  const explicit = env[ENV_VARIABLE[name]];
  if (explicit && existsSync(explicit)) return explicit;
  const cached = fromPlaywrightCache(CACHE_LAYOUT[name], env);
  if (cached) return cached;
  return name === 'chromium' ? SYSTEM_CHROMIUM.find((candidate) => existsSync(candidate)) : undefined;
}

/** Points at a browser to connect to instead of launching one (a grid, Browserless, Moon, …). */
const ENDPOINT_VARIABLE = 'REHEARSE_BROWSER_WS_ENDPOINT';

/** How a run reaches a browser it did not launch. */
export interface BrowserEndpoint {
  /**
   * `playwright`: a Playwright browser server (`browserType.launchServer()`, `npx playwright
   * run-server`, Moon, Browserless's Playwright route), reached with `browserType.connect`.
   * `cdp`: a Chromium DevTools endpoint (`--remote-debugging-port`, Selenium Grid 4's `se:cdp`,
   * Browserless's CDP route), reached with `chromium.connectOverCDP`.
   */
  protocol: 'playwright' | 'cdp';
  url: string;
}

/**
 * The browser endpoint REHEARSE_BROWSER_WS_ENDPOINT names, or undefined when it is unset. `http(s)://`
 * and `ws(s)://…/devtools/…` are CDP endpoints; any other `ws(s)://` is a Playwright browser server.
 * Throws a UsageError naming the variable for anything else.
 */
export function browserEndpoint(env: NodeJS.ProcessEnv = process.env): BrowserEndpoint | undefined {
  const value = env[ENDPOINT_VARIABLE]?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${ENDPOINT_VARIABLE} must be a ws://, wss://, http:// or https:// address`);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return { protocol: 'cdp', url: value };
  if (url.protocol === 'ws:' || url.protocol === 'wss:') {
    return { protocol: url.pathname.startsWith('/devtools/') ? 'cdp' : 'playwright', url: value };
  }
  throw new UsageError(`${ENDPOINT_VARIABLE} must be a ws://, wss://, http:// or https:// address`);
}

/** Why `name` cannot run here, in a sentence that says what to do; undefined when it can. */
export function missingBrowserMessage(name: BrowserName, env: NodeJS.ProcessEnv = process.env, headless = false): string | undefined {
  // A browser from an endpoint needs nothing installed here.
  const endpoint = browserEndpoint(env);
  if (endpoint)
    return endpoint.protocol === 'cdp' && name !== 'chromium'
      ? `${ENDPOINT_VARIABLE} is a Chromium DevTools endpoint; it cannot serve ${name}.`
      : undefined;
  if (findBrowserExecutable(name, env, headless)) return undefined;
  if (name === 'chromium') {
    return 'No Chromium found: install it (for example `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable.';
  }
  return `No ${name} found: Playwright's ${name} build is needed (\`npx playwright install ${name}\`), or set ${ENV_VARIABLE[name]} to its executable.`;
}

const TYPES: Record<BrowserName, BrowserType> = { chromium, firefox, webkit };

export interface LaunchOptions {
  browser: BrowserName;
  headless: boolean;
  /**
   * Chromium also listens for DevTools clients on this loopback port (`rehearse record
   * --debug-port`), so a person's own tools, or a test, can drive the recorder's window.
   */
  debugPort?: number | undefined;
}

function launchArgs(browser: BrowserName, headless: boolean): string[] {
  const args: string[] = [];
  if (browser === 'chromium') {
    // Background networking (safe browsing, component updates) adds requests no test asked for.
    args.push('--disable-background-networking');
    if (headless) args.push('--disable-gpu');
    if (process.platform === 'linux') {
      // Containers give /dev/shm 64 MB, which Chromium outgrows; and root (CI images) cannot use
      // Chromium's sandbox at all.
      args.push('--disable-dev-shm-usage');
      if (process.getuid?.() === 0 || process.env.REHEARSE_NO_SANDBOX === '1') args.push('--no-sandbox');
    }
  }
  return args;
}

function executableFor(browser: BrowserName, headless: boolean): string {
  const executablePath = findBrowserExecutable(browser, process.env, headless);
  if (!executablePath) throw new Error(missingBrowserMessage(browser, process.env, headless));
  return executablePath;
}

/** How long connecting to a browser endpoint may take before the run gives up on it. */
const CONNECT_TIMEOUT_MS = 30_000;

/** A browser endpoint that did not answer: the run cannot start (an infrastructure error, not a failed scenario). */
export class BrowserEndpointError extends Error {
  override readonly name = 'BrowserEndpointError';
}

/** Connects to the browser REHEARSE_BROWSER_WS_ENDPOINT names; rejects with a BrowserEndpointError that names it. */
async function connectBrowser(browser: BrowserName, endpoint: BrowserEndpoint): Promise<Browser> {
  try {
    return endpoint.protocol === 'cdp'
      ? await chromium.connectOverCDP(endpoint.url, { timeout: CONNECT_TIMEOUT_MS })
      : await TYPES[browser].connect(endpoint.url, { timeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    // Playwright's message carries a call log; its first line says what went wrong.
    const reason = ((error as Error).message.split('\n')[0] ?? '').trim();
    const kind = endpoint.protocol === 'cdp' ? 'Chromium DevTools endpoint' : 'Playwright browser server';
    throw new BrowserEndpointError(`Could not connect to the ${kind} at ${ENDPOINT_VARIABLE}=${redactUrl(endpoint.url)}: ${reason}`);
  }
}

/** The endpoint without credentials or query (grids often carry a token there). */
function redactUrl(text: string): string {
  const url = new URL(text);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.href;
}

/**
 * The browser a run asked for: connected from REHEARSE_BROWSER_WS_ENDPOINT when it is set (no
 * Chromium is launched here then; `headless` is the endpoint's business), else launched; throws
 * with {@link missingBrowserMessage} when absent. Closing a connected browser disconnects and
 * drops this run's contexts, leaving the remote browser to its owner.
 */
export async function launchBrowser({ browser, headless, debugPort }: LaunchOptions): Promise<Browser> {
  const endpoint = browserEndpoint();
  if (endpoint) {
    const missing = missingBrowserMessage(browser);
    if (missing) throw new Error(missing);
    return connectBrowser(browser, endpoint);
  }
  // A job's browser goes through the egress proxy, loopback included (Playwright routes it there).
  const proxy = await useEgressProxyFromEnv();
  try {
    return await TYPES[browser].launch({
      executablePath: executableFor(browser, headless),
      headless,
      args: [
        ...launchArgs(browser, headless),
        ...(debugPort !== undefined && browser === 'chromium' ? [`--remote-debugging-port=${debugPort}`] : []),
      ],
      ...(proxy ? { proxy: { server: proxy } } : {}),
    });
  } catch (error) {
    throw new Error(`the browser did not start: ${browserStartProblem(error)}`, { cause: error });
  }
}

/** Why a browser launch failed, in a sentence (Playwright's own message is a page of launch log). */
export function browserStartProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/XServer|Missing X server|\$DISPLAY/.test(message))
    return 'there is no display for its window here (run it in a desktop session, or add --headless).';
  return (
    message.split('\n').find((line) => line.trim() && !line.startsWith('browserType.launch: Target page')) ??
    message.split('\n')[0] ??
    message
  );
}
