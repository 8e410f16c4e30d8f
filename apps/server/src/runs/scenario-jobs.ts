import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  environmentDisplayName,
  environmentFileName,
  Messages,
  parseRunResult,
  scenarioRunArgs,
  type RunResult,
  type ScenarioJob,
} from '@rehearse/contract';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { AccessKeysRepo } from '../auth/access-keys.repo.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import type { SocketHub } from '../storage/sockets.js';
import type { FeaturesService } from '../workspace/features.service.js';
import { featurePath } from '../workspace/features.service.js';
import type { Workspace, WorkspaceService } from '../workspace/workspace.service.js';
import type { EgressPolicy } from '@rehearse/egress';
import { createJobFolder, Deadline, describeDuration, runJobProcess, type SandboxMode } from '@rehearse/processes';
// Jobs run the runner's CLI in a sandboxed process, so the API never launches a browser or runs tenant code.
import { RUNNER_BIN } from '../processes/programs.js';
import type { RunsRepo } from './runs.repo.js';
import type { ScenarioJobRow as JobRow } from './scenario-jobs.repo.js';
import type { ScenarioQueue } from './scenario-queue.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { WarmRunners, WarmUpState } from './warm-runners.js';
import type { RetryPolicy } from '../jobs/retry-policy.js';

/** Job keys of "Run scenario" are named this plus the job id's start. */
const JOB_KEY_NAME = 'Run scenario ';

export interface ScenarioJobSettings {
  workerProcesses: number;
  /** The job's deadline, its pull included (RUN_TIMEOUT_MINUTES). */
  runTimeoutMs: number;
  /** Kept out of every job's view, even where it lies inside the runner's code. */
  dataDir: string;
  /** How jobs run here: the sandbox, unless the operator allowed running without it. */
  sandbox: () => Promise<SandboxMode>;
  /** Where a worker reaches this server (known only once it listens). */
  serverUrl: () => string;
  /** What a job may connect to (the egress rules; this server is always reachable). */
  egress: () => Promise<EgressPolicy>;
  reportLink: (projectId: string, runId: string) => string;
  /** This server instance, recorded as the owner of the jobs it claims. */
  instanceId: string;
  /** A running job whose owner has not renewed its lease for this long was orphaned (its server died). */
  leaseMs: number;
  /**
   * Attempts a job gets when they end in infrastructure errors, then it ends in `error`, and the
   * waits between them; the server whose attempt errored waits the backoff longer.
   */
  retries: RetryPolicy;
  /** Warm runners (WARM_RUNNERS); null runs each job as `rehearse pull` + `rehearse run`. */
  warmRunners?: WarmRunners | null;
  /** The commit a branch points at now (a warm runner serves exactly one commit). */
  branchHead?: (projectId: string, branch: string) => Promise<string | null>;
}

/** How often `finished` reads a job again while it waits for its end. */
const JOB_READ_AGAIN_MS = 500;

