export { runChild, type ChildOptions, type ChildResult } from './child-process.js';
export {
  bwrapArguments,
  createJobFolder,
  DEFAULT_LIMITS,
  probeSandbox,
  requireSandbox,
  runJobProcess,
  UNSANDBOXED_VARIABLE,
  usableBrowserCache,
  type JobProcessSpec,
  type JobResult,
  type SandboxLimits,
  type SandboxMode,
  type SandboxProbe,
  type SandboxTools,
} from './sandbox.js';
