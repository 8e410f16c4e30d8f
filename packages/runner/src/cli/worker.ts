import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { workerCalls, type WorkerJob } from '@rehearse/contract';
import { UsageError } from '../support/settings.js';
import { closeSharedBrowser, prelaunchBrowser } from '../support/world.js';
import { parse, USAGE } from './args.js';
import { DEFAULT_SERVER, EXIT, type CliIo } from './io.js';
import { runPull } from './pull.js';
import { preloadSupport, runRun } from './run.js';
import { WorkspaceCache } from './workspace-cache.js';

const RUNNER_BIN = fileURLToPath(new URL('../../bin/rehearse.mjs', import.meta.url));
const HEARTBEAT_MS = 2_000;
const CLAIM_WAIT_MS = 20_000;
const RETRY_AFTER_ERROR_MS = 2_000;
const RESTART_DELAY_MS = 1_000;
/** Set in the environment of a thread process the worker started. */
const THREAD_FLAG = 'REHEARSE_WORKER_THREAD';
/** A thread told to stop its scenario exits with this code; the worker starts a fresh thread. */
const EXIT_STOPPED = 3;
const REPORT_LINK = /^Report link: /m;
/** Pulled commits a thread keeps: the execution running now and the one before it. */
const CACHED_WORKSPACES = 2;

