import type { ApiClient } from '@rehearse/api-client';
import { scenarioJobCalls, type ScenarioJob } from '@rehearse/contract';

type RunScenarioBody = { projectId: string; featureName: string; scenarioName: string; environment: string };

/** Waits (up to four minutes) until a "Run scenario" job has left the queue and ended. */
export async function jobFinished(api: ApiClient, jobId: string, pollMs = 250): Promise<ScenarioJob> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const { job } = await api.call(scenarioJobCalls.scenarioJob, { params: { jobId } });
    if (job.state !== 'queued' && job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error('the job did not end in four minutes');
}

/** "Run scenario" as a user clicks it, then its job once it has ended. */
export async function runScenarioToEnd(api: ApiClient, body: RunScenarioBody): Promise<ScenarioJob> {
  const { job } = await api.call(scenarioJobCalls.runScenario, { body });
  return jobFinished(api, job.id);
}
