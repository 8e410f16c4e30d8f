import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient } from '@rehearse/api-client';
import { Limits, Messages, parseRunResult, scenarioRunArgs, workerCalls, type WorkerJob } from '@rehearse/contract';
import { allowPrivateTargets, endpointsOf } from '@rehearse/egress';
import {
  createJobFolder,
  Deadline,
  fetchWithDeadline,
  requireSandbox,
  runJobProcess,
  startNodeProgram,
  stopChild,
  type SandboxMode,
} from '@rehearse/processes';
import { UsageError } from '../support/settings.js';
import { parse, USAGE } from './args.js';
import { DEFAULT_SERVER, EXIT, type CliIo, type CliParts } from './io.js';
import { runPull } from './pull.js';
import { deadlinePassed, outcomeOf, type JobOutcome } from './job-outcome.js';
import { ThreadRunner } from './thread-runner.js';
import { WorkspaceCache } from './workspace-cache.js';

const HEARTBEAT_MS = 2_000;
const CLAIM_WAIT_MS = 20_000;
const RETRY_AFTER_ERROR_MS = 2_000;
const RESTART_DELAY_MS = 1_000;
/** How long a thread with no work keeps its spare warm runner (a browser and a Node process) for the next run. */
const SPARE_IDLE_MS = 5 * 60_000;
/** The deadline of one control call (claim, heartbeat, finish): a claim waits up to CLAIM_WAIT_MS for work, then answers. */
const CONTROL_CALL_LIMIT_MS = CLAIM_WAIT_MS + 30_000;
/**
 * A scenario job's hard deadline, its pull included: past it the job's sandboxed process (browser
 * included) is killed and the job ends as an error. `--job-timeout`/REHEARSE_JOB_TIMEOUT_SECONDS
 * change it (tests use seconds); the contract's limit is the default.
 */
const JOB_TIMEOUT_VARIABLE = 'REHEARSE_JOB_TIMEOUT_SECONDS';
/** Set in the environment of a thread process the worker started. */
const THREAD_FLAG = 'REHEARSE_WORKER_THREAD';
/** Set (to 1) in a thread's environment when every job gets a fresh process (`--process-per-scenario`). */
const PROCESS_PER_SCENARIO_VARIABLE = 'REHEARSE_PROCESS_PER_SCENARIO';
/** Pulled commits a thread keeps: the execution running now and the one before it. */
const CACHED_WORKSPACES = 2;

