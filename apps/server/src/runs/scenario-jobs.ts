import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentDisplayName, environmentFileName, Messages, type ScenarioJob } from '@rehearse/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { AccessKeysRepo } from '../auth/access-keys.repo.js';
import type { Caller, ProjectAccess } from '../auth/caller.js';
import type { Db } from '../db/database.js';
import { runs, scenarioJobs } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import type { SocketHub } from '../storage/sockets.js';
import type { FeaturesService } from '../workspace/features.service.js';
import { featurePath } from '../workspace/features.service.js';
import type { Workspace, WorkspaceService } from '../workspace/workspace.service.js';
import { runChild } from './child-process.js';

type JobRow = typeof scenarioJobs.$inferSelect;

/** The runner's CLI; workers run it as a separate process so the API never launches a browser. */
const RUNNER_BIN = fileURLToPath(new URL('../../../../packages/runner/bin/rehearse.mjs', import.meta.url));
const REPORT_LINK = /\/run-report\/([0-9a-f-]{36})/;

export interface ScenarioJobSettings {
  workerProcesses: number;
  runTimeoutMs: number;
  dataDir: string;
  /** Where a worker reaches this server (known only once it listens). */
  serverUrl: () => string;
  reportLink: (projectId: string, runId: string) => string;
}

export interface JobLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * "Run scenario": jobs are rows claimed with SKIP LOCKED (so several servers can share the table),
 * executed by `rehearse pull` + `rehearse run` in worker processes with a short-lived access key of
 * the requesting user, and finished with the uploaded run or the error that stopped them.
 */
export class ScenarioJobs {
  private running = 0;
  private readonly aborts = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly accessKeys: AccessKeysService,
    private readonly accessKeysRepo: AccessKeysRepo,
    private readonly sockets: SocketHub,
    private readonly settings: ScenarioJobSettings,
    private readonly log: JobLogger,
  ) {}

  /** Jobs a previous process left running cannot finish any more. */
  async recover(): Promise<void> {
    await this.db
      .update(scenarioJobs)
      .set({ state: 'error', message: Messages.jobInterrupted, finishedAt: new Date() })
      .where(eq(scenarioJobs.state, 'running'));
    this.kick();
  }

  async projectOf(jobId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ projectId: scenarioJobs.projectId }).from(scenarioJobs).where(eq(scenarioJobs.id, jobId));
    return row?.projectId;
  }

  async enqueue(
    caller: Caller,
    access: ProjectAccess,
    input: { branch?: string | undefined; featureName: string; scenarioName: string; environment: string; heal?: boolean },
  ): Promise<ScenarioJob> {
    const ws = await this.workspaces.open(caller, access, input.branch);
    await this.checkTarget(ws, input.featureName, input.scenarioName, input.environment);
    const [row] = await this.db
      .insert(scenarioJobs)
      .values({
        projectId: ws.projectId,
        userId: caller.user.id,
        branch: ws.branch,
        featureName: input.featureName,
        scenarioName: input.scenarioName,
        environment: environmentDisplayName(input.environment.trim()),
        heal: input.heal ?? false,
      })
      .returning();
    if (!row) throw new Error('insert into scenario_jobs returned nothing');
    this.kick();
    return this.toDto(row);
  }

  async get(jobId: string): Promise<ScenarioJob> {
    const [row] = await this.db.select().from(scenarioJobs).where(eq(scenarioJobs.id, jobId));
    if (!row) throw notFound(Messages.jobNotFound);
    return this.toDto(row);
  }

  /** Stops every worker (server shutdown); their jobs end as errors on the next start. */
  close(): void {
    this.closed = true;
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
    // SKIP LOCKED lets several servers share the queue without taking the same job twice.
    const next = this.db
      .select({ id: scenarioJobs.id })
      .from(scenarioJobs)
      .where(eq(scenarioJobs.state, 'queued'))
      .orderBy(asc(scenarioJobs.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [job] = await this.db
      .update(scenarioJobs)
      .set({ state: 'running', startedAt: new Date() })
      .where(and(inArray(scenarioJobs.id, next), eq(scenarioJobs.state, 'queued')))
      .returning();
    if (job) this.emit(job);
    return job;
  }

  private async execute(job: JobRow): Promise<void> {
    const dir = path.join(this.settings.dataDir, 'jobs', job.id);
    const key = await this.accessKeys.create(job.projectId, job.userId, `Run scenario ${job.id.slice(0, 8)}`);
    const abort = new AbortController();
    this.aborts.add(abort);
    let state: JobRow['state'] = 'error';
    let runId: string | null = null;
    let message: string | null = null;
    try {
      await mkdir(dir, { recursive: true });
      const env = { ...process.env, REHEARSE_TOKEN: key.token, NO_COLOR: '1' };
      const common = { cwd: dir, env, signal: abort.signal, timeoutMs: this.settings.runTimeoutMs };
      const server = this.settings.serverUrl();
      const pull = await runChild(process.execPath, [RUNNER_BIN, 'pull', '--server', server, '--project', job.projectId, '--branch', job.branch, '--dir', 'workspace'], common);
      if (pull.code !== 0) throw new Error(lastLine(pull.stderr) || 'Could not download the workspace.');
      const run = await runChild(
        process.execPath,
        [
          RUNNER_BIN,
          'run',
          '--server',
          server,
          '--project',
          job.projectId,
          '--branch',
          job.branch,
          '--env',
          `environments/${environmentFileName(job.environment)}`,
          '--headless',
          ...(job.heal ? ['--heal'] : []),
          '--name',
          job.scenarioName,
          '--out',
          path.join(dir, 'report'),
          featurePath(job.featureName),
        ],
        { ...common, cwd: path.join(dir, 'workspace') },
      );
      runId = REPORT_LINK.exec(run.stdout)?.[1] ?? null;
      if (run.timedOut) message = Messages.jobTimedOut;
      else if (runId && (run.code === 0 || run.code === 1)) state = run.code === 0 ? 'passed' : 'failed';
      else message = lastLine(run.stderr) || lastLine(run.stdout) || `The runner stopped with code ${String(run.code)}.`;
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    } finally {
      this.aborts.delete(abort);
      await this.accessKeysRepo.delete(key.id);
      await rm(dir, { recursive: true, force: true });
    }
    // A "Run scenario" run is a single scenario execution in the reports list (spec 02 §3).
    if (runId) await this.db.update(runs).set({ kind: 'scenario' }).where(and(eq(runs.id, runId), eq(runs.projectId, job.projectId)));
    const [finished] = await this.db
      .update(scenarioJobs)
      .set({ state, runId, message, finishedAt: new Date() })
      .where(and(eq(scenarioJobs.id, job.id), eq(scenarioJobs.state, 'running')))
      .returning();
    if (finished) this.emit(finished);
    this.log.info({ jobId: job.id, state, runId }, 'scenario job finished');
  }

  private emit(job: JobRow): void {
    this.sockets.emitToProject(job.projectId, 'scenario_job', { projectId: job.projectId, jobId: job.id, state: job.state, runId: job.runId });
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

