import type { ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import type { EngineLogger } from '../executions/execution-engine.js';
import type { WorkerTokens } from './worker-tokens.js';
import { ALLOW_PRIVATE_TARGETS_ENV } from '@rehearse/egress';
import { JOB_LIMITS_VARIABLE, startNodeProgram, stopChild, UNSANDBOXED_VARIABLE } from '@rehearse/processes';
import { RUNNER_BIN } from '../processes/programs.js';

const RESTART_DELAY_MS = 2_000;
const STOP_GRACE_MS = 5_000;

/** Host settings a worker passes on to its jobs' browsers. */
const BROWSER_VARIABLES = [
  'CHROMIUM_PATH',
  'CHROMIUM_HEADLESS_SHELL_PATH',
  'REHEARSE_HEADLESS_SHELL',
  'PLAYWRIGHT_BROWSERS_PATH',
  'FIREFOX_PATH',
  'WEBKIT_PATH',
  'TZ',
  'LANG',
];

function workerEnvironment(token: string, unsandboxed: boolean, allowPrivate: boolean, jobTimeoutMs: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    REHEARSE_WORKER_TOKEN: token,
    // The job deadline of this server's settings (RUN_TIMEOUT_MINUTES), in the worker's own words.
    REHEARSE_JOB_TIMEOUT_SECONDS: String(jobTimeoutMs / 1000),
    NO_COLOR: '1',
  };
  for (const name of BROWSER_VARIABLES) if (process.env[name]) env[name] = process.env[name];
  if (unsandboxed) env[UNSANDBOXED_VARIABLE] = '1';
  // Inside a container the worker boxes jobs under the container's limits, as the server's probe did.
  if (process.env[JOB_LIMITS_VARIABLE]) env[JOB_LIMITS_VARIABLE] = process.env[JOB_LIMITS_VARIABLE];
  env[ALLOW_PRIVATE_TARGETS_ENV] = allowPrivate ? '1' : '0';
  return env;
}

/**
 * Single-machine installs: the server starts `rehearse worker` child processes that speak the
 * same protocol to this server over localhost as remote workers do, so the API process itself
 * never launches a browser. A worker that dies is started again.
 */
export class LocalWorkers {
  private readonly children = new Set<ChildProcess>();
  private tokenId: string | undefined;
  private stopping = false;

  constructor(
    private readonly tokens: WorkerTokens,
    private readonly settings: {
      processes: number;
      threads: number;
      /** Each job's deadline (the worker's --job-timeout). */
      jobTimeoutMs: number;
      serverUrl: () => string;
      unsandboxed: boolean;
      allowPrivateTargets: boolean;
      /** Every job in a fresh process instead of the thread's warm runner (the worker's --process-per-scenario). */
      processPerScenario: boolean;
    },
    private readonly log: EngineLogger,
  ) {}

  async start(): Promise<void> {
    if (this.settings.processes <= 0) return;
    const { id, token } = await this.tokens.create(`local workers of ${hostname()} pid ${process.pid}`);
    this.tokenId = id;
    for (let i = 0; i < this.settings.processes; i++) this.spawnOne(token);
  }

  private spawnOne(token: string): void {
    if (this.stopping) return;
    const child = startNodeProgram(
      RUNNER_BIN,
      [
        'worker',
        '--server',
        this.settings.serverUrl(),
        '--threads',
        String(this.settings.threads),
        ...(this.settings.processPerScenario ? ['--process-per-scenario'] : []),
      ],
      {
        // Not the server's environment (database URL, SMTP, AI keys): only what a worker needs.
        env: workerEnvironment(token, this.settings.unsandboxed, this.settings.allowPrivateTargets, this.settings.jobTimeoutMs),
        // The IPC channel closes if this server dies without stopping it: the worker then stops too.
        stdout: 'ignore',
        stderr: 'pipe',
      },
    );
    this.children.add(child);
    let lastError = '';
    child.stderr?.on('data', (chunk: Buffer) => (lastError = chunk.toString('utf8').slice(-500)));
    child.on('exit', (code, signal) => {
      this.children.delete(child);
      if (this.stopping) return;
      this.log.warn({ code, signal, lastError }, 'local worker exited; starting another');
      setTimeout(() => this.spawnOne(token), RESTART_DELAY_MS).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.children].map((child) => stopChild(child, { ask: () => child.kill('SIGTERM'), graceMs: STOP_GRACE_MS })));
    if (this.tokenId) await this.tokens.delete(this.tokenId).catch(() => undefined);
  }
}
