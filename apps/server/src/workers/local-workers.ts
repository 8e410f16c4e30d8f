import { spawn, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { EngineLogger } from '../executions/execution-engine.js';
import type { WorkerTokens } from './worker-tokens.js';

const RUNNER_BIN = fileURLToPath(new URL('../../../../packages/runner/bin/rehearse.mjs', import.meta.url));
const RESTART_DELAY_MS = 2_000;
const STOP_GRACE_MS = 5_000;

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
    private readonly settings: { processes: number; threads: number; serverUrl: () => string },
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
    const child = spawn(process.execPath, [RUNNER_BIN, 'worker', '--server', this.settings.serverUrl(), '--threads', String(this.settings.threads)], {
      env: { ...process.env, REHEARSE_WORKER_TOKEN: token, NO_COLOR: '1' },
      // The IPC channel closes if this server dies without stopping it: the worker then stops too.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
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
    await Promise.all(
      [...this.children].map(
        (child) =>
          new Promise<void>((resolve) => {
            const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    if (this.tokenId) await this.tokens.delete(this.tokenId).catch(() => undefined);
  }
}
