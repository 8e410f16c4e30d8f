import { readFileSync } from 'node:fs';

/**
 * Whether this code runs from the built package (plain JavaScript bundled into `dist/`, see
 * pack/build.ts) rather than from the TypeScript source under tsx. The two lay files out
 * differently, so every file the runner reaches by URL is named here, once, for both layouts.
 */
export const BUILT = !import.meta.url.endsWith('.ts');

// In the built package every bundle and chunk sits directly in dist/ (pack/build.ts keeps it so),
// so `./x` below is dist/x whichever chunk this module ended up in.
const at = (source: string, built: string) => new URL(BUILT ? built : source, import.meta.url);

/** The module exporting `registerSupport`, imported by the per-run support file. */
export const SUPPORT_MODULE = at('../support/index.ts', './index.js').href;
/** The module exporting `ensureLoaders`, which a `--parallel` worker process imports first. */
export const LOADERS_MODULE = at('./loaders.ts', './loaders.js').href;
/** What plain cucumber-js imports to register Rehearse (`@rehearse/runner/support`). */
export const SUPPORT_REGISTER = at('../support/register.ts', './support.js');
/** The report formatter plugin (`@rehearse/runner/formatter`). */
export const FORMATTER_MODULE = at('../report/formatter.ts', './formatter.js');
/** Node resolution hooks that send a workspace's shared imports to this runner's copies. */
export const LOADER_HOOKS = at('./loader-hooks.mjs', './loader-hooks.mjs');
/** A file of this package: shared imports of a workspace are resolved as if imported from it. */
export const PACKAGE_ENTRY = at('../index.ts', './index.js').href;
/**
 * This runner's version: the server's (apps/server/package.json, the one source the build stamps
 * into the package), so a runner installed from a server speaks exactly that server's calls.
 */
export const RUNNER_VERSION = (
  JSON.parse(readFileSync(at('../../../../apps/server/package.json', '../package.json'), 'utf8')) as { version: string }
).version;