export const WORKER_OPTIONS = {
  server: { type: 'string' },
  token: { type: 'string' },
  threads: { type: 'string' },
  'job-timeout': { type: 'string' },
  'process-per-scenario': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `rehearse worker`: an agent (DESIGN §6). It connects out to the server with a worker token and
 * keeps `--threads` thread processes (same process group, so stopping the worker stops them all).
 * A thread holds the worker token and never runs tenant code: it claims one scenario at a time
 * and runs it in the job sandbox (sandbox.ts: its own process, user, environment, cgroup and
 * deadline, with the job's short-lived key and nothing else), then reports how it went. A job of a
 * run that pinned its commit goes to the thread's warm runner (thread-runner.ts: one
 * `rehearse warm-runner` per execution run, workspace pulled, support code loaded and browser
 * launched once); with `--process-per-scenario` (or a run without a pinned commit) the thread
 * pulls the commit (cached per commit), copies it into a fresh job folder and starts `rehearse run`
 * for that one scenario. Heartbeats keep the job; when the server says stop (a halted execution)
 * the job's process is killed. A machine that cannot sandbox makes the worker refuse to start,
 * unless REHEARSE_UNSANDBOXED_WORKERS=1.
 */
export async function runWorker(args: string[], io: CliIo, { bin }: Pick<CliParts, 'bin'>): Promise<number> {
  const { values: opts } = parse(args, WORKER_OPTIONS);
  if (opts.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const token = opts.token ?? io.env.REHEARSE_WORKER_TOKEN;
  if (!token)
    throw new UsageError(
      'rehearse worker needs --token T (or REHEARSE_WORKER_TOKEN): a worker token from `npm run admin -- create-worker-token`',
    );
  const server = opts.server ?? io.env.REHEARSE_SERVER ?? DEFAULT_SERVER;
  const threads = Number(opts.threads ?? '1');
  if (!Number.isInteger(threads) || threads < 1 || threads > 64)
    throw new UsageError(`--threads must be a whole number from 1 to 64 (got "${opts.threads ?? ''}")`);
  const jobTimeout = opts['job-timeout'] ?? io.env[JOB_TIMEOUT_VARIABLE];
  const jobTimeoutMs = jobTimeout === undefined ? Limits.executionScenarioTimeoutMs : Number(jobTimeout) * 1000;
  if (!Number.isFinite(jobTimeoutMs) || jobTimeoutMs < 1000 || jobTimeoutMs > Limits.executionScenarioTimeoutMs)
    throw new UsageError(
      `--job-timeout (or ${JOB_TIMEOUT_VARIABLE}) must be a number of seconds from 1 to ${Limits.executionScenarioTimeoutMs / 1000} (got "${jobTimeout ?? ''}")`,
    );
  let mode: SandboxMode;
  try {
    mode = await requireSandbox(io.env);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const processPerScenario = Boolean(opts['process-per-scenario']) || io.env[PROCESS_PER_SCENARIO_VARIABLE] === '1';
  const settings: ThreadSettings = { server, token, mode, bin, jobTimeoutMs, processPerScenario };
  if (io.env[THREAD_FLAG]) return runThread(settings, io);
  if (mode === 'unsandboxed')
    io.stderr.write(
      'Warning: jobs run without the sandbox (REHEARSE_UNSANDBOXED_WORKERS=1): step code can read everything this worker can.\n',
    );
  return superviseThreads(settings, threads, io);
}

/** What every thread of a worker works with. */
interface ThreadSettings {
  server: string;
  token: string;
  mode: SandboxMode;
  /** The runner's CLI (`rehearse`). */
  bin: string;
  jobTimeoutMs: number;
  /** A fresh process, pull copy and browser per job instead of the thread's warm runner. */
  processPerScenario: boolean;
}

/** Keeps `threads` thread processes running until SIGTERM/SIGINT. */
async function superviseThreads(settings: ThreadSettings, threads: number, io: CliIo): Promise<number> {
  const { server, token, bin, jobTimeoutMs } = settings;
  const children = new Set<ChildProcess>();
  let stopping = false;
  io.stdout.write(`Worker with ${threads} thread(s) is taking scenarios from ${server}\n`);
  const start = () => {
    if (stopping) return;
    const child = startNodeProgram(bin, ['worker', '--server', server], {
      // The flag carries the worker's pid: thread ids name their worker (host:worker/thread:random).
      env: {
        ...io.env,
        REHEARSE_WORKER_TOKEN: token,
        [THREAD_FLAG]: String(process.pid),
        [JOB_TIMEOUT_VARIABLE]: String(jobTimeoutMs / 1000),
        ...(settings.processPerScenario ? { [PROCESS_PER_SCENARIO_VARIABLE]: '1' } : {}),
      },
      // The IPC channel closes when this process dies, however it dies: the thread then exits too.
      stdout: 'inherit',
      stderr: 'inherit',
    });
    children.add(child);
    child.on('exit', () => {
      children.delete(child);
      setTimeout(start, RESTART_DELAY_MS).unref();
    });
  };
  for (let i = 0; i < threads; i++) start();
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      // On SIGTERM a thread kills its running job's process group and exits; each exit is waited for.
      const stopped = [...children].map((child) => stopChild(child, { ask: () => child.kill('SIGTERM'), graceMs: Infinity }));
      void Promise.all(stopped).then(() => resolve());
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    // Started by a server (local workers): when the server goes, so does this worker.
    if (process.connected) process.once('disconnect', stop);
  });
  return EXIT.ok;
}

/** One thread: claim, run in the sandbox, finish, again. */
async function runThread(settings: ThreadSettings, io: CliIo): Promise<number> {
  const { server, token, mode, bin, jobTimeoutMs } = settings;
  const workerId = `${hostname()}:${io.env[THREAD_FLAG] ?? ''}/${process.pid}:${randomBytes(3).toString('hex')}`;
  // A server that stops answering mid-call costs one call, never the thread: it errs, and the loop tries again.
  const client = createApiClient({ baseUrl: server, getToken: () => token, fetch: fetchWithDeadline(io.fetch, CONTROL_CALL_LIMIT_MS) });
  const cacheRoot = await mkdtemp(path.join(tmpdir(), 'rehearse-thread-'));
  // Synchronous: the thread leaves through process.exit, where nothing asynchronous runs.
  process.once('exit', () => rmSync(cacheRoot, { recursive: true, force: true }));
  const workspaces = new WorkspaceCache(cacheRoot, CACHED_WORKSPACES);
  // Its browsers and tenant code reach the app under test, and this server, through the egress rules.
  const egress = async () => ({ allowPrivate: allowPrivateTargets(io.env), alwaysAllow: await endpointsOf(server) });
  const warm = new ThreadRunner({ server, mode, bin, egress, jobTimeoutMs });
  const keepsWarmRunners = !settings.processPerScenario;
  if (keepsWarmRunners) warm.keepSpare();
  let idleSince = Date.now();
  let current: { jobId: string; stop: AbortController } | undefined;
  // The job's process and the warm runner are in their own process groups: stopping the thread kills them first.
  const quit = () => {
    current?.stop.abort();
    warm.killNow();
    process.exit(EXIT.ok);
  };
  process.once('SIGTERM', quit);
  process.once('SIGINT', quit);
  process.once('disconnect', quit);
  const heartbeat = setInterval(() => {
    const job = current;
    if (!job) return;
    client
      .call(workerCalls.heartbeat, { body: { workerId, jobIds: [job.jobId] } })
      .then(({ stop }) => {
        // Halted or taken over: the job's process dies, the thread takes the next job.
        if (stop.includes(job.jobId)) job.stop.abort();
      })
      .catch((error: unknown) => io.stderr.write(`heartbeat failed: ${(error as Error).message}\n`));
  }, HEARTBEAT_MS);
  // The job the server handed over with the last finish (the run's next one, for the warm runner).
  let handedOver: WorkerJob | null = null;
  try {
    for (;;) {
      let job: WorkerJob | null = handedOver;
      handedOver = null;
      try {
        if (!job) ({ job } = await client.call(workerCalls.claim, { body: { workerId, waitMs: CLAIM_WAIT_MS } }));
      } catch (error) {
        io.stderr.write(`claim failed: ${(error as Error).message}\n`);
        await sleep(RETRY_AFTER_ERROR_MS);
        continue;
      }
      if (!job) {
        // No work for a while: the warm runner's browser and memory go back to the machine, and after
        // a longer while the spare's too.
        await warm.release();
        if (Date.now() - idleSince >= SPARE_IDLE_MS) await warm.releaseSpare();
        continue;
      }
      const stop = new AbortController();
      current = { jobId: job.jobId, stop };
      try {
        const { outcome, message } =
          job.commit && !settings.processPerScenario
            ? await warm.run({ ...job, commit: job.commit }, stop.signal)
            : await runJob(job, server, mode, io, workspaces, bin, stop.signal, jobTimeoutMs);
        // A stopped job's end belongs to whoever stopped it (a halt, another worker's retry).
        if (!stop.signal.aborted) {
          const answer: { job?: WorkerJob | null } = await client.call(workerCalls.finish, {
            body: { workerId, jobId: job.jobId, outcome, ...(message ? { message: message.slice(0, 2000) } : {}), next: true },
          });
          handedOver = answer.job ?? null;
        }
        idleSince = Date.now();
        // Nothing handed over: the run may be over for this thread, so the next run's runner gets ready.
        if (!handedOver && keepsWarmRunners) warm.keepSpare();
      } catch (error) {
        io.stderr.write(`job ${job.jobId} failed: ${(error as Error).message}\n`);
      } finally {
        current = undefined;
      }
    }
  } finally {
    clearInterval(heartbeat);
  }
  return EXIT.ok;
}

/**
 * One scenario in a process of its own, under one deadline (pull and run): the workspace at the run's commit (pulled by the
 * thread, cached), copied into the job's own folder, and `rehearse run` for that scenario in the
 * sandbox with the job's key. How it went comes from the run's typed result file, never from
 * its output; a pull that fails, a deadline that passes or a runner that leaves no result is an
 * infrastructure `error` the server retries elsewhere.
 */
export async function runJob(
  job: WorkerJob,
  server: string,
  mode: SandboxMode,
  io: CliIo,
  workspaces: WorkspaceCache,
  bin: string,
  signal?: AbortSignal,
  jobTimeoutMs: number = Limits.executionScenarioTimeoutMs,
): Promise<JobOutcome> {
  const deadline = new Deadline(jobTimeoutMs, signal);
  const dir = await createJobFolder(`execution-${job.jobId.slice(0, 8)}`);
  const errors: string[] = [];
  // The pull is the thread's own code (a tar of the project's files), with the job's key only.
  const pullIo: CliIo = {
    ...io,
    cwd: dir,
    env: { REHEARSE_TOKEN: job.accessToken, NO_COLOR: '1' },
    stdout: { write: () => true },
    stderr: { write: (text: string) => errors.push(text) },
    fetch: deadline.fetch(io.fetch),
  };
  const pull = async (target: string, commit?: string) => {
    const args = [
      '--server',
      server,
      '--project',
      job.projectId,
      '--branch',
      job.branch,
      ...(commit ? ['--commit', commit] : []),
      '--dir',
      target,
    ];
    if ((await runPull(args, pullIo)) !== EXIT.ok) throw new Error(errors.join('').trim() || Messages.jobWorkspaceNotDownloaded);
  };
  const workspace = path.join(dir, 'workspace');
  const resultFile = path.join(dir, 'result.json');
  try {
    try {
      // A run started before commits were pinned (commit null) takes the branch head, uncached.
      if (job.commit)
        await cp(await workspaces.get(job.projectId, job.commit, (target) => pull(target, job.commit!)), workspace, { recursive: true });
      else await pull(workspace);
    } catch (error) {
      return deadline.expired ? deadlinePassed(jobTimeoutMs) : { outcome: 'error', message: (error as Error).message };
    }
    const run = await runJobProcess({
      mode,
      workDir: dir,
      cwd: workspace,
      env: { REHEARSE_TOKEN: job.accessToken },
      // Its browser and fetches reach the app under test, and this server, through the egress rules.
      egress: { allowPrivate: allowPrivateTargets(io.env), alwaysAllow: await endpointsOf(server) },
      timeoutMs: deadline.remainingMs(),
      signal: deadline.signal,
      runnerBin: bin,
      nodeArgs: [
        bin,
        ...scenarioRunArgs({
          server,
          projectId: job.projectId,
          branch: job.branch,
          // The test data of the run's pinned commit, as the workspace itself.
          commit: job.commit,
          envFile: job.envFile,
          browser: job.browser,
          viewport: job.viewport,
          scenarioName: job.scenarioName,
          appendTo: { runId: job.runId, uploadKey: job.jobId },
          out: path.join(dir, 'report'),
          resultFile,
          featurePath: job.featurePath,
        }),
      ],
    });
    if (run.timedOut || deadline.expired) return deadlinePassed(jobTimeoutMs);
    const result = parseRunResult(await readFile(resultFile, 'utf8').catch(() => undefined));
    if (result) return outcomeOf(result);
    // The runner died before it could say how it went (killed, out of memory, a crash).
    return { outcome: 'error', message: lastLine(run.stderr) || Messages.jobRunnerStopped(run.code) };
  } catch (error) {
    return { outcome: 'error', message: (error as Error).message };
  } finally {
    deadline.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.trim() ?? '';
}
