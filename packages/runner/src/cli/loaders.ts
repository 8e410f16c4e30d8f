import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

/** Packages a workspace's step definitions import; they must resolve to the copies this runner uses. */
const SHARED_PACKAGES = ['@rehearse/runner', '@cucumber/cucumber', 'playwright-core'];

// A process-wide flag on globalThis rather than a module variable: under vitest this module can be
// evaluated twice (once by vite, once natively), but the hooks must be registered only once.
const FLAG = Symbol.for('rehearse.loaders');
const TSX_FLAG = Symbol.for('rehearse.tsx');

type Flags = Record<symbol, boolean | undefined>;

/**
 * Makes Node's own loader (the one cucumber-js imports support code with) understand TypeScript and
 * resolve the shared packages from this runner. Idempotent; the bin may have registered tsx already.
 */
export function ensureLoaders(): void {
  const flags = globalThis as unknown as Flags;
  if (flags[FLAG]) return;
  // `tsx script.ts` and `node --import tsx` have registered it already.
  const tsxLoaded = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => /[/\\]tsx[/\\]|^tsx$|--import[= ]tsx\b/.test(arg));
  if (!flags[TSX_FLAG] && !tsxLoaded) {
    registerTsx();
    flags[TSX_FLAG] = true;
  }
  // Registered after tsx so it runs first (hooks chain last-in, first-out) and hands tsx a
  // specifier it can resolve from this package.
  register(new URL('./loader-hooks.mjs', import.meta.url), {
    data: { shared: SHARED_PACKAGES, parentURL: new URL('../index.ts', import.meta.url).href },
  });
  flags[FLAG] = true;
}
