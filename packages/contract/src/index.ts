export * from './call.js';
export * from './headers.js';
export * from './messages.js';
export * from './sso.js';
export * from './constants.js';
export * from './permissions.js';
export * from './validation.js';
export * from './environment-rules.js';
export * from './builtin-steps.js';
export * from './gherkin-messages.js';
export * from './gherkin-names.js';
export * from './tag-selection.js';
export * from './entities.js';
export * from './auth.calls.js';
export * from './system.calls.js';
export * from './workspace.calls.js';
export * from './mail.calls.js';
export * from './report.js';
export * from './runs.calls.js';
export * from './executions.js';
export * from './time-zones.js';
export * from './workers.calls.js';
export * from './admin.calls.js';
export * from './run-result.js';
export * from './socket.js';
export * from './ai.calls.js';
export * from './effects.js';
export * from './recorder.calls.js';
export * from './downloads.calls.js';
export * from './workspace-template.js';
export * from './secrets.js';

import { authCalls } from './auth.calls.js';
import { systemCalls } from './system.calls.js';
import { workspaceCalls } from './workspace.calls.js';
import { mailCalls } from './mail.calls.js';

/** Every call of the platform, grouped by service. */
export const calls = { auth: authCalls, system: systemCalls, workspace: workspaceCalls, mail: mailCalls } as const;
