import { recordingCheckOf, TestCase, type RecordingCheck } from '@rehearse/contract';
import type { Caller, ProjectAccess } from '../http/caller.js';
import type { RunsRepo } from '../runs/runs.repo.js';
import type { ScenarioJobs } from '../runs/scenario-jobs.js';

export interface RecordingCheckSettings {
  /** How often the job is looked at while it runs. */
  pollMs: number;
  /** Past this the check gives up and says so (the job's own deadline, plus its queueing). */
  timeoutMs: number;
}

/** What to replay: the scenario just published, on the environment and branch it was recorded on. */
export interface CheckTarget {
  branch: string;
  featureName: string;
  scenarioName: string;
  environment: string;
  /** The publish's commit, carried by every check event. */
  commit: string;
}

/**
 * The cloud recorder's self-check (DESIGN §7): the published scenario runs once as "Run scenario"
 * runs it (a job on the project's workers, a warm runner when there is one, its report in the
 * reports list), and the first step that did not pass is read from that run's report. The job is
 * looked at through the queue, so a job another server runs is followed too.
 */
export class RecordingChecks {
  constructor(
    private readonly jobs: ScenarioJobs,
    private readonly runs: RunsRepo,
    private readonly settings: RecordingCheckSettings,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  /** Queues the replay and answers its outcome; never throws (a check that cannot run is an `error` check). */
  async check(caller: Caller, access: ProjectAccess, target: CheckTarget, signal?: AbortSignal): Promise<RecordingCheck> {
    const { commit } = target;
    try {
      let job = await this.jobs.enqueue(caller, access, {
        branch: target.branch,
        featureName: target.featureName,
        scenarioName: target.scenarioName,
        environment: target.environment,
      });
      const deadline = Date.now() + this.settings.timeoutMs;
      while (job.state === 'queued' || job.state === 'running') {
        if (signal?.aborted) return { state: 'error', commit, reason: 'the recorder session ended first.', reportLink: null };
        if (Date.now() > deadline) return { state: 'error', commit, reason: 'the replay did not finish in time.', reportLink: null };
        await new Promise((resolve) => setTimeout(resolve, this.settings.pollMs));
        job = await this.jobs.get(job.id);
      }
      const row = job.runId ? (await this.runs.testCasesOf(job.runId))[0] : undefined;
      const parsed = row ? TestCase.safeParse(row.report) : undefined;
      return recordingCheckOf(commit, parsed?.success ? parsed.data : undefined, job.message, job.reportLink);
    } catch (error) {
      this.log.warn({ err: error, scenario: target.scenarioName }, 'the recording self-check could not run');
      return { state: 'error', commit, reason: error instanceof Error ? error.message : String(error), reportLink: null };
    }
  }
}
