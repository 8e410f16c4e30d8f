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
 *
 * A fresh one is a **spare** when the thread has one: a `rehearse warm-runner` started before its
 * run was known (`keepSpare`, when the thread starts and whenever a run hands it no next job), whose
 * Node, playwright-core and default browser are up, and which no tenant code has touched. The run's
 * first job binds it to the run for good; so a new run's first job costs a pull and loading the
 * support code, not a process start (1.5 s on a quiet 2-core machine, 2–3.6 s when two threads
 * start at once). A spare lives until the thread has been idle for `SPARE_IDLE_MS`.
 */
export class ThreadRunner {
  private held: { runId: string; runner: WarmRunnerProcess } | undefined;
  private spare: WarmRunnerProcess | undefined;
  private spareStarting: Promise<void> | undefined;
  private stopped = false;

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
        runner = (await this.takeSpare()) ?? (await this.startRunner(`execution-${job.runId.slice(0, 8)}`));
        this.held = { runId: job.runId, runner };
        // The first job's key pulls the commit; later jobs' keys are used for their own requests only.
        await runner.prepare(job.accessToken, { projectId: job.projectId, branch: job.branch, commit: job.commit });
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

  /** Starts a spare in the background unless the thread has one (a failed start leaves none: the next job starts its own). */
  keepSpare(): void {
    if (this.stopped || this.spareStarting || (this.spare && !this.spare.hasExited)) return;
    this.spareStarting = this.startRunner('execution-spare')
      .then((spare) => {
        if (this.stopped) spare.kill();
        else this.spare = spare;
      })
      .catch(() => undefined)
      .finally(() => (this.spareStarting = undefined));
  }

  /** Kills the spare, if the thread has one, and waits until its tree is gone. */
  async releaseSpare(): Promise<void> {
    await this.spareStarting;
    const spare = this.spare;
    this.spare = undefined;
    if (!spare) return;
    spare.kill();
    await spare.exited;
  }

  /** Kills the runner and the spare now, without waiting (the thread is exiting). */
  killNow(): void {
    this.stopped = true;
    this.held?.runner.kill();
    this.held = undefined;
    this.spare?.kill();
    this.spare = undefined;
  }

  /** The spare (waiting for one still starting), unless it failed to start or exited; the thread has none after. */
  private async takeSpare(): Promise<WarmRunnerProcess | undefined> {
    await this.spareStarting;
    const spare = this.spare;
    this.spare = undefined;
    return spare && !spare.hasExited ? spare : undefined;
  }

  /** A runner in the job sandbox; bound to nothing until its first `prepare`. */
  private async startRunner(folderName: string): Promise<WarmRunnerProcess> {
    const { mode, server, bin } = this.settings;
    return WarmRunnerProcess.start({ mode, server, egress: await this.settings.egress(), runnerBin: bin, folderName });
  }

  private async releasing(outcome: JobOutcome): Promise<JobOutcome> {
    await this.release();
    return outcome;
  }
}
