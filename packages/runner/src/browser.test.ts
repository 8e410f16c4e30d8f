import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findBrowserExecutable, findHeadlessShell, launchBrowser, missingBrowserMessage } from './browser.js';

const cache = mkdtempSync(path.join(tmpdir(), 'rehearse-browser-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** Puts an executable file at `relative` inside the fake Playwright cache and answers its path. */
function cached(relative: string): string {
  const file = path.join(cache, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

const chromium = cached('chromium-1255/chrome-linux64/chrome');
// An older build in the older layout: the newest build must win over it.
cached('chromium_headless_shell-1200/chrome-linux/headless_shell');
const shell = cached('chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell');
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PLAYWRIGHT_BROWSERS_PATH: cache, ...extra });

describe('which Chromium a run launches', () => {
  it('runs headless Chromium in the newest headless shell of the cache, and headed runs in Chromium', () => {
    expect(findBrowserExecutable('chromium', env(), true)).toBe(shell);
    expect(findBrowserExecutable('chromium', env(), false)).toBe(chromium);
  });

  it('runs headless in full Chromium when REHEARSE_HEADLESS_SHELL is 0', () => {
    expect(findBrowserExecutable('chromium', env({ REHEARSE_HEADLESS_SHELL: '0' }), true)).toBe(chromium);
    expect(findBrowserExecutable('chromium', env({ REHEARSE_HEADLESS_SHELL: '1' }), true)).toBe(shell);
  });

  it('refuses a REHEARSE_HEADLESS_SHELL that is not 1 or 0 with a sentence naming it', () => {
    expect(() => findBrowserExecutable('chromium', env({ REHEARSE_HEADLESS_SHELL: 'yes' }), true)).toThrow(
      'REHEARSE_HEADLESS_SHELL must be 1 or 0',
    );
  });

  it('takes an explicit CHROMIUM_PATH as the browser of every run, unless a headless shell is named too', () => {
    const own = cached('own/chrome');
    expect(findBrowserExecutable('chromium', env({ CHROMIUM_PATH: own }), true)).toBe(own);
    expect(findHeadlessShell(env({ CHROMIUM_PATH: own }))).toBeUndefined();
    expect(findBrowserExecutable('chromium', env({ CHROMIUM_PATH: own, CHROMIUM_HEADLESS_SHELL_PATH: shell }), true)).toBe(shell);
  });

  it('lets a headless run go ahead with only a headless shell installed', () => {
    const bare = { PLAYWRIGHT_BROWSERS_PATH: path.join(cache, 'none'), CHROMIUM_HEADLESS_SHELL_PATH: shell };
    expect(missingBrowserMessage('chromium', bare, true)).toBeUndefined();
    expect(findBrowserExecutable('chromium', bare, true)).toBe(shell);
  });

  it.skipIf(!findHeadlessShell())('launches the installed headless shell for a headless run', async () => {
    const browser = await launchBrowser({ browser: 'chromium', headless: true });
    try {
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
      const executables = children.map((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/exe`);
        } catch {
          return '';
        }
      });
      expect(executables).toContain(realpathSync(findHeadlessShell()!));
    } finally {
      await browser.close();
    }
  });

  it.skipIf(Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY))(
    "says in one sentence that a headed browser has no display here, instead of Playwright's launch log",
    async () => {
      const failed = await launchBrowser({ browser: 'chromium', headless: false }).then(
        async (browser) => {
          await browser.close();
          return 'launched';
        },
        (error: Error) => error.message,
      );
      expect(failed).toBe(
        'the browser did not start: there is no display for its window here (run it in a desktop session, or add --headless).',
      );
    },
  );
});
