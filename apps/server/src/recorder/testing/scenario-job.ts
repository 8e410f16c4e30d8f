import type { ApiClient } from '@rehearse/api-client';
import { scenarioJobCalls, type ScenarioJob } from '@rehearse/contract';

/** Waits (up to two minutes) until a "Run scenario" job has left the queue and finished. */
export async function jobFinished(api: ApiClient, jobId: string): Promise<ScenarioJob> {
  for (let i = 0; i < 240; i += 1) {
    const { job } = await api.call(scenarioJobCalls.scenarioJob, { params: { jobId } });
    if (job.state !== 'queued' && job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the job did not finish in two minutes');
}

/**
 * Runs one published scenario through "Run scenario" and waits for its job: the proof a recording
 * works. Answers `[state, message]`, which is `['passed', null]` when it did.
 */
export async function runScenarioOutcome(
  api: ApiClient,
  body: { projectId: string; featureName: string; scenarioName: string; environment: string },
): Promise<[ScenarioJob['state'], string | null]> {
  const { job } = await api.call(scenarioJobCalls.runScenario, { body });
  const done = await jobFinished(api, job.id);
  return [done.state, done.message];
}