export const WORKER_OPTIONS = {
  server: { type: 'string' },
  token: { type: 'string' },
  threads: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `rehearse worker`: an agent (DESIGN §6). It connects out to the server with a worker token and
 * keeps `--threads` thread processes (same process group, so stopping the worker stops them all).
 * Each thread claims one scenario at a time and runs it in-process, appending it to the
 * execution's run, in the workspace at the run's pinned commit. A long-lived thread spares what
 * a scenario would otherwise pay every time: a Node start, the pull (cached per commit) and a
 * Chromium launch (one browser per thread, a fresh context per scenario, relaunched if it died).
 * Heartbeats keep the job; when the server says stop (a halted execution) the thread exits and a
 * fresh one takes its place.
 */
export async function runWorker(args: string[], io: CliIo): Promise<number> {
  const { values: opts } = parse(args, WORKER_OPTIONS);
  if (opts.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const token = opts.token ?? io.env.REHEARSE_WORKER_TOKEN;
  if (!token) throw new UsageError('rehearse worker needs --token T (or REHEARSE_WORKER_TOKEN): a worker token from `npm run admin -- create-worker-token`');
  const server = opts.server ?? io.env.REHEARSE_SERVER ?? DEFAULT_SERVER;
  const threads = Number(opts.threads ?? '1');
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new UsageError(`--threads must be a whole number from 1 to 64 (got "${opts.threads ?? ''}")`);
  if (io.env[THREAD_FLAG]) return runThread(server, token, io);
  return superviseThreads(server, token, threads, io);
}

/** Keeps `threads` thread processes running until SIGTERM/SIGINT. */
async function superviseThreads(server: string, token: string, threads: number, io: CliIo): Promise<number> {
  const children = new Set<ChildProcess>();
  let stopping = false;
  io.stdout.write(`Worker with ${threads} thread(s) is taking scenarios from ${server}\n`);
  const start = () => {
    if (stopping) return;
    const child = spawn(process.execPath, [RUNNER_BIN, 'worker', '--server', server], {
      // The flag carries the worker's pid: thread ids name their worker (host:worker/thread:random).
      env: { ...io.env, REHEARSE_WORKER_TOKEN: token, [THREAD_FLAG]: String(process.pid) },
      // The IPC channel closes when this process dies, however it dies: the thread then exits too.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
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
      if (children.size === 0) resolve();
      for (const child of children) {
        child.once('exit', () => children.size === 0 && resolve());
        child.kill('SIGTERM');
      }
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    // Started by a server (local workers): when the server goes, so does this worker.
    if (process.connected) process.once('disconnect', stop);
  });
  return EXIT.ok;
}

/** One thread: claim, run, finish, again. Stopping lets the current job go back to the lease. */
async function runThread(server: string, token: string, io: CliIo): Promise<number> {
  const workerId = `${hostname()}:${io.env[THREAD_FLAG] ?? ''}/${process.pid}:${randomBytes(3).toString('hex')}`;
  const client = createApiClient({ baseUrl: server, getToken: () => token, fetch: io.fetch });
  const cacheRoot = await mkdtemp(path.join(tmpdir(), 'rehearse-thread-'));
  // Synchronous: the thread leaves through process.exit, where nothing asynchronous runs.
  process.once('exit', () => rmSync(cacheRoot, { recursive: true, force: true }));
  const workspaces = new WorkspaceCache(cacheRoot, CACHED_WORKSPACES);
  let current: string | undefined;
  // A scenario in progress cannot be interrupted in-process: the thread exits and its job goes
  // back to the queue when its lease runs out (retried elsewhere).
  const quit = () => process.exit(current ? EXIT_STOPPED : EXIT.ok);
  process.once('SIGTERM', quit);
  process.once('SIGINT', quit);
  process.once('disconnect', quit);
  // Executions run headless, in Chromium unless a flow asks otherwise (the planner's default): a
  // thread has it ready before its first scenario, which then starts as soon as it is claimed.
  // This world.ts is the instance cucumber loads later too (same file URL under the same loader).
  prelaunchBrowser({ browser: 'chromium', headless: true });
  await preloadSupport().catch((error: unknown) => io.stderr.write(`could not preload the runner's support code: ${(error as Error).message}\n`));
  const heartbeat = setInterval(() => {
    if (!current) return;
    client
      .call(workerCalls.heartbeat, { body: { workerId, jobIds: [current] } })
      .then(({ stop }) => {
        if (current && stop.includes(current)) process.exit(EXIT_STOPPED);
      })
      .catch((error: unknown) => io.stderr.write(`heartbeat failed: ${(error as Error).message}\n`));
  }, HEARTBEAT_MS);
  try {
    for (;;) {
      let job: WorkerJob | null;
      try {
        ({ job } = await client.call(workerCalls.claim, { body: { workerId, waitMs: CLAIM_WAIT_MS } }));
      } catch (error) {
        io.stderr.write(`claim failed: ${(error as Error).message}\n`);
        await sleep(RETRY_AFTER_ERROR_MS);
        continue;
      }
      if (!job) continue;
      current = job.jobId;
      try {
        const { outcome, message } = await runJob(job, server, io, workspaces);
        // The browser may be why it did not pass (a hung or crashed page): the next scenario gets
        // a fresh one. Not awaited, so a browser that will not close cannot hold the thread.
        if (outcome !== 'passed') void closeSharedBrowser().catch(() => undefined);
        await client.call(workerCalls.finish, { body: { workerId, jobId: job.jobId, outcome, ...(message ? { message: message.slice(0, 2000) } : {}) } });
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

/** One scenario: the workspace at the run's commit, the run, the append; says how it went. */
async function runJob(job: WorkerJob, server: string, io: CliIo, workspaces: WorkspaceCache): Promise<{ outcome: 'passed' | 'failed' | 'error'; message?: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rehearse-worker-'));
  const output: string[] = [];
  const errors: string[] = [];
  const jobIo: CliIo = {
    ...io,
    cwd: dir,
    env: { ...io.env, REHEARSE_TOKEN: job.accessToken, NO_COLOR: '1' },
    stdout: { write: (text: string) => output.push(text) },
    stderr: { write: (text: string) => errors.push(text) },
  };
  const pull = async (target: string, commit?: string) => {
    const args = ['--server', server, '--project', job.projectId, '--branch', job.branch, ...(commit ? ['--commit', commit] : []), '--dir', target];
    if ((await runPull(args, jobIo)) !== EXIT.ok) throw new Error(errors.join('').trim() || 'Could not download the workspace.');
  };
  let workspace: string;
  try {
    // A run started before commits were pinned (commit null) takes the branch head, uncached.
    workspace = job.commit ? await workspaces.get(job.projectId, job.commit, (target) => pull(target, job.commit!)) : path.join(dir, 'workspace');
    if (!job.commit) await pull(workspace);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return { outcome: 'error', message: (error as Error).message };
  }
  try {
    const code = await runRun(
      [
        '--server', server,
        '--project', job.projectId,
        '--branch', job.branch,
        // The test data of the run's pinned commit, as the workspace itself.
        ...(job.commit ? ['--commit', job.commit] : []),
        '--env', job.envFile,
        '--headless',
        '--browser', job.browser,
        '--viewport', job.viewport,
        '--name', job.scenarioName,
        '--append-to', job.runId,
        '--upload-key', job.jobId,
        '--out', path.join(dir, 'report'),
        job.featurePath,
      ],
      { ...jobIo, cwd: workspace },
      { keepBrowser: true },
    );
    const uploaded = REPORT_LINK.test(output.join(''));
    if (uploaded && code === EXIT.ok) return { outcome: 'passed' };
    if (uploaded && code === EXIT.failed) return { outcome: 'failed' };
    return { outcome: 'error', message: lastLine(errors.join('')) || lastLine(output.join('')) || `The runner stopped with code ${code}.` };
  } catch (error) {
    return { outcome: 'error', message: (error as Error).message };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.trim() ?? '';
}
