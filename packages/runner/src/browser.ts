import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { chromium, firefox, webkit, type Browser, type BrowserServer, type BrowserType } from 'playwright-core';
import type { BrowserName } from './support/settings.js';

// The only module that launches a browser (CONVENTIONS "every technology behind one door"). No
// browser is downloaded at install: Chromium comes from CHROMIUM_PATH, Playwright's cache or the
// system, the same order scripts/ensure-chromium.mjs uses.

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

const ENV_VARIABLE: Record<BrowserName, string> = { chromium: 'CHROMIUM_PATH', firefox: 'FIREFOX_PATH', webkit: 'WEBKIT_PATH' };

function fromPlaywrightCache(name: BrowserName, env: NodeJS.ProcessEnv): string | undefined {
  const cache = env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return undefined;
  const { prefix, files } = CACHE_LAYOUT[name];
  // Newest build first; `chromium_headless_shell-*` does not match `chromium-`.
  for (const dir of readdirSync(cache).filter((entry) => entry.startsWith(prefix)).sort().reverse()) {
    for (const file of files) {
      const candidate = path.join(cache, dir, file);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The executable a run would use for `name`, or undefined when none is installed. */
export function findBrowserExecutable(name: BrowserName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env[ENV_VARIABLE[name]];
  if (explicit && existsSync(explicit)) return explicit;
  const cached = fromPlaywrightCache(name, env);
  if (cached) return cached;
  return name === 'chromium' ? SYSTEM_CHROMIUM.find((candidate) => existsSync(candidate)) : undefined;
}

/** Why `name` cannot run here, in a sentence that says what to do; undefined when it can. */
export function missingBrowserMessage(name: BrowserName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (findBrowserExecutable(name, env)) return undefined;
  if (name === 'chromium') {
    return 'No Chromium found: install it (for example `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable.';
  }
  return `No ${name} found: Playwright's ${name} build is needed (\`npx playwright install ${name}\`), or set ${ENV_VARIABLE[name]} to its executable.`;
}

const TYPES: Record<BrowserName, BrowserType> = { chromium, firefox, webkit };

export interface LaunchOptions {
  browser: BrowserName;
  headless: boolean;
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

function executableFor(browser: BrowserName): string {
  const executablePath = findBrowserExecutable(browser);
  if (!executablePath) throw new Error(missingBrowserMessage(browser));
  return executablePath;
}

/** Launches the browser a run asked for; throws with {@link missingBrowserMessage} when absent. */
export async function launchBrowser({ browser, headless }: LaunchOptions): Promise<Browser> {
  return TYPES[browser].launch({ executablePath: executableFor(browser), headless, args: launchArgs(browser, headless) });
}

/** Where a worker tells its threads the address of their shared browser. */
export const BROWSER_SERVER_VARIABLE = 'REHEARSE_BROWSER_SERVER';

/**
 * A headless Chromium that several processes drive at once (a worker's threads): each connects
 * with {@link connectBrowser} and opens its own contexts. One browser instead of one per thread
 * spares a browser, GPU and network process per thread, CPU a small machine needs for pages.
 * It listens on 127.0.0.1 only, at a random path that works as a password.
 */
export async function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: executableFor('chromium'),
    headless: true,
    args: launchArgs('chromium', true),
    host: '127.0.0.1',
    port: 0,
    wsPath: `/${randomBytes(16).toString('hex')}`,
  });
}

/** Connects to a browser of {@link launchBrowserServer}; closing the result disconnects only. */
export async function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint, { timeout: 10_000 });
}
