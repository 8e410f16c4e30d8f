import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  environmentDisplayName,
  environmentFileName,
  executionStatusEvent,
  Limits,
  Messages,
  type ExecutionStatus,
  type RunExecution,
  type WorkerJob,
} from '@rehearse/contract';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { AccessKeysRepo } from '../auth/access-keys.repo.js';
import type { AccessService } from '../auth/access.service.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import type { UsersRepo } from '../auth/users.repo.js';
import type { SocketHub } from '../storage/sockets.js';
import type { FeaturesService } from '../workspace/features.service.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import { ExecutionRefused } from './execution-errors.js';
import type { ExecutionJobRow, ExecutionJobsRepo, ExecutionRunRow, NewExecutionJob } from './execution-jobs.repo.js';
import type { ExecutionQueue } from './execution-queue.js';
import type { ExecutionTransactions } from './execution-repos.js';
import type { ExecutionsRepo } from './executions.repo.js';
import { scenariosWithTags, type ExecutionRow, type ExecutionsService } from './executions.service.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { RetryPolicy } from '../jobs/retry-policy.js';

/** How often a server mends the queue while its workers claim (a start or job end whose release a stopped server never made). */
const MAINTAIN_EVERY_MS = 5_000;

type StoredFlow = { browser: string; viewport: string; scenarioGroups: { name: string; threadCount: number; tags: string[] }[] };

/** Viewport names of the planner (spec 02 §9) as the runner's WIDTHxHEIGHT. */
const VIEWPORT_SIZES: Record<string, string> = {
  'Desktop - 1440px': '1440x900',
  'Desktop - 1024px': '1024x768',
  'Tablet - 800px': '800x1024',
  'Mobile - 375px': '375x667',
};

export interface EngineSettings {
  /** A running job whose worker has not heartbeaten for this long is retried, or ends in error after its last attempt. */
  leaseMs: number;
  /**
   * Attempts a job gets before an infrastructure error (the worker's `error` outcome, or a lost
   * worker) ends it in the `error` state, and the waits between them; each retry prefers another
   * worker, and the worker whose attempt errored gets the job back only the backoff after the
   * others could have taken it.
   */
  retries: RetryPolicy;
  /**
   * How often a waiting claim looks again for jobs nobody woke it for: another server's, or one
   * whose lease ran out. An embedded database has one server, so it can look less often.
   */
  claimPollMs: number;
  reportLink: (projectId: string, runId: string) => string;
}

export interface EngineLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Room of a project's live execution counters and of its execution list (DESIGN §11). */
export const executionStatusRoom = (projectId: string) => `execution-status:${projectId}`;
export const executionCrudRoom = (projectId: string) => `execution-crud:${projectId}`;

/**
 * The executions engine (DESIGN §6 and §11). Starting an execution writes one run report and
 * one queued job per scenario; workers claim jobs through this service. The engine releases a
 * job to the job queue (pg-boss, `ExecutionQueue`) when no earlier group of its flow is unfinished
 * and its group runs fewer jobs than its threadCount, so flows run in parallel and a flow's groups
 * in order; pg-boss hands released jobs out, retries and expires them. All state is in the
 * database: any API process answers any worker.
 *
 * Outcomes are typed (issue 21): `passed` and `failed` come from the scenario; `error` is the
 * infrastructure's (a pull, a browser launch, an upload, a deadline, a lost worker) and is never a
 * failed scenario. An errored job is queued again after a backoff, preferring another worker, up
 * to the retry policy's attempts; then it ends in the `error` state with the reason as its message. A final
 * error is treated like a failure for the rest of the run: its flow's later groups are skipped
 * (they run only after the earlier groups' scenarios ran) and the run ends FAILED, because a run
 * passes only when every scenario passed (spec 02 §4) and this one's never ran to the end. The
 * counters keep it apart (`scenariosErrored`, not `scenariosFailed`), and the executions screens
 * show it as an error.
 */
