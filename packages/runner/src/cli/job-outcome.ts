import { Messages, type RunResult } from '@rehearse/contract';
import { describeDuration } from '@rehearse/processes';

/** How an execution job went, as a worker thread reports it to the server (`workerCalls.finish`). */
export interface JobOutcome {
  outcome: 'passed' | 'failed' | 'error';
  message?: string;
}

/** The run's typed result as the job's outcome: an infrastructure error is `error`, never `failed`. */
export function outcomeOf(result: RunResult): JobOutcome {
  if (result.errorClass === 'none') return { outcome: 'passed' };
  const message = result.reason ?? Messages.jobRunnerStopped(result.exitCode);
  return { outcome: result.errorClass === 'test-failed' ? 'failed' : 'error', message };
}

/** A job stopped at its hard deadline: an infrastructure error the server retries elsewhere. */
export function deadlinePassed(jobTimeoutMs: number): JobOutcome {
  return { outcome: 'error', message: Messages.jobDeadlinePassed(describeDuration(jobTimeoutMs)) };
}
