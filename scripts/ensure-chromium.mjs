// Runs after `npm install`: makes sure a Chromium exists for the runner and recorder, without ever
// failing the install. Order: CHROMIUM_PATH, Playwright's cache, the system browser, then
// `npx playwright install chromium`, then (as root on Debian/Ubuntu) `apt-get install -y chromium`.
// Beside it, Chromium's headless shell, which headless runs use when present (a third of the
// CPU per scenario; packages/runner/src/browser.ts): as root on Debian, `apt-get install -y
// chromium-headless-shell`; Playwright's install above brings its own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import path from 'node:path';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

function fromPlaywrightCache() {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return undefined;
  for (const dir of readdirSync(cache)
    .filter((name) => name.startsWith('chromium'))
    .sort()
    .reverse()) {
    for (const rel of ['chrome-linux/chrome', 'chrome-linux64/chrome', 'chrome-mac/Chromium.app/Contents/MacOS/Chromium']) {
      const candidate = path.join(cache, dir, rel);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Chromium's headless shell from Playwright's cache or Debian's package, or undefined. */
function findHeadlessShell() {
  if (process.env.CHROMIUM_HEADLESS_SHELL_PATH && existsSync(process.env.CHROMIUM_HEADLESS_SHELL_PATH))
    return process.env.CHROMIUM_HEADLESS_SHELL_PATH;
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (existsSync(cache) && readdirSync(cache).some((name) => name.startsWith('chromium_headless_shell-'))) return cache;
  return existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : undefined;
}

/** The Chromium Rehearse will use, or undefined. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return fromPlaywrightCache() ?? SYSTEM_CANDIDATES.find((candidate) => existsSync(candidate));
}

function attempt(command, args, what = 'Chromium') {
  console.log(`[rehearse] no ${what} found; trying: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', timeout: 10 * 60_000 });
  return result.status === 0;
}

function main() {
  if (process.env.REHEARSE_SKIP_BROWSER_CHECK === '1') return;
  let found = findChromium();
  const isDebianLike = platform() === 'linux' && existsSync('/etc/debian_version');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  ensureSandbox(isDebianLike && isRoot);
  if (found) {
    console.log(`[rehearse] Chromium: ${found}`);
    ensureHeadlessShell(isDebianLike && isRoot);
    return;
  }
  if (attempt('npx', ['--yes', 'playwright', 'install', 'chromium'])) found = findChromium();
  if (!found && isDebianLike && isRoot) {
    if (
      attempt('apt-get', ['install', '-y', 'chromium']) ||
      (attempt('apt-get', ['update']) && attempt('apt-get', ['install', '-y', 'chromium']))
    ) {
      found = findChromium();
    }
  }
  if (found) {
    console.log(`[rehearse] Chromium: ${found}`);
    ensureHeadlessShell(isDebianLike && isRoot);
  } else {
    console.log(
      '[rehearse] No Chromium is available: install Chromium (for example `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable before recording or running scenarios.',
    );
  }
}

/**
 * Jobs (step code) run in a bubblewrap sandbox (packages/runner/src/sandbox.ts); without it the
 * server and workers refuse to run them unless REHEARSE_UNSANDBOXED_WORKERS=1.
 */
function ensureSandbox(canApt) {
  if (platform() !== 'linux' || existsSync('/usr/bin/bwrap')) return;
  const install = () => attempt('apt-get', ['install', '-y', 'bubblewrap'], 'bubblewrap (job sandbox)');
  if (canApt && (install() || (attempt('apt-get', ['update'], 'bubblewrap (job sandbox)') && install()))) return;
  console.log(
    '[rehearse] No bubblewrap: install it (for example `sudo apt-get install bubblewrap`) so scenario jobs can run sandboxed, or set REHEARSE_UNSANDBOXED_WORKERS=1 on a trusted single-user install.',
  );
}

/** Installs Debian's headless shell beside a system Chromium; without it headless runs use Chromium. */
function ensureHeadlessShell(canApt) {
  if (process.env.CHROMIUM_PATH || process.env.REHEARSE_HEADLESS_SHELL === '0') return;
  let shell = findHeadlessShell();
  const install = () => attempt('apt-get', ['install', '-y', 'chromium-headless-shell'], 'Chromium headless shell');
  // As for Chromium: package lists a fresh machine never updated do not know the package yet.
  if (!shell && canApt && (install() || (attempt('apt-get', ['update'], 'Chromium headless shell') && install())))
    shell = findHeadlessShell();
  console.log(
    shell
      ? `[rehearse] Chromium headless shell: ${shell}`
      : "[rehearse] Headless runs use full Chromium: install Chromium's headless shell (for example `sudo apt-get install chromium-headless-shell`) for runs that need about a third of the CPU.",
  );
}

try {
  main();
} catch (error) {
  console.log(`[rehearse] Chromium check skipped: ${error instanceof Error ? error.message : String(error)}`);
}
