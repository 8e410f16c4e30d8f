export {
  killProcess,
  killProcessGroup,
  runChild,
  stopChild,
  type ChildOptions,
  type ChildResult,
  type StopOptions,
} from './child-process.js';
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
export { Deadline, DeadlineExceeded, describeDuration, fetchWithDeadline } from './deadline.js';
