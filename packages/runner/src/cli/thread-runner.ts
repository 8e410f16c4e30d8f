import { Messages, type WorkerJob } from '@rehearse/contract';
import type { EgressPolicy } from '@rehearse/egress';
import { Deadline, WarmRunnerProcess, type SandboxMode } from '@rehearse/processes';
import { deadlinePassed, outcomeOf, type JobOutcome } from './job-outcome.js';

/** An execution job whose run pinned a commit: the only kind a warm runner may serve. */
export type PinnedJob = WorkerJob & { commit: string };

export interface ThreadRunnerSettings {
  server: string;
  mode: SandboxMode;
  /** The runner's CLI (`rehearse`), started as `warm-runner`. */
  bin: string;
  egress: () => Promise<EgressPolicy>;
  /** A job's hard deadline, its runner's start and pull included. */
  jobTimeoutMs: number;
}

/**
 * The warm runner a worker thread keeps between execution jobs (issue 21): one `rehearse
 * warm-runner` in the job sandbox with the run's commit pulled, its support code loaded and its
 * browser launched, so a job after the first costs a request and a browser context instead of a
 * Node process, a pull and a browser launch.
 *
 * It serves the jobs of **one execution run** only: the same project, branch, commit and the
 * starter's keys. A job of any other run (another execution, another project, a later run of the
 * same execution) first kills it and waits for its whole tree to be gone, so tenant code of one
 * run (a global, a timer, a file in its folder) never sees another run's job. Each job's request
 * carries that job's own key; a job past its deadline, stopped by the server, or ended by an
 * infrastructure error kills the runner too (it may be what is broken), and the next job starts a
 * fresh one.
 */
export class ThreadRunner {
  private held: { runId: string; runner: WarmRunnerProcess } | undefined;

  constructor(private readonly settings: ThreadRunnerSettings) {}

  /** Runs one job's scenario under its hard deadline; `signal` is the server's stop (a halt, a lost lease). */
  async run(job: PinnedJob, signal: AbortSignal): Promise<JobOutcome> {
    const { jobTimeoutMs } = this.settings;
    const deadline = new Deadline(jobTimeoutMs, signal);
    const held = this.held;
    if (held && (held.runId !== job.runId || held.runner.hasExited)) await this.release();
    let runner = this.held?.runner;
    const kill = () => runner?.kill();
    deadline.signal.addEventListener('abort', kill, { once: true });
    try {
      if (!runner) {
        runner = await WarmRunnerProcess.start({
          mode: this.settings.mode,
          server: this.settings.server,
          target: { projectId: job.projectId, branch: job.branch, commit: job.commit },
          egress: await this.settings.egress(),
          runnerBin: this.settings.bin,
          folderName: `execution-${job.runId.slice(0, 8)}`,
        });
        this.held = { runId: job.runId, runner };
        // The first job's key pulls the commit; later jobs' keys are used for their own requests only.
        await runner.prepare(job.accessToken);
      }
      if (deadline.signal.aborted) throw new Error('stopped');
      const result = await runner.run({
        token: job.accessToken,
        featurePath: job.featurePath,
        scenarioName: job.scenarioName,
        envFile: job.envFile,
        heal: false,
        ...(job.browser ? { browser: job.browser } : {}),
        ...(job.viewport ? { viewport: job.viewport } : {}),
        appendTo: { runId: job.runId, uploadKey: job.jobId },
      });
      if (deadline.expired) return await this.releasing(deadlinePassed(jobTimeoutMs));
      if (!result) return await this.releasing({ outcome: 'error', message: runner.lastError() || Messages.jobRunnerStopped(null) });
      const outcome = outcomeOf(result);
      // A run that could not say how the scenario went may have been broken by its runner.
      return result.errorClass === 'infrastructure' ? await this.releasing(outcome) : outcome;
    } catch (error) {
      return await this.releasing(
        deadline.expired ? deadlinePassed(jobTimeoutMs) : { outcome: 'error', message: (error as Error).message },
      );
    } finally {
      deadline.signal.removeEventListener('abort', kill);
      deadline.dispose();
    }
  }

  /** Kills the runner, if one is held, and waits until its whole tree is gone. */
  async release(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    held.runner.kill();
    await held.runner.exited;
  }

  /** Kills the runner now, without waiting (the thread is exiting). */
  killNow(): void {
    this.held?.runner.kill();
    this.held = undefined;
  }

  private async releasing(outcome: JobOutcome): Promise<JobOutcome> {
    await this.release();
    return outcome;
  }
}
