import { type LiveStep, type RunResult } from '@rehearse/contract';
import type { EgressPolicy } from '@rehearse/egress';
import { Deadline, sameTarget, WarmRunnerProcess, type SandboxMode, type WarmScenario, type WarmTarget } from '@rehearse/processes';

export type { WarmTarget } from '@rehearse/processes';

/** An idle warm runner exits after this long without a request (its browser and memory go with it). */
export const WARM_RUNNER_IDLE_MS = 5 * 60_000;
/** Warm runners this server keeps at most; beyond it the least recently used idle one goes. */
export const MAX_WARM_RUNNERS = 4;
/** Keys of a background warm-up are named this plus the project id's start ("Run scenario " keys die with a server's restart). */
export const WARM_UP_KEY_NAME = 'Run scenario warm-up ';
/** How long a runner started in the background (after a save) may take to fetch, load and launch. */
const BACKGROUND_PREPARE_MS = 120_000;

export interface WarmRunnerSettings {
  /** Kept out of every runner's view, even where it lies inside the runner's code. */
  dataDir: string;
  sandbox: () => Promise<SandboxMode>;
  serverUrl: () => string;
  egress: () => Promise<EgressPolicy>;
  /** The runner's CLI (`rehearse`), started as `warm-runner`. */
  runnerBin: string;
  idleMs?: number;
  maxRunners?: number;
}

/** One scenario for a warm runner, with the access token of its own job. */
export interface WarmRun {
  token: string;
  /** Whose job it is: a runner restarted in the background after a save pulls with a key of the last one. */
  userId: string;
  featurePath: string;
  scenarioName: string;
  envFile: string;
  heal: boolean;
}

/** How a request went: the runner's typed result, or why there is none. */
export type WarmOutcome =
  | { kind: 'result'; result: RunResult; runner: string }
  | { kind: 'stopped'; runner?: string }
  | { kind: 'no-result'; reason: string; runner?: string };

/** How a warm-up left the branch's runner: warm now, on its way, or none to be had (every place taken, or no runners here). */
export type WarmUpState = 'ready' | 'starting' | 'unavailable';

/** A short-lived key of a user for a background pull (the caller creates it and deletes it in `release`). */
export type WarmUpKey = (projectId: string, userId: string) => Promise<{ token: string; release: () => Promise<unknown> }>;

/** What the tests and /metrics may read about the runners held. */
export interface WarmRunnerInfo {
  id: string;
  projectId: string;
  branch: string;
  commit: string;
  pid: number | undefined;
  busy: boolean;
  runs: number;
}

/** A warm runner process with this server's bookkeeping: who used it last, whether it is busy or on its way out. */
class Runner {
  busy = false;
  retired = false;
  runs = 0;
  lastUsed = Date.now();
  lastUserId: string;
  idleTimer: NodeJS.Timeout | undefined;
  /** Settles once the runner has its workspace, support code and browser (or could not). */
  ready!: Promise<void>;
  /** `ready` has settled well: a click now costs a request and a browser context. */
  isReady = false;

  constructor(
    readonly process: WarmRunnerProcess,
    userId: string,
  ) {
    this.lastUserId = userId;
    void process.exited.then(() => {
      this.retired = true;
    });
  }

  get id(): string {
    return this.process.id;
  }

  get target(): WarmTarget {
    return this.process.target;
  }

  info(): WarmRunnerInfo {
    return { id: this.id, ...this.target, pid: this.process.pid, busy: this.busy, runs: this.runs };
  }
}

/**
 * Warm runners for "Run scenario" (issue 21): long-lived `rehearse warm-runner` processes in the
 * job sandbox (the same door, DATA_DIR hidden and egress rules as any job), one per project,
 * branch and commit, each with its workspace fetched, its support code loaded and its browser
 * launched, so a click costs a request and a browser context. A request goes only to a runner
 * of its own project, branch and commit; none idle means one is started for it (the cold path),
 * which stays warm for the next click. A runner serves one request at a time; one that crashes,
 * passes the job's deadline (the caller's `Deadline` signal) or ends a request with an
 * infrastructure error is killed and replaced on the next request. A new commit on a branch
 * retires its runners and, when one was warm, starts one for the new commit in the background.
 * Idle runners exit after `WARM_RUNNER_IDLE_MS`; `close()` ends them all.
 */
