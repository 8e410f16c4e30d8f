export {
  killProcess,
  killProcessGroup,
  runChild,
  startChild,
  startNodeProgram,
  stopChild,
  type ChildOptions,
  type ChildResult,
  type LiveChild,
  type NodeProgramOptions,
  type StopOptions,
} from './child-process.js';
export {
  bwrapArguments,
  createJobFolder,
  DEFAULT_LIMITS,
  probeSandbox,
  requireSandbox,
  runJobProcess,
  startJobProcess,
  UNSANDBOXED_VARIABLE,
  JOB_LIMITS_VARIABLE,
  usableBrowserCache,
  type JobProcessSpec,
  type JobResult,
  type LiveJobProcess,
  type SandboxLimits,
  type SandboxMode,
  type SandboxProbe,
  type SandboxTools,
} from './sandbox.js';
export { Deadline, DeadlineExceeded, describeDuration, fetchWithDeadline } from './deadline.js';
export { sameTarget, WarmRunnerProcess, type WarmRunnerProcessSpec, type WarmScenario, type WarmTarget } from './warm-runner-process.js';
