import { fork, spawn, type ChildProcess, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';

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
      killProcessGroup(child.pid);
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

/** A long-lived child started by `startChild`: write to it, hear it, stop it. */
export interface LiveChild {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when it has exited (its output streams closed). */
  done: Promise<ChildResult>;
  /** Kills its whole process group, once; `onKill` runs after. */
  kill: () => void;
}

/**
 * Starts a long-lived command in its own process group with its standard input open (a warm
 * runner taking requests): `onStdout` and `onStderr` hear its output as it comes (nothing is
 * kept). There is no deadline of its own: whoever sends it work stops it with `kill` when the
 * work's deadline passes, which kills the whole tree.
 */
export function startChild(
  command: string,
  args: string[],
  options: Omit<ChildOptions, 'timeoutMs' | 'signal'> & { onStdout: (text: string) => void; onStderr: (text: string) => void },
): LiveChild {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    killProcessGroup(child.pid);
    options.onKill?.();
  };
  child.stdout.on('data', (chunk: Buffer) => options.onStdout(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => options.onStderr(chunk.toString('utf8')));
  // Writing to a child that died must not throw in the writer (the exit is how its death is heard).
  child.stdin.on('error', () => undefined);
  let spawnError = '';
  child.on('error', (error) => {
    spawnError = error.message;
  });
  const done = new Promise<ChildResult>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout: '', stderr: spawnError, timedOut: false }));
  });
  return { child, done, kill };
}

/** Where a Node program's output goes: to this process's own, nowhere, or a pipe the caller reads. */
type ProgramOutput = 'inherit' | 'ignore' | 'pipe';

export interface NodeProgramOptions {
  env: NodeJS.ProcessEnv;
  stdout: ProgramOutput;
  stderr: ProgramOutput;
  /** Leads its own process group, so `stopChild(…, { group: true })` kills it and all it started. */
  detached?: boolean;
  /** 'advanced' carries bytes over the IPC channel as they are (the recorder's frames). */
  serialization?: 'json' | 'advanced';
  /** Runs with this process's Node flags (a tsx loader among them), as `fork` does; otherwise a plain `node`. */
  keepNodeFlags?: boolean;
}

/**
 * Starts a Node program (`node <script> <args>`) with an IPC channel to this process and no input.
 * The channel closes when this process dies, however it dies, so a program that stops on
 * 'disconnect' never outlives its parent. Stop it with `stopChild`.
 */
export function startNodeProgram(script: string, args: string[], options: NodeProgramOptions): ChildProcess {
  const stdio: StdioOptions = ['ignore', options.stdout, options.stderr, 'ipc'];
  const spawnOptions = {
    env: options.env,
    stdio,
    ...(options.detached ? { detached: true } : {}),
    ...(options.serialization ? { serialization: options.serialization } : {}),
  };
  return options.keepNodeFlags ? fork(script, args, spawnOptions) : spawn(process.execPath, [script, ...args], spawnOptions);
}

/** SIGKILLs a process, or with `group` the whole process group it leads (a detached child and all it started). Gone already is fine. */
export function killProcess(pid: number | undefined, { group = false }: { group?: boolean } = {}): void {
  if (!pid) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Kills the process group a detached child leads: it and every process it started. */
export function killProcessGroup(pid: number | undefined): void {
  killProcess(pid, { group: true });
}

export interface StopOptions {
  /** How to ask the child to stop: a signal, an IPC message, closing its input. */
  ask: () => void;
  /** How long it may take before it is killed; `Infinity` waits as long as it takes. */
  graceMs: number;
  /** Kill its whole process group (a detached child), not only the child. */
  group?: boolean;
}

/**
 * Stops a child the polite way first (`ask`), and kills it (or its whole group) if it has not
 * exited within the grace period. Resolves once it has exited; at once if it already had.
 */
export async function stopChild(child: ChildProcess, { ask, graceMs, group = false }: StopOptions): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  ask();
  const force = Number.isFinite(graceMs) ? setTimeout(() => killProcess(child.pid, { group }), graceMs) : undefined;
  await exited;
  clearTimeout(force);
}