export class ExecutionEngine {
  /** Wakes this process's waiting claims when jobs become claimable here; other servers poll. */
  private readonly wake = new EventEmitter();
  /** The latest publish of each execution still under way (publishes of one execution are serial). */
  private readonly publishing = new Map<string, Promise<void>>();
  private closed = false;
  /** When this process last mended the queue (`ExecutionQueue.maintain`). */
  private maintainedAt = 0;

  constructor(
    /** Hears `jobClaimed` and `jobEnded` (/metrics). */
    private readonly events: DomainEventBus,
    private readonly transactions: ExecutionTransactions,
    private readonly executionsRepo: ExecutionsRepo,
    private readonly jobs: ExecutionJobsRepo,
    private readonly queue: ExecutionQueue,
    private readonly executions: ExecutionsService,
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly access: AccessService,
    private readonly users: UsersRepo,
    private readonly accessKeys: AccessKeysService,
    private readonly accessKeysRepo: AccessKeysRepo,
    private readonly sockets: SocketHub,
    private readonly settings: EngineSettings,
    private readonly log: EngineLogger,
  ) {
    this.wake.setMaxListeners(0);
    // Every server sends its own sockets counters it read itself, one execution's in turn.
    this.sockets.onExecutionChange(({ projectId, executionId, list }) => void this.publishHere(projectId, executionId, list));
  }

  close(): void {
    this.closed = true;
    this.wake.emit('job');
  }

  /**
   * Starts an execution now: checks threads and scenarios, then in one transaction marks it
   * running, creates its run report and queues one job per scenario of every group with threads.
   */
  async start(executionId: string, trigger: 'manual' | 'schedule', startedBy?: Caller): Promise<{ runId: string }> {
    const execution = await this.executions.row(executionId);
    if (execution.running) throw new ExecutionRefused('running');
    const userId = startedBy?.user.id ?? execution.userId;
    const user = userId ? await this.users.findById(userId) : undefined;
    // A user an instance administrator disabled no longer acts, not even through their schedules.
    if (!user || user.disabledAt) throw new ExecutionRefused('starter-not-member');
    // A scheduled start acts for the member who scheduled it: still a member, with a licence.
    const access = startedBy
      ? await this.access.authorize(startedBy, { from: 'body', field: 'projectId', write: true }, execution.projectId)
      : await this.access.checkMember(user.id, execution.projectId, { write: true });
    const flows = execution.flows as StoredFlow[];
    this.checkThreads(execution, flows, access, await this.executions.freeThreads(access));

    // Scenarios are chosen by tags now, at the branch's current commit (spec: recomputed when tags
    // change); that commit is pinned for the whole run.
    const ws = await this.workspaces.open({ user }, access, execution.branch);
    const snapshot = await this.workspaces.read(ws);
    const { features } = await this.features.listing(snapshot);
    const jobs: NewExecutionJob[] = [];
    flows.forEach((flow, flowIndex) =>
      flow.scenarioGroups.forEach((group, groupIndex) => {
        // A group without threads runs nothing (the planner allows 0 while editing).
        if (group.threadCount <= 0) return;
        for (const scenario of scenariosWithTags(features, group.tags)) {
          jobs.push({
            projectId: execution.projectId,
            flowIndex,
            groupIndex,
            threadCount: execution.isSingleThreaded ? 1 : group.threadCount,
            position: jobs.length,
            featurePath: scenario.featurePath,
            scenarioName: scenario.scenarioName,
            browser: flow.browser.toLowerCase(),
            viewport: VIEWPORT_SIZES[flow.viewport] ?? '1024x768',
          });
        }
      }),
    );
    if (jobs.length === 0) throw new ExecutionRefused('no-scenarios');
    const envText = await snapshot.readText(`environments/${environmentFileName(environmentDisplayName(execution.env))}`);
    const baseUrl = baseUrlOf(envText);
    const now = new Date();

    const started = await this.transactions.run(async (tx) => {
      // Two simultaneous starts are one start: only one marks the execution running.
      if (!(await tx.executions.markRunning(execution.id))) return undefined;
      const runId = await tx.runs.insertExecutionReport({
        projectId: execution.projectId,
        uploadKey: `execution:${randomUUID()}`,
        userId: user.id,
        username: `${user.firstName} ${user.lastName}`.trim() || user.email,
        name: execution.name,
        kind: 'run',
        // The server runs an execution's scenarios: a cloud run (spec 02 Run.mode).
        mode: 'cloud',
        branch: execution.branch,
        envName: execution.env,
        envBaseUrl: baseUrl,
        browser: flows[0]?.browser.toLowerCase() ?? 'chromium',
        startTime: now,
        endTime: now,
      });
      const executionRunId = await tx.jobs.queueRun(
        {
          executionId: execution.id,
          projectId: execution.projectId,
          userId: user.id,
          runId,
          branch: execution.branch,
          // The commit the scenarios were chosen at is the one every worker runs (pushes meanwhile wait for the next run).
          commit: snapshot.commit,
          env: execution.env,
          trigger,
        },
        jobs,
      );
      return { runId, executionRunId };
    });
    if (!started) throw new ExecutionRefused('running');
    // Should this server stop before it releases, any server's queue maintenance releases them.
    await this.queue.release(started.executionRunId);
    this.log.info({ executionId, runId: started.runId, jobs: jobs.length, trigger }, 'execution started');
    this.wake.emit('job');
    await this.publish(execution.projectId, execution.id);
    return { runId: started.runId };
  }

