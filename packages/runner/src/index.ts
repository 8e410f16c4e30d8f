// What a workspace's step definitions import: `import { context } from '@rehearse/runner'`.
import { api } from './support/api.js';
import { worldOf } from './support/commands.js';
import { web } from './support/web.js';
import type { RehearseWorld } from './support/world.js';

export { setDefaultTimeout } from '@cucumber/cucumber';
export { registerSupport, type SupportOptions } from './support/index.js';
export { RehearseWorld, type RehearseParameters, type ApiResponseRecord } from './support/world.js';
export {
  checkableBeside,
  elementByName,
  type Element,
  type ElementFingerprint,
  type ElementSource,
  type LocatorCandidate,
  type LocatorKind,
} from './support/elements.js';
export { locatorsFile, LOCATORS_DIR } from './support/locator-files.js';
export type { ElementRef } from './support/web.js';
export type { CommandOptions, StepParams } from './support/commands.js';
export type { ApiExpectations, ApiRequestSpec, BodyType } from './support/api.js';
export { API_STEP_PATTERNS } from './support/steps.js';
export type { RunSettings, ScreenshotPolicy, BrowserName, ProjectConfig } from './support/settings.js';
export type { TestDataRow } from './support/test-data.js';

/**
 * The commands generated and hand-written steps call, e.g.
 * `await context.web.click(elements["sign_in"], _params, options, this)`.
 */
export const context = {
  web,
  api,
  /** The running scenario's World (the `this` of its steps). */
  get world(): RehearseWorld {
    return worldOf(undefined);
  },
};