export interface JobLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * "Run scenario": jobs are claimed from pg-boss (`ScenarioQueue`, shared by several servers; the
 * same request twice while queued is one job), executed on a warm runner of the project, branch and
 * commit (`WarmRunners`) or, without them, by `rehearse pull` + `rehearse run`, each in its own
 * sandboxed process (the runner's sandbox door: no server environment, no DATA_DIR), with a job key of the requesting user that
 * only works for this run's calls and is deleted when the job ends; finished with the uploaded run
 * or the error that stopped them. How the run went comes from its typed result file (`RunResult`),
 * never from its output: a failed scenario is `failed`; an infrastructure error (the pull, the
 * browser, the upload, the deadline of both processes together) is retried after a backoff,
 * preferring another server, up to the retry policy's attempts, then ends the job as `error` with its reason.
 */
export class ScenarioJobs {
  private running = 0;
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    /** Hears `jobClaimed` and `jobEnded` (/metrics). */
    private readonly events: DomainEventBus,
    private readonly queue: ScenarioQueue,
    private readonly runs: RunsRepo,
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly accessKeys: AccessKeysService,
    private readonly accessKeysRepo: AccessKeysRepo,
    private readonly sockets: SocketHub,
    private readonly settings: ScenarioJobSettings,
    private readonly log: JobLogger,
  ) {}

  /**
   * Ends the running jobs whose server died: those whose lease lapsed (their owner stopped renewing
   * it), or jobs without a lease left by a server from before leases that started over a lease ago.
   * Jobs another live server is running keep their lease fresh and are never touched, so one
   * server's restart leaves the others' jobs alone. `everyRunning` ends all running jobs at once,
   * for a database only this process can use (PGlite). Then takes queued jobs, when this server runs any.
   */
  async recover(everyRunning = false): Promise<void> {
    const ended = await this.queue.markInterrupted(
      everyRunning ? 'every-running' : { leaseLapsedMs: this.settings.leaseMs },
      Messages.jobInterrupted,
    );
    for (const job of ended) {
      this.log.warn({ jobId: job.id, owner: job.owner }, 'ended a scenario job whose server stopped renewing its lease');
      this.emit(job);
      void this.events.emit('jobEnded', {
        kind: 'scenario',
        outcome: 'error',
        startedAt: job.startedAt,
        finishedAt: job.finishedAt ?? new Date(),
      });
      // The job's key dies with it: only the ended jobs' keys, never those of a live server's jobs.
      if (!everyRunning) await this.accessKeysRepo.deleteJobKeysNamed(`${JOB_KEY_NAME}${job.id.slice(0, 8)}`);
    }
    // A database only this process uses: every Run scenario key left is a dead job's.
    if (everyRunning) await this.accessKeysRepo.deleteJobKeysNamed(JOB_KEY_NAME);
    this.kick();
  }

  /** Job history: deletes "Run scenario" jobs that ended more than `keepMs` ago (their runs stay). */
  async forgetJobsOlderThan(keepMs: number): Promise<number> {
    return this.queue.deleteEndedBefore(new Date(Date.now() - keepMs));
  }

  async projectOf(jobId: string): Promise<string | undefined> {
    return this.queue.projectOf(jobId);
  }

  async enqueue(
    caller: Caller,
    access: ProjectAccess,
    input: { branch?: string | undefined; featureName: string; scenarioName: string; environment: string; heal?: boolean },
  ): Promise<ScenarioJob> {
    const ws = await this.workspaces.open(caller, access, input.branch);
    await this.checkTarget(ws, input.featureName, input.scenarioName, input.environment);
    const row = await this.queue.enqueue({
      projectId: ws.projectId,
      userId: caller.user.id,
      branch: ws.branch,
      featureName: input.featureName,
      scenarioName: input.scenarioName,
      environment: environmentDisplayName(input.environment.trim()),
      heal: input.heal ?? false,
    });
    this.kick();
    return this.toDto(row);
  }

  /**
   * A scenario page opened: the branch's head gets a warm runner in the background, when this
   * server runs jobs on warm runners (an api-only replica, or one without them, answers
   * `unavailable`: the click then costs what it always did).
   */
  async warmUp(caller: Caller, access: ProjectAccess, branch: string | undefined): Promise<WarmUpState> {
    const warm = this.settings.warmRunners;
    if (!warm || this.settings.workerProcesses <= 0 || this.closed) return 'unavailable';
    const ws = await this.workspaces.open(caller, access, branch);
    const commit = await this.settings.branchHead?.(ws.projectId, ws.branch);
    if (!commit) return 'unavailable';
    return warm.warmUp({ projectId: ws.projectId, branch: ws.branch, commit }, caller.user.id);
  }

  /**
   * The job once it has ended, or as it stands when `withinMs` have passed (read again every half
   * second: a job may be run by another server, whose end this process does not hear).
   */
  async finished(jobId: string, withinMs: number): Promise<ScenarioJob> {
    const deadline = new Deadline(withinMs);
    try {
      let job = await this.get(jobId);
      while ((job.state === 'queued' || job.state === 'running') && !deadline.signal.aborted) {
        await sleep(JOB_READ_AGAIN_MS, undefined, { signal: deadline.signal }).catch(() => undefined);
        job = await this.get(jobId);
      }
      return job;
    } finally {
      deadline.dispose();
    }
  }

  async get(jobId: string): Promise<ScenarioJob> {
    const row = await this.queue.findById(jobId);
    if (!row) throw notFound(Messages.jobNotFound);
    return this.toDto(row);
  }

  /**
   * Looks for queued jobs every `intervalMs` while a slot is free: with several servers a job is
   * often queued by another one (an api-only replica), whose enqueue cannot wake this process.
   */
  startPolling(intervalMs: number): void {
    if (this.settings.workerProcesses <= 0 || this.poll) return;
    this.poll = setInterval(() => this.kick(), intervalMs);
    this.poll.unref();
  }

  /** Stops every worker (server shutdown); their jobs end as errors now, or by the lease rule if this process dies first. */
  close(): void {
    this.closed = true;
    clearInterval(this.poll);
    for (const abort of this.aborts) abort.abort();
  }

  private async checkTarget(ws: Workspace, featureName: string, scenarioName: string, environment: string): Promise<void> {
    const snapshot = await this.workspaces.read(ws);
    const { features } = await this.features.listing(snapshot);
    const feature = features.find((f) => f.path === featurePath(featureName));
    if (!feature?.summary.scenarios.some((s) => s.name === scenarioName)) throw notFound(Messages.scenarioNotFound);
    if ((await snapshot.readText(`environments/${environmentFileName(environmentDisplayName(environment.trim()))}`)) === null) {
      throw notFound(Messages.environmentNotFound);
    }
  }

  private kick(): void {
    while (!this.closed && this.running < this.settings.workerProcesses) {
      this.running += 1;
      void this.claimAndRun().finally(() => {
        this.running -= 1;
      });
      // Each worker loops until the queue is empty, so one kick per free slot is enough.
      if (this.running >= this.settings.workerProcesses) break;
    }
  }

  private async claimAndRun(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const job = await this.claim();
      if (!job) return;
      await this.execute(job).catch((error: unknown) => this.log.warn({ err: error, jobId: job.id }, 'scenario job failed'));
    }
  }

  private async claim(): Promise<JobRow | undefined> {
    const job = await this.queue.claimNext(this.settings.instanceId, this.settings.retries.backoffMs);
    if (job) {
      this.emit(job);
      void this.events.emit('jobClaimed', { kind: 'scenario', queuedAt: job.createdAt, claimedAt: job.startedAt ?? new Date() });
    }
    return job;
  }

  private async execute(job: JobRow): Promise<void> {
    // The key also dies at the job's deadline, should no server be left to delete it.
    const keyExpiry = new Date(Date.now() + this.settings.runTimeoutMs + 60_000);
    const key = await this.accessKeys.createJobKey(job.projectId, job.userId, `${JOB_KEY_NAME}${job.id.slice(0, 8)}`, keyExpiry);
    const abort = new AbortController();
    this.aborts.add(abort);
    // The lease: renewed while this server runs the job, so other servers leave it alone.
    const lease = setInterval(
      () => {
        this.queue
          .renewLease(job.id, this.settings.instanceId)
          .catch((error: unknown) => this.log.warn({ err: error, jobId: job.id }, 'renewing a scenario job lease failed'));
      },
      Math.max(250, this.settings.leaseMs / 3),
    );
    let state: 'passed' | 'failed' | 'error' = 'error';
    let runId: string | null = null;
    let message: string | null = null;
    // One deadline for the pull and the run together; close() stops it too.
    const deadline = new Deadline(this.settings.runTimeoutMs, abort.signal);
    try {
      const run: JobRun = { job, token: key.token, envFile: `environments/${environmentFileName(job.environment)}`, deadline };
      const warm = this.settings.warmRunners;
      const commit = warm ? await this.settings.branchHead?.(job.projectId, job.branch) : null;
      const result = warm && commit ? await this.onWarmRunner(warm, commit, run) : await this.inFreshProcesses(run);
      runId = result.runId;
      if (result.errorClass === 'none') state = 'passed';
      else if (result.errorClass === 'test-failed') {
        state = 'failed';
        message = result.reason;
      } else message = result.reason ?? Messages.jobRunnerStopped(result.exitCode);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
      if (error instanceof JobStopped) runId = error.runId;
    } finally {
      deadline.dispose();
      clearInterval(lease);
      this.aborts.delete(abort);
      await this.accessKeysRepo.delete(key.id);
    }
    // An infrastructure error with attempts left: queued again (not while this server shuts down:
    // the job then ends here, as before, and is run again by hand).
    if (state === 'error' && !this.closed && this.settings.retries.allowsAnother(job.attempts)) {
      const delayMs = this.settings.retries.delayAfter(job.attempts);
      const queued = await this.queue.requeueForRetry(
        job.id,
        this.settings.instanceId,
        message ?? Messages.jobRunnerStopped(null),
        delayMs,
      );
      if (queued) {
        this.emit(queued);
        this.log.warn({ jobId: job.id, attempts: job.attempts, delayMs, message }, 'retrying a scenario job after an infrastructure error');
        // Once others could take it, and once this server may take it back itself.
        for (const wait of [delayMs, 2 * delayMs + 100]) setTimeout(() => this.kick(), wait).unref();
        return;
      }
    }
    // A "Run scenario" run is a single scenario execution in the reports list (spec 02 §3).
    if (runId) await this.runs.markScenarioRun(job.projectId, runId);
    const finished = await this.queue.finish(job.id, this.settings.instanceId, { state, runId, message });
    if (finished) {
      this.emit(finished);
      void this.events.emit('jobEnded', {
        kind: 'scenario',
        outcome: state,
        startedAt: finished.startedAt,
        finishedAt: finished.finishedAt ?? new Date(),
      });
    }
    this.log.info({ jobId: job.id, state, runId }, 'scenario job finished');
  }

  private emit(job: JobRow): void {
    this.sockets.emitToProject(job.projectId, 'scenario_job', {
      projectId: job.projectId,
      jobId: job.id,
      state: job.state,
      runId: job.runId,
    });
  }

  /** The job on a warm runner of its project, branch and commit (started now if none is free); the deadline kills it. */
  private async onWarmRunner(warm: WarmRunners, commit: string, { job, token, envFile, deadline }: JobRun): Promise<RunResult> {
    const outcome = await warm.run(
      { projectId: job.projectId, branch: job.branch, commit },
      {
        token,
        userId: job.userId,
        featurePath: featurePath(job.featureName),
        scenarioName: job.scenarioName,
        envFile,
        heal: job.heal,
      },
      deadline.signal,
      // Each step as it starts and ends, for the scenario page to show while the job runs.
      (step) => this.sockets.emitToProject(job.projectId, 'scenario_job_step', { projectId: job.projectId, jobId: job.id, step }),
    );
    if (deadline.expired) throw new JobStopped(this.deadlinePassed(), null);
    if (outcome.kind === 'stopped') throw new JobStopped(Messages.jobRunnerStopped(null), null);
    if (outcome.kind === 'no-result') throw new JobStopped(outcome.reason || Messages.jobRunnerStopped(null), null);
    return outcome.result;
  }

  /** The job as `rehearse pull` then `rehearse run`, each a fresh sandboxed process, in a folder of its own. */
  private async inFreshProcesses({ job, token, envFile, deadline }: JobRun): Promise<RunResult> {
    const dir = await createJobFolder(`scenario-${job.id.slice(0, 8)}`);
    try {
      const resultFile = path.join(dir, 'result.json');
      const common = {
        mode: await this.settings.sandbox(),
        workDir: dir,
        env: { REHEARSE_TOKEN: token },
        signal: deadline.signal,
        hidden: [this.settings.dataDir],
        egress: await this.settings.egress(),
        runnerBin: RUNNER_BIN,
      };
      const server = this.settings.serverUrl();
      const pull = await runJobProcess({
        ...common,
        cwd: dir,
        timeoutMs: deadline.remainingMs(),
        nodeArgs: [RUNNER_BIN, 'pull', '--server', server, '--project', job.projectId, '--branch', job.branch, '--dir', 'workspace'],
      });
      if (pull.timedOut || deadline.expired) throw new JobStopped(this.deadlinePassed(), null);
      if (pull.code !== 0) throw new JobStopped(lastLine(pull.stderr) || Messages.jobWorkspaceNotDownloaded, null);
      const run = await runJobProcess({
        ...common,
        cwd: path.join(dir, 'workspace'),
        timeoutMs: deadline.remainingMs(),
        nodeArgs: [
          RUNNER_BIN,
          ...scenarioRunArgs({
            server,
            projectId: job.projectId,
            branch: job.branch,
            envFile,
            heal: job.heal,
            scenarioName: job.scenarioName,
            out: path.join(dir, 'report'),
            resultFile,
            featurePath: featurePath(job.featureName),
          }),
        ],
      });
      const result = parseRunResult(await readFile(resultFile, 'utf8').catch(() => undefined));
      // Stopped at the deadline after its upload: the job is an error, but the run it published stays linked.
      if (run.timedOut || deadline.expired) throw new JobStopped(this.deadlinePassed(), result?.runId ?? null);
      if (!result) throw new JobStopped(lastLine(run.stderr) || Messages.jobRunnerStopped(run.code), null);
      return result;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private deadlinePassed(): string {
    return Messages.jobDeadlinePassed(describeDuration(this.settings.runTimeoutMs));
  }

  private toDto(row: JobRow): ScenarioJob {
    return {
      id: row.id,
      state: row.state,
      featureName: row.featureName,
      scenarioName: row.scenarioName,
      environment: row.environment,
      heal: row.heal,
      branch: row.branch,
      runId: row.runId,
      reportLink: row.runId ? this.settings.reportLink(row.projectId, row.runId) : null,
      message: row.message,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
    };
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.trim() ?? '';
}

/** What both ways of running a job need. */
interface JobRun {
  job: JobRow;
  /** The job key, good for this run's calls only. */
  token: string;
  /** The environment file, relative to the workspace. */
  envFile: string;
  deadline: Deadline;
}

/** A job that ended without a result of its own (an infrastructure error); `runId` when it had published one. */
class JobStopped extends Error {
  constructor(
    message: string,
    readonly runId: string | null,
  ) {
    super(message);
  }
}
