import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseRunResult, WarmRunnerAnswer, type LiveStep, type RunResult, type WarmRunnerRequest } from '@rehearse/contract';
import type { EgressPolicy } from '@rehearse/egress';
import { createJobFolder, startJobProcess, type LiveJobProcess, type SandboxMode } from './sandbox.js';

/** What a runner's standard error keeps for an error message. */
const STDERR_TAIL = 4_000;

/** Which runner may serve a request: never another project's, branch's or commit's. */
export interface WarmTarget {
  projectId: string;
  branch: string;
  commit: string;
}

export interface WarmRunnerProcessSpec {
  mode: SandboxMode;
  /** The server the runner pulls from and reports to. */
  server: string;
  /** Absent for a spare: the first `prepare` names its target, for good. */
  target?: WarmTarget;
  egress: EgressPolicy;
  /** The runner's CLI (`rehearse`), started as `warm-runner`. */
  runnerBin: string;
  /** Kept out of the runner's view, even where they lie inside the runner's code. */
  hidden?: string[];
  /** Names the runner's job folder (a log reader's hint, never trusted). */
  folderName: string;
}

/** One scenario for a warm runner: the request without what the runner process fills in. */
export type WarmScenario = Omit<Extract<WarmRunnerRequest, { type: 'run' }>, 'type' | 'id' | 'projectId' | 'commit' | 'resultFile'>;

/**
 * One `rehearse warm-runner` process in the job sandbox (issue 21), as the server's "Run scenario"
 * and a worker thread's execution jobs both hold it: started through the sandbox door (its own job
 * folder, removed when it exits), asked one JSON line at a time, answered one line at a time. It
 * serves only its `target`, named when it starts or, for a spare, by its first `prepare`. Who may use it, for how long, and when it is retired is the holder's
 * rule; this class only speaks the protocol.
 */
export class WarmRunnerProcess {
  readonly id = randomUUID();
  private readonly waiting: ((answer: WarmRunnerAnswer | undefined) => void)[] = [];
  /** Who hears the steps of each running request, by request id. */
  private readonly stepListeners = new Map<string, (step: LiveStep) => void>();
  private stderr = '';

  private constructor(
    private bound: WarmTarget | undefined,
    private readonly process: LiveJobProcess,
    private readonly dir: string,
  ) {
    process.onLine((line) => {
      const parsed = WarmRunnerAnswer.safeParse(safeJson(line));
      if (!parsed.success) return;
      // News of the running request, not its answer.
      if (parsed.data.type === 'step') this.stepListeners.get(parsed.data.id)?.(parsed.data.step);
      else this.waiting.shift()?.(parsed.data);
    });
    process.onStderr((text) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL);
    });
    void process.exited.then(() => {
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  /** Starts the process (not yet prepared: see `prepare`). */
  static async start(spec: WarmRunnerProcessSpec): Promise<WarmRunnerProcess> {
    const dir = await createJobFolder(spec.folderName);
    let process: LiveJobProcess;
    try {
      process = await startJobProcess({
        mode: spec.mode,
        workDir: dir,
        cwd: dir,
        env: {},
        hidden: spec.hidden ?? [],
        egress: spec.egress,
        runnerBin: spec.runnerBin,
        nodeArgs: [
          spec.runnerBin,
          'warm-runner',
          '--server',
          spec.server,
          ...(spec.target ? ['--project', spec.target.projectId, '--branch', spec.target.branch] : []),
        ],
      });
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    void process.exited.then(() => rm(dir, { recursive: true, force: true }));
    return new WarmRunnerProcess(spec.target, process, dir);
  }

  /** What it serves; a spare's throws until its `prepare` named it. */
  get target(): WarmTarget {
    if (!this.bound) throw new Error('This warm runner is a spare: prepare it first.');
    return this.bound;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get hasExited(): boolean {
    return this.process.hasExited;
  }

  /** Resolves once the process exited and its job folder is being removed. */
  get exited(): Promise<unknown> {
    return this.process.exited;
  }

  /**
   * Pulls the target's commit with `token` (that request's key only), loads the support code and
   * launches the browser; rejects with the reason when it could not. A spare is given its target
   * here and keeps it, whether or not the preparing succeeds.
   */
  async prepare(token: string, target?: WarmTarget): Promise<void> {
    if (target && this.bound && !sameTarget(target, this.bound)) throw new Error('This warm runner serves another target.');
    this.bound ??= target;
    const { projectId, branch, commit } = this.target;
    const answer = await this.ask({ type: 'prepare', projectId, branch, commit, token });
    if (answer?.type === 'ready') return;
    throw new Error(answer?.type === 'unprepared' ? answer.reason : this.lastError() || 'The runner stopped before it was ready.');
  }

  /**
   * Runs one scenario (`onStep` hears each step start and end); its typed result, or undefined when the process ended before it could say
   * (killed at a deadline, out of memory, a crash: `lastError()` may say why).
   */
  async run(scenario: WarmScenario, onStep?: (step: LiveStep) => void): Promise<RunResult | undefined> {
    const id = randomUUID();
    const resultFile = path.join(this.dir, `result-${id}.json`);
    if (onStep) this.stepListeners.set(id, onStep);
    try {
      const answer = await this.ask({ type: 'run', id, ...this.target, ...scenario, resultFile });
      if (answer?.type === 'result') return answer.result;
      // The answer line may be lost with a dying process while the file was already written.
      return parseRunResult(await readFile(resultFile, 'utf8').catch(() => undefined));
    } finally {
      this.stepListeners.delete(id);
      await rm(resultFile, { force: true });
    }
  }

  /** The last line the runner printed on its standard error. */
  lastError(): string {
    return this.stderr.trim().split('\n').filter(Boolean).at(-1)?.trim() ?? '';
  }

  /** Closes its input: it finishes what it is doing and exits. */
  end(): void {
    this.process.end();
  }

  /** Kills its whole tree (process group and cgroup). */
  kill(): void {
    this.process.kill();
  }

  /** Sends a request and waits for its answer; undefined when the runner exited first. */
  private ask(request: WarmRunnerRequest): Promise<WarmRunnerAnswer | undefined> {
    if (this.process.hasExited) return Promise.resolve(undefined);
    const answer = new Promise<WarmRunnerAnswer | undefined>((resolve) => this.waiting.push(resolve));
    this.process.send(`${JSON.stringify(request)}\n`);
    return answer;
  }
}

/** Whether two targets are the same project, branch and commit. */
export function sameTarget(a: WarmTarget, b: WarmTarget): boolean {
  return a.projectId === b.projectId && a.branch === b.branch && a.commit === b.commit;
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
