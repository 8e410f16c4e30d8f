import { runnerCalls, workspaceCalls, type CallDefinition } from '@rehearse/contract';

/**
 * The calls a job's key (scope 'run') may make: what `rehearse pull` and `rehearse run` need for
 * one scenario (the key's project, the workspace, the run's test data, its artifacts and its report). Everything else
 * answers 403, so a key read out of a job cannot list the project's features, read plain secrets
 * through the test-data screen, make keys or invite anyone.
 */
const JOB_KEY_CALLS: ReadonlySet<CallDefinition> = new Set<CallDefinition>([
  runnerCalls.keyProject,
  workspaceCalls.download,
  runnerCalls.runTestData,
  runnerCalls.uploadArtifact,
  runnerCalls.uploadRun,
]);

/** Whether a job's key may make this call. */
export function jobKeyMayCall(call: CallDefinition): boolean {
  return JOB_KEY_CALLS.has(call);
}