  /** Every flow needs a group with threads, and the threads it takes must be free (DESIGN §11). */
  private checkThreads(execution: ExecutionRow, flows: StoredFlow[], access: ProjectAccess, free: number): void {
    if (access.project.maxExecutionThreads <= 0) throw new ExecutionRefused('no-threads');
    if (flows.length === 0 || flows.some((flow) => !flow.scenarioGroups.some((group) => group.threadCount > 0))) {
      throw new ExecutionRefused('insufficient-threads');
    }
    const needed = flows.reduce(
      (sum, flow) => sum + (execution.isSingleThreaded ? 1 : Math.max(...flow.scenarioGroups.map((g) => g.threadCount))),
      0,
    );
    if (needed > free) throw new ExecutionRefused('insufficient-threads');
  }

  /** Stops the execution: queued and running jobs are cancelled (workers see it on their next heartbeat), the run is marked. */
  async halt(executionId: string): Promise<void> {
    const current = await this.latestRun(executionId);
    if (!current || current.state !== 'running') {
      // Nothing runs (it finished a moment ago): halting is idempotent, but a stale flag is cleared.
      await this.executionsRepo.markIdle(executionId);
      return;
    }
    const cancelled = await this.transactions.run(async (tx) => {
      const haltedRunId = await tx.jobs.haltRun(current.id);
      if (!haltedRunId) return { releasedJobIds: [], keyIds: [] };
      const jobs = await tx.jobs.cancelOpenJobs(current.id, Messages.executionHalted);
      await tx.runs.markStopped(haltedRunId);
      await tx.executions.markIdle(executionId);
      return jobs;
    });
    // A claim would cancel them too on finding them cancelled; taking them out now keeps the queue's depth true.
    await this.queue.withdraw(cancelled.releasedJobIds);
    // Without its key a stopped worker's late upload is refused.
    for (const key of cancelled.keyIds) await this.accessKeysRepo.delete(key);
    this.log.info({ executionId }, 'execution halted');
    await this.publish(current.projectId, executionId);
  }

  /** Job history: deletes the jobs of execution runs that ended more than `keepMs` ago (each run keeps its counts). */
  async forgetJobsOlderThan(keepMs: number): Promise<number> {
    return this.jobs.deleteJobsOfRunsEndedBefore(new Date(Date.now() - keepMs));
  }

  async latestRun(executionId: string): Promise<ExecutionRunRow | undefined> {
    return this.jobs.latestRunOf(executionId);
  }