export class WarmRunners {
  private readonly runners = new Set<Runner>();
  /** Background starts (after a save) by target, until their runner is held. */
  private readonly starting = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly settings: WarmRunnerSettings,
    private readonly warmUpKey: WarmUpKey,
    private readonly log: { info(details: object, message: string): void; warn(details: object, message: string): void },
  ) {}

  /**
   * Runs one scenario on a warm runner of `target`, starting one (prepared with this request's
   * token) when none is free. `signal` is the job's deadline: when it fires the runner is killed.
   */
  async run(target: WarmTarget, run: WarmRun, signal: AbortSignal, onStep?: (step: LiveStep) => void): Promise<WarmOutcome> {
    if (this.closed || signal.aborted) return { kind: 'stopped' };
    this.retireOthers(target);
    let runner = this.take(target);
    const starting = this.starting.get(keyOf(target));
    if (!runner && starting) {
      await starting;
      runner = this.take(target);
    }
    if (!runner) {
      try {
        runner = await this.start(target, run.userId, run.token, signal, true);
      } catch (error) {
        return signal.aborted ? { kind: 'stopped' } : { kind: 'no-result', reason: (error as Error).message };
      }
    }
    runner.lastUserId = run.userId;
    const stop = () => runner.process.kill();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await runner.ready;
      if (signal.aborted) return { kind: 'stopped', runner: runner.id };
      const result = await runner.process.run(pick(run), onStep);
      runner.runs += 1;
      if (signal.aborted) return { kind: 'stopped', runner: runner.id };
      if (!result) return { kind: 'no-result', reason: runner.process.lastError(), runner: runner.id };
      // A runner whose run could not say how the scenario went may itself be what is broken.
      if (result.errorClass === 'infrastructure') this.retire(runner);
      return { kind: 'result', result, runner: runner.id };
    } catch (error) {
      // The runner could not be made ready: what stopped it is the job's error.
      return signal.aborted
        ? { kind: 'stopped', runner: runner.id }
        : { kind: 'no-result', reason: (error as Error).message, runner: runner.id };
    } finally {
      signal.removeEventListener('abort', stop);
      runner.busy = false;
      runner.lastUsed = Date.now();
      if (runner.retired || signal.aborted) this.retire(runner);
      else this.idleFrom(runner);
    }
  }

  /**
   * A branch got a new commit (a save): its runners of older commits are retired (a busy one
   * once its request ends) and, when one of them was warm, one for the new commit is started in
   * the background with a key of its last user, deleted once the pull is done.
   */
  committed(projectId: string, branch: string, commit: string): void {
    if (this.closed) return;
    const old = [...this.runners].filter(
      (r) => r.target.projectId === projectId && r.target.branch === branch && r.target.commit !== commit,
    );
    if (old.length === 0) return;
    const warm = old.some((r) => !r.retired);
    const userId = old.sort((a, b) => b.lastUsed - a.lastUsed)[0]!.lastUserId;
    for (const runner of old) this.retire(runner);
    const target = { projectId, branch, commit };
    if (!warm || this.starting.has(keyOf(target)) || [...this.runners].some((r) => sameTarget(r.target, target))) return;
    this.startInBackground(target, userId);
  }

  /**
   * Someone is about to click "Run scenario" (its page opened): a runner for the branch's head is
   * started in the background, so the first click finds it warm. Answers how that runner stands.
   * A warm-up never takes a place another runner holds: with every place taken it answers
   * `unavailable` and the click starts a runner as before.
   */
  warmUp(target: WarmTarget, userId: string): WarmUpState {
    if (this.closed) return 'unavailable';
    const held = [...this.runners].find((r) => !r.retired && sameTarget(r.target, target));
    if (held) return held.isReady ? 'ready' : 'starting';
    if (this.starting.has(keyOf(target))) return 'starting';
    const live = [...this.runners].filter((r) => !r.retired).length;
    if (live >= (this.settings.maxRunners ?? MAX_WARM_RUNNERS)) return 'unavailable';
    this.retireOthers(target);
    this.startInBackground(target, userId);
    return 'starting';
  }

  /**
   * Starts a runner for `target` with a key of `userId` (deleted once its pull is done), not busy:
   * a click meanwhile takes it and waits for it to be ready; a click before it exists waits for it.
   */
  private startInBackground(target: WarmTarget, userId: string): void {
    const deadline = new Deadline(BACKGROUND_PREPARE_MS);
    let release: (() => Promise<unknown>) | undefined;
    const started = (async () => {
      const key = await this.warmUpKey(target.projectId, userId);
      release = key.release;
      return this.start(target, userId, key.token, deadline.signal, false);
    })();
    this.starting.set(
      keyOf(target),
      started.then(
        () => undefined,
        () => undefined,
      ),
    );
    void started
      .finally(() => this.starting.delete(keyOf(target)))
      .then(async (runner) => {
        await runner.ready;
        if (!runner.busy) this.idleFrom(runner);
      })
      .catch((error: unknown) =>
        this.log.warn({ err: error, projectId: target.projectId, branch: target.branch }, 'a warm runner did not start in the background'),
      )
      .finally(async () => {
        deadline.dispose();
        await release?.();
      });
  }

  /** The runners in service now (a retired one still exiting is not). */
  list(): WarmRunnerInfo[] {
    return [...this.runners].filter((runner) => !runner.retired).map((runner) => runner.info());
  }

  /** Ends every runner (the server is shutting down) and waits until they are gone. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.runners];
    for (const runner of all) this.retire(runner, true);
    await Promise.all(all.map((runner) => runner.process.exited));
  }

  /** A free runner of exactly this target, made busy; a runner still preparing counts (the request waits for it). */
  private take(target: WarmTarget): Runner | undefined {
    const runner = [...this.runners].find((r) => !r.busy && !r.retired && sameTarget(r.target, target));
    if (!runner) return undefined;
    clearTimeout(runner.idleTimer);
    runner.busy = true;
    return runner;
  }

  /** Runners of the same project and branch at another commit are out of date: a save happened since. */
  private retireOthers(target: WarmTarget): void {
    for (const runner of this.runners) {
      if (runner.target.projectId === target.projectId && runner.target.branch === target.branch && runner.target.commit !== target.commit)
        this.retire(runner);
    }
  }

  /** Starts a runner in the sandbox and sends it `prepare` with `token`; `ready` settles when it answers. */
  private async start(target: WarmTarget, userId: string, token: string, signal: AbortSignal, busy: boolean): Promise<Runner> {
    this.makeRoom();
    const process = await WarmRunnerProcess.start({
      mode: await this.settings.sandbox(),
      server: this.settings.serverUrl(),
      target,
      egress: await this.settings.egress(),
      runnerBin: this.settings.runnerBin,
      hidden: [this.settings.dataDir],
      folderName: `warm-${target.projectId.slice(0, 8)}`,
    });
    const runner = new Runner(process, userId);
    runner.busy = busy;
    this.runners.add(runner);
    void process.exited.then(() => {
      this.runners.delete(runner);
      clearTimeout(runner.idleTimer);
    });
    const stop = () => process.kill();
    signal.addEventListener('abort', stop, { once: true });
    runner.ready = process.prepare(token).then(
      () => {
        signal.removeEventListener('abort', stop);
        runner.isReady = true;
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        this.retire(runner);
        throw error;
      },
    );
    // A failure is the waiting request's to report; a background start logs its own.
    runner.ready.catch(() => undefined);
    this.log.info({ runner: runner.id, pid: process.pid, ...target }, 'started a warm runner');
    return runner;
  }

  /** Keeps at most `maxRunners`: the least recently used idle runner goes first. */
  private makeRoom(): void {
    const max = this.settings.maxRunners ?? MAX_WARM_RUNNERS;
    const idle = [...this.runners].filter((r) => !r.busy && !r.retired).sort((a, b) => a.lastUsed - b.lastUsed);
    const live = [...this.runners].filter((r) => !r.retired).length;
    for (let i = 0; i < live - max + 1 && i < idle.length; i += 1) this.retire(idle[i]!);
  }

  private idleFrom(runner: Runner): void {
    clearTimeout(runner.idleTimer);
    runner.idleTimer = setTimeout(() => this.retire(runner), this.settings.idleMs ?? WARM_RUNNER_IDLE_MS);
    runner.idleTimer.unref();
  }

  /**
   * Takes a runner out of service: an idle one is ended now (its input closed, then killed if it
   * lingers), a busy one when its request ends; `now` kills even a busy one.
   */
  private retire(runner: Runner, now = false): void {
    runner.retired = true;
    clearTimeout(runner.idleTimer);
    if (runner.busy && !now) return;
    runner.process.end();
    if (now) runner.process.kill();
    else setTimeout(() => runner.process.kill(), 5_000).unref();
  }
}

function keyOf(target: WarmTarget): string {
  return `${target.projectId}\n${target.branch}\n${target.commit}`;
}

function pick(run: WarmRun): WarmScenario {
  return { token: run.token, featurePath: run.featurePath, scenarioName: run.scenarioName, envFile: run.envFile, heal: run.heal };
}
