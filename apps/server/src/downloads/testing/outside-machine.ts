import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findHeadlessShell } from '@rehearse/runner/browser';

const headlessShell = findHeadlessShell();

/**
 * The browsers a user's machine has after `npx playwright-core install chromium`, the step these
 * folders skip (no browser downloads here): the system Chromium, and its headless shell where this
 * machine has one. Playwright installs both, and a user's headless runs go to the shell; with
 * CHROMIUM_PATH alone they went to the full browser, about three times the CPU per page.
 */
export const BROWSERS: Record<string, string> = {
  CHROMIUM_PATH: '/usr/bin/chromium',
  ...(headlessShell ? { CHROMIUM_HEADLESS_SHELL_PATH: headlessShell } : {}),
};

let npmCache: string | undefined;

/**
 * npm's cache, shared by the machines of one test process: the first install downloads every
 * dependency from the registry as a new machine does; later ones reuse those tarballs (each still
 * installs into its own folder), and a later `npx --package <same tarball>` reuses the package the
 * first one installed there. It saves tens of seconds per machine on two cores.
 */
export function sharedNpmCache(): string {
  if (!npmCache) {
    const folder = mkdtempSync(path.join('/tmp', 'rehearse-npm-cache-'));
    npmCache = folder;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return npmCache;
}

/**
 * A folder as a user's machine has it, outside the checkout: an empty working folder and a HOME of
 * its own (desktop settings land there; npm's cache, npx's packages included, is `sharedNpmCache`),
 * and an environment with nothing of the test's own npm in it.
 */
export interface OutsideMachine {
  root: string;
  home: string;
  work: string;
  env: Record<string, string>;
  remove(): void;
}

export function outsideMachine(prefix: string, env: Record<string, string> = {}): OutsideMachine {
  const root = mkdtempSync(path.join('/tmp', prefix));
  const home = path.join(root, 'home');
  const work = path.join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  return {
    root,
    home,
    work,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...BROWSERS, npm_config_cache: sharedNpmCache(), ...env },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs a command with only the environment given, collecting its output. */
export function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A long-running command (a recorder) whose output the test watches while it runs. */
export interface Started {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves once the output holds `text`; rejects if the process ends first or the time runs out. */
  waitFor(text: string | RegExp, timeoutMs: number): Promise<void>;
  exited: Promise<number | null>;
}

export function start(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  const waiters: Array<() => void> = [];
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const matches = (text: string | RegExp) => (typeof text === 'string' ? out.includes(text) : text.test(out));
  return {
    child,
    output: () => out,
    exited,
    waitFor: (text, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!matches(text)) return;
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(check), 1);
          resolve();
        };
        const timer = setTimeout(() => reject(new Error(`No "${String(text)}" after ${timeoutMs} ms; output:\n${out}`)), timeoutMs);
        waiters.push(check);
        void exited.then(() => {
          if (!matches(text)) {
            clearTimeout(timer);
            reject(new Error(`Ended before "${String(text)}"; output:\n${out}`));
          }
        });
        check();
      }),
  };
}