  async reportLink(executionId: string): Promise<{ reportLink: string | null; runId: string | null }> {
    const latest = await this.latestRun(executionId);
    return latest
      ? { runId: latest.runId, reportLink: this.settings.reportLink(latest.projectId, latest.runId) }
      : { runId: null, reportLink: null };
  }

  /** Live counters of an execution's latest run. */
  async status(executionId: string): Promise<ExecutionStatus> {
    const latest = await this.latestRun(executionId);
    if (!latest)
      return { executionId, runId: null, running: false, totalScenarios: 0, scenariosPassed: 0, scenariosFailed: 0, scenariosErrored: 0 };
    return this.countersOf(latest);
  }

  /**
   * Live counters of the execution run whose report is `runId` (not necessarily the latest), or
   * null when no execution made that run (an uploaded run, a single scenario execution).
   */
  async statusOfRun(runId: string): Promise<RunExecution | null> {
    const row = await this.jobs.runOfReport(runId);
    if (!row) return null;
    const counters = await this.countersOf(row);
    return { ...counters, runId, erroredScenarios: counters.scenariosErrored > 0 ? await this.jobs.erroredJobsOf(row.id) : [] };
  }

  private async countersOf(latest: ExecutionRunRow): Promise<ExecutionStatus> {
    const counts = await this.jobs.countersOf(latest);
    return {
      executionId: latest.executionId,
      runId: latest.runId,
      running: latest.state === 'running',
      totalScenarios: counts.total,
      scenariosPassed: counts.passed,
      scenariosFailed: counts.failed,
      scenariosErrored: counts.errored,
    };
  }

