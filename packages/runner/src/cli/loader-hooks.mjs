// Module resolution hooks for the runs the CLI starts (registered by loaders.ts with node:module).
// A pulled workspace has no node_modules of its own, yet its step definitions import
// `@rehearse/runner` and `@cucumber/cucumber`. Those, and playwright-core, are resolved as if
// imported from this package, so user code always shares the exact instances the run uses: a
// second copy of cucumber would register steps into a library nobody runs.

/** @type {string[]} */
let shared = [];
/** @type {string} */
let parentURL = '';

/** @param {{ shared: string[], parentURL: string }} data */
export async function initialize(data) {
  shared = data.shared;
  parentURL = data.parentURL;
}

/**
 * @param {string} specifier
 * @param {{ parentURL?: string, conditions: string[], importAttributes: Record<string, string> }} context
 * @param {(specifier: string, context?: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const isShared = shared.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  if (isShared && context.parentURL !== undefined) return nextResolve(specifier, { ...context, parentURL });
  return nextResolve(specifier, context);
}
