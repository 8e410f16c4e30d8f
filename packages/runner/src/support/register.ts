// For plain cucumber-js: list this file first in the `import` option and Rehearse's World, hooks
// and built-in steps are registered (see README "Plain cucumber-js").
import { registerSupport } from './index.js';

registerSupport();
