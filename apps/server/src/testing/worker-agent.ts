import { spawn, type ChildProcess } from 'node:child_process';
import { killProcessGroup } from '@rehearse/processes';
import { RUNNER_BIN } from '../processes/programs.js';

/** A `rehearse worker` agent started by a test, with the last of what it wrote to standard error. */
export interface WorkerAgent {
  child: ChildProcess;
  /** Its standard error (claims and heartbeats that failed, jobs it could not run), for failure messages. */
  log: string[];
}

/**
 * Starts `rehearse worker --server <server> --threads <threads>` with a worker token, in its own
 * process group so that `killWorkerAgent` ends it and everything it started at once, like a lost
 * machine. `env` adds to the test's environment (a job deadline, say).
 */
export function startWorkerAgent(server: string, token: string, threads: number, env: Record<string, string> = {}): WorkerAgent {
  const child = spawn(process.execPath, [RUNNER_BIN, 'worker', '--server', server, '--threads', String(threads)], {
    env: { ...process.env, REHEARSE_WORKER_TOKEN: token, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const agent: WorkerAgent = { child, log: [] };
  child.stderr?.on('data', (chunk: Buffer) => agent.log.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  return agent;
}

/** SIGKILLs the agent's process group: the worker, its threads and (dying with their parent) their sandboxed jobs. */
export function killWorkerAgent(agent: WorkerAgent | undefined): void {
  if (agent?.child.exitCode === null && agent.child.signalCode === null) killProcessGroup(agent.child.pid);
}
