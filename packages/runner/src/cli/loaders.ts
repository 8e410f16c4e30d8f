import { register } from 'node:module';
// The built package replaces this import with a stub (pack/build.ts): it is plain JavaScript and ships without tsx.
import { register as registerTsx } from 'tsx/esm/api';
import { BUILT, LOADER_HOOKS, PACKAGE_ENTRY } from './package-files.js';

/** Packages a workspace's step definitions import; they must resolve to the copies this runner uses. */
const SHARED_PACKAGES = ['@rehearse/runner', '@cucumber/cucumber', 'playwright-core'];

// A process-wide flag on globalThis rather than a module variable: under vitest this module can be
// evaluated twice (once by vite, once natively), but the hooks must be registered only once.
const FLAG = Symbol.for('rehearse.loaders');
const TSX_FLAG = Symbol.for('rehearse.tsx');

type Flags = Record<symbol, boolean | undefined>;

/**
 * Makes Node's own loader (the one cucumber-js imports support code with) resolve the shared
 * packages from this runner and, when the runner runs from its TypeScript source, understand
 * TypeScript. Idempotent; the bin may have registered tsx already.
 */
export function ensureLoaders(): void {
  const flags = globalThis as unknown as Flags;
  if (flags[FLAG]) return;
  // `tsx script.ts` and `node --import tsx` have registered it already.
  const tsxLoaded = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => /[/\\]tsx[/\\]|^tsx$|--import[= ]tsx\b/.test(arg));
  if (!BUILT && !flags[TSX_FLAG] && !tsxLoaded) {
    registerTsx();
    flags[TSX_FLAG] = true;
  }
  // Registered after tsx so it runs first (hooks chain last-in, first-out) and hands tsx a
  // specifier it can resolve from this package.
  register(LOADER_HOOKS, { data: { shared: SHARED_PACKAGES, parentURL: PACKAGE_ENTRY } });
  flags[FLAG] = true;
}

let runsWithoutSourceMaps = 0;
let sourceMapsBefore: boolean | undefined;

/** Whether the user started Node with --enable-source-maps (then they want mapped stacks, whatever the cost). */
function sourceMapsRequested(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--enable-source-maps');
}

/**
 * Runs `work` with Node's source-mapped stack traces off, then puts them back as they were.
 *
 * Why: tsx turns them on for the whole process, and Playwright captures a stack trace (50 frames)
 * on every API call to name the call in errors. Mapping each of those through source maps was
 * about a fifth of the runner process's CPU in the 20-step bench (bench/overhead.ts). A run
 * needs no mapped stacks: workspace step definitions are plain JavaScript, reports carry error
 * messages, not stacks. Node started with --enable-source-maps keeps them. Nested or overlapping
 * runs in one process (a worker) restore the setting only when the last one ends.
 */
export async function withoutSourceMaps<T>(work: () => Promise<T>): Promise<T> {
  if (sourceMapsRequested()) return work();
  if (runsWithoutSourceMaps++ === 0) {
    // process.sourceMapsEnabled is Node ≥ 20.7; before that, tsx (which enables them) is the only caller.
    sourceMapsBefore = process.sourceMapsEnabled ?? true;
    process.setSourceMapsEnabled(false);
  }
  try {
    return await work();
  } finally {
    if (--runsWithoutSourceMaps === 0) process.setSourceMapsEnabled(sourceMapsBefore ?? true);
  }
}
