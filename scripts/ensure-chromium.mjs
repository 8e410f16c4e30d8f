// Runs after `npm install`: makes sure a Chromium exists for the runner and recorder, without ever
// failing the install. Order: CHROMIUM_PATH, Playwright's cache, the system browser, then
// `npx playwright install chromium`, then (as root on Debian/Ubuntu) `apt-get install -y chromium`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import path from 'node:path';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

function fromPlaywrightCache() {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return undefined;
  for (const dir of readdirSync(cache).filter((name) => name.startsWith('chromium')).sort().reverse()) {
    for (const rel of ['chrome-linux/chrome', 'chrome-linux64/chrome', 'chrome-mac/Chromium.app/Contents/MacOS/Chromium']) {
      const candidate = path.join(cache, dir, rel);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The Chromium Rehearse will use, or undefined. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return fromPlaywrightCache() ?? SYSTEM_CANDIDATES.find((candidate) => existsSync(candidate));
}

function attempt(command, args) {
  console.log(`[rehearse] no Chromium found; trying: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', timeout: 10 * 60_000 });
  return result.status === 0;
}

function main() {
  if (process.env.REHEARSE_SKIP_BROWSER_CHECK === '1') return;
  let found = findChromium();
  if (found) {
    console.log(`[rehearse] Chromium: ${found}`);
    return;
  }
  if (attempt('npx', ['--yes', 'playwright', 'install', 'chromium'])) found = findChromium();
  const isDebianLike = platform() === 'linux' && existsSync('/etc/debian_version');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!found && isDebianLike && isRoot) {
    if (attempt('apt-get', ['install', '-y', 'chromium']) || (attempt('apt-get', ['update']) && attempt('apt-get', ['install', '-y', 'chromium']))) {
      found = findChromium();
    }
  }
  if (found) {
    console.log(`[rehearse] Chromium: ${found}`);
  } else {
    console.log(
      '[rehearse] No Chromium is available: install Chromium (for example `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable before recording or running scenarios.',
    );
  }
}

try {
  main();
} catch (error) {
  console.log(`[rehearse] Chromium check skipped: ${error instanceof Error ? error.message : String(error)}`);
}