  /**
   * A worker thread asks for work: answers a job at once, or waits up to waitMs for one.
   * Other servers' new jobs are found by polling (claimPollMs).
   */
  async claim(workerId: string, waitMs: number): Promise<WorkerJob | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const job = await this.claimOnce(workerId);
      if (job || this.closed || Date.now() >= deadline) return job;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake.off('job', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(this.settings.claimPollMs, Math.max(0, deadline - Date.now())));
        this.wake.once('job', done);
      });
    }
  }

  /** One claim, after the upkeep every claim does first unless told not to (a hand-over does it afterwards). */
  private async claimOnce(workerId: string, { upkeepFirst = true } = {}): Promise<WorkerJob | null> {
    if (upkeepFirst) await this.upkeep();
    const claimed = await this.queue.claimNext(workerId, this.settings.retries.backoffMs);
    if (!claimed) return null;
    void this.events.emit('jobClaimed', {
      kind: 'execution',
      queuedAt: claimed.releasedAt ?? claimed.createdAt,
      claimedAt: claimed.startedAt ?? new Date(),
    });
    const run = await this.jobs.findRun(claimed.executionRunId);
    if (!run) return null;
    // Deleted when the job ends; should nobody be left to delete it, it dies once the worker
    // would have stopped the scenario anyway.
    const keyExpiry = new Date(Date.now() + Limits.executionPullAllowanceMs + Limits.executionScenarioTimeoutMs);
    const key = await this.accessKeys.createJobKey(claimed.projectId, run.userId, `Execution worker ${claimed.id.slice(0, 8)}`, keyExpiry);
    await this.jobs.setAccessKey(claimed.id, key.id);
    return {
      jobId: claimed.id,
      projectId: claimed.projectId,
      executionId: run.executionId,
      runId: run.runId,
      branch: run.branch,
      commit: run.commit,
      envFile: `environments/${environmentFileName(environmentDisplayName(run.env))}`,
      featurePath: claimed.featurePath,
      scenarioName: claimed.scenarioName,
      browser: claimed.browser,
      viewport: claimed.viewport,
      accessToken: key.token,
    };
  }

  /** Refreshes the worker's jobs; answers those it must stop (halted, or retried elsewhere). */
  async heartbeat(workerId: string, jobIds: string[]): Promise<string[]> {
    if (jobIds.length === 0) return [];
    const kept = await this.jobs.renewLeases(workerId, jobIds);
    return jobIds.filter((id) => !kept.has(id));
  }

  /**
   * A worker's job ended. Only the worker holding it may finish it: a retried job's old worker is
   * ignored. `error` (infrastructure) is retried, never stored as a failed scenario. With `takeNext`
   * the thread also claims its next job, before the threads waiting in a claim are woken: the job
   * this end released (the run's next one) goes to the thread that holds the run's warm runner
   * instead of starting one on another thread.
   */
  async finish(
    workerId: string,
    jobId: string,
    outcome: 'passed' | 'failed' | 'error',
    message?: string,
    takeNext = false,
  ): Promise<WorkerJob | null> {
    if (outcome === 'error') {
      const job = await this.jobs.runningJobOf(jobId, workerId);
      if (job) await this.retryOrEnd(job, message ?? Messages.jobRunnerStopped(null), 'the worker reported an infrastructure error');
      return null;
    }
    const job = await this.queue.finish(jobId, workerId, outcome, message ?? null);
    if (!job) return null;
    let next: WorkerJob | null = null;
    await this.ended(job, async () => {
      // The upkeep waits: every query before the claim is a moment in which a polling thread may take the job.
      if (takeNext) next = await this.claimOnce(workerId, { upkeepFirst: false });
    });
    if (takeNext) await this.upkeep();
    return next;
  }

  /** What a claim first sees to: jobs of lost workers, and the queue a stopped server left. */
  private async upkeep(): Promise<void> {
    await this.recoverLostJobs();
    await this.maintainQueue();
  }

  /** Jobs whose worker stopped heartbeating: an infrastructure error like any other, retried elsewhere. */
  async recoverLostJobs(): Promise<void> {
    const lost = await this.jobs.lapsedJobs(this.settings.leaseMs);
    for (const job of lost) await this.retryOrEnd(job, Messages.workerLost, 'the worker stopped heartbeating');
  }

  /**
   * Mends the queue at most once per `MAINTAIN_EVERY_MS` in this process (each server does, so
   * what a stopped server left is mended by the next claim anywhere): see `ExecutionQueue.maintain`.
   */
  private async maintainQueue(): Promise<void> {
    if (Date.now() - this.maintainedAt < MAINTAIN_EVERY_MS) return;
    this.maintainedAt = Date.now();
    await this.mendQueue();
  }

  /** Releases and queues again what a server that stopped mid-change left (`ExecutionQueue.maintain`); answers how many jobs. */
  async mendQueue(): Promise<number> {
    const mended = await this.queue.maintain();
    if (mended > 0) {
      this.log.warn({ jobs: mended }, 'released or queued again execution jobs a stopped server left');
      this.wake.emit('job');
    }
    return mended;
  }

  /**
   * Another attempt after the retry policy's backoff, preferring another worker,
   * or — after the last attempt — the job ends in `error` with `reason`. Another server may be
   * handling the same job right now: the guarded updates let only one of us change it.
   */
  private async retryOrEnd(job: ExecutionJobRow, reason: string, why: string): Promise<void> {
    if (this.settings.retries.allowsAnother(job.attempts)) {
      const delayMs = this.settings.retries.delayAfter(job.attempts);
      if (!(await this.queue.requeueForRetry(job, reason, delayMs))) return;
      if (job.accessKeyId) await this.accessKeysRepo.delete(job.accessKeyId);
      this.log.warn({ jobId: job.id, workerId: job.workerId, attempts: job.attempts, delayMs, reason }, `retrying a job: ${why}`);
      // Waiting claims of this process look again once the backoff is over; other servers poll.
      setTimeout(() => this.wake.emit('job'), delayMs).unref();
      return;
    }
    const ended = await this.queue.endErrored(job, reason);
    if (!ended) return;
    this.log.warn({ jobId: job.id, workerId: job.workerId, attempts: job.attempts, reason }, `a job ended in error: ${why}`);
    await this.ended(ended);
  }

  /**
   * After a job ended: a failure or a final error skips its flow's later groups; the last job
   * finishes the run. `beforeWake` runs as soon as the job's end released what may run next,
   * before anything else is asked and before waiting claims hear of it (threads that poll may
   * still take a job released meanwhile, so the window is kept to the one claim).
   */
  private async ended(job: ExecutionJobRow, beforeWake?: () => Promise<void>): Promise<void> {
    if (job.state !== 'queued' && job.state !== 'running')
      void this.events.emit('jobEnded', {
        kind: 'execution',
        outcome: job.state,
        startedAt: job.startedAt,
        finishedAt: job.finishedAt ?? new Date(),
      });
    if (job.accessKeyId) await this.accessKeysRepo.delete(job.accessKeyId);
    if (job.state === 'failed') await this.jobs.skipLaterGroups(job, Messages.executionGroupSkipped);
    if (job.state === 'error') await this.jobs.skipLaterGroups(job, Messages.executionGroupSkippedAfterError);
    // The freed thread goes to its group's next job, or the flow's next group once this one ended.
    await this.queue.release(job.executionRunId);
    await beforeWake?.();
    const open = await this.jobs.openJobCount(job.executionRunId);
    const run = await this.jobs.findRun(job.executionRunId);
    if (!run) return;
    if (open === 0) await this.complete(run.id);
    this.wake.emit('job');
    // The list changes only when the run ends (its running flag); the counters change with every job.
    await this.publish(run.projectId, run.executionId, { list: open === 0 });
  }

  private async complete(executionRunId: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const failed = await tx.jobs.anyJobFailed(executionRunId);
      const done = await tx.jobs.finishRun(executionRunId, failed);
      if (!done) return;
      // A scenario that ended in error left no test case (or one from an attempt that did not end): the run must not pass.
      if (failed) await tx.runs.markFailed(done.runId);
      await tx.executions.markIdle(done.executionId);
      this.log.info({ executionId: done.executionId, runId: done.runId, failed }, 'execution finished');
    });
  }

  /**
   * Live counters to the project's status room and the full list to its crud room (spec 02 §7).
   * One execution's publishes go out one after another, each reading the counters at its turn:
   * two jobs ending at once would otherwise race, and the counters read first could reach the
   * user last (a finished execution shown as still running). The list (every execution with its
   * scenarios: large for a large project) goes out only where it changed (`list`, by default): a
   * start, a halt, an edit, a run's end; never once per job, which made each job's end cost the
   * API time in proportion to the project's scenarios (bench/worker-agents-at-scale.ts).
   */
  publish(projectId: string, executionId: string, { list = true }: { list?: boolean } = {}): Promise<void> {
    // Other servers hear it and publish to their sockets; this one's publish is what the caller awaits.
    this.sockets.announceExecutionChange({ projectId, executionId, list });
    return this.publishHere(projectId, executionId, list);
  }

  /** Publishes to this server's sockets, after the execution's earlier publishes here. */
  private publishHere(projectId: string, executionId: string, list: boolean): Promise<void> {
    const previous = this.publishing.get(executionId) ?? Promise.resolve();
    const next = previous.then(() => this.publishNow(projectId, executionId, list));
    this.publishing.set(executionId, next);
    void next.then(() => {
      if (this.publishing.get(executionId) === next) this.publishing.delete(executionId);
    });
    return next;
  }

  private async publishNow(projectId: string, executionId: string, list: boolean): Promise<void> {
    try {
      const status = await this.status(executionId);
      this.sockets.emitToRoomHere(executionStatusRoom(projectId), executionStatusEvent(executionId), status);
      if (list)
        this.sockets.emitToRoomHere(executionCrudRoom(projectId), 'crudUpdate', {
          projectId,
          executions: await this.executions.list(projectId),
        });
    } catch (error) {
      this.log.warn({ err: error, executionId }, 'could not publish execution status');
    }
  }
}

/** The environment file's baseUrl for the run report; a missing or broken file gives an empty one. */
function baseUrlOf(envText: string | null): string {
  try {
    const parsed = envText ? (JSON.parse(envText) as { baseUrl?: unknown }) : {};
    return typeof parsed.baseUrl === 'string' ? parsed.baseUrl : '';
  } catch {
    return '';
  }
}
