import { spawn } from 'node:child_process';

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called once the deadline or the signal fired, after the process group was killed. */
  onKill?: (() => void) | undefined;
}

const OUTPUT_LIMIT = 1_000_000;

/**
 * Runs a command in its own process group under a deadline and an abort signal; either one kills
 * the whole tree (a runner and the browsers it started), never just the parent.
 */
export function runChild(command: string, args: string[], options: ChildOptions): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const keep = (text: string, chunk: Buffer) => (text.length < OUTPUT_LIMIT ? text + chunk.toString('utf8') : text);
    child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    const killTree = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      options.onKill?.();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs);
    const onAbort = () => killTree();
    if (options.signal?.aborted) killTree();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      stderr += error.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
