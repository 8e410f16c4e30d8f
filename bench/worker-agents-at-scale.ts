/**
 * Worker agents at scale (issue 42 item 6, for the deployment sizing docs): BENCH_AGENTS (200)
 * simulated worker agents long-poll one API replica on PostgreSQL while one execution of
 * BENCH_JOBS (10,000) scenarios drains; then the same split over two replicas, and a sweep of agent
 * counts at one replica so the knee is visible. Per configuration (agents × replicas):
 * - claims/s: jobs over the time from the first job in an agent's hand to the last finish answered
 *   (median of BENCH_RUNS runs);
 * - job p50/p99: how long an agent waits for its next job, i.e. the call that brought it (a claim,
 *   or, as `rehearse worker` does, the finish that handed the next job over); claim p99 and
 *   finish p99 are those calls alone (empty long-polls are counted apart, never timed into these);
 * - DB connections: the most the API replicas held (pg_stat_activity by application_name, which
 *   the bench sets through PGAPPNAME) and the most on the whole database, sampled every second;
 * - API CPU (utime+stime of the replica processes, /proc) per 1,000 claims and as % of one core;
 *   PostgreSQL's CPU (the postmaster and its backends) and the whole machine's, because on a small
 *   machine "where it saturates" is often the machine; the bench's own CPU and event-loop delay,
 *   since all agents share this one process and a saturated bench would look like a slow API;
 * - idle API CPU: after the drain, while the agents wait in their last long-poll.
 *
 * The jobs are queued the way a user queues them: feature files of 100 scenarios each are pushed
 * and one execution is run, so the engine writes one job per scenario. Its scenarios are tagged
 * into 10 lanes (flows, which run side by side) with as many threads in all as there are agents, so
 * the plan never holds an agent back. The bench's in-process server makes the schema, the user,
 * the files, the execution and the worker tokens, then closes (so it neither hears the replicas'
 * broadcasts nor does upkeep); runs are started on the first replica as a user starts them, which
 * costs that replica the start's work, mostly before the first claim where CPU is not counted.
 * Agents run no browser: each finishes a job "passed" as soon as it has it (with BENCH_UPLOAD=1 it
 * first appends a minimal test case to the run report with the job's key, as the real runner
 * does), then long-polls again. Every job must be claimed exactly once and the execution must end
 * with every scenario passed, or the bench stops with what went wrong.
 *
 * Settings: BENCH_AGENTS (200), BENCH_JOBS (10000), BENCH_REPLICAS ("1,2"), BENCH_RUNS (3),
 * BENCH_SWEEP ("25,50,100,200", "" skips it; one run each), BENCH_CLAIM_WAIT_MS (20000, the real
 * agent's long-poll), BENCH_HANDOVER (1: finish asks for the next job, as `rehearse worker`;
 * 0: finish, then claim), BENCH_UPLOAD (0), BENCH_LOG_LEVEL (info, the server's default, so its
 * request logging is in its CPU), BENCH_ANALYZE (0 leaves statistics to the database, as in
 * production; 1 ANALYZEs the job tables around each run's start, see analyzeJobTables). Each run ends with up to
 * BENCH_CLAIM_WAIT_MS of idle long-polls.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/worker-agents-at-scale.ts
 *   (small: BENCH_AGENTS=20 BENCH_JOBS=400 BENCH_RUNS=1 BENCH_SWEEP=10,20 in front)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createApiClient, type ApiClient } from '@rehearse/api-client';
import {
  executionCalls,
  runnerCalls,
  workerCalls,
  workspaceCalls,
  type ExecutionInput,
  type RunReport,
  type WorkerJob,
} from '@rehearse/contract';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../apps/server/src/testing/server-process.js';
import { signUp, startTestApp, type TestApp } from '../apps/server/src/testing/test-app.js';
import { bossSchemaOf } from '../apps/server/src/jobs/job-queue.js';
import { percentile } from './stats.js';

if (!process.env.DATABASE_URL) {
  // Part of `npm run bench`, which runs on PGlite too: skipped there, said so.
  console.log(
    'Worker agents at scale: skipped, this bench measures API replicas on PostgreSQL: set DATABASE_URL (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).',
  );
  process.exit(0);
}

const numbers = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);

const AGENTS = Number(process.env.BENCH_AGENTS ?? 200);
const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const REPLICAS = numbers(process.env.BENCH_REPLICAS ?? '1,2');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SWEEP = numbers(process.env.BENCH_SWEEP ?? '25,50,100,200');
const CLAIM_WAIT_MS = Number(process.env.BENCH_CLAIM_WAIT_MS ?? 20_000);
const HANDOVER = process.env.BENCH_HANDOVER !== '0';
const UPLOAD = process.env.BENCH_UPLOAD === '1';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const ANALYZE = process.env.BENCH_ANALYZE === '1';

/** Scenarios per pushed feature file: 100 files hold 10,000. */
const SCENARIOS_PER_FILE = 100;
/** Flows run side by side (a flow's groups run in order); the contract allows 10 flows of at most 64 threads. */
const MAX_LANES = 10;
const MAX_THREADS_PER_LANE = 64;
/** What `rehearse worker` waits after a failed call before it tries again. */
const RETRY_AFTER_ERROR_MS = 2_000;
/**
 * A run in which no job finished for this long is stuck, not slow: a finish that never arrived
 * makes its job wait out the lease (30 s) and the retry's backoff, well within it.
 */
const STALLED_AFTER_MS = 120_000;
/** Linux reports process CPU in clock ticks of 1/100 s (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;
/** Lines of a replica's log kept for an error message; the rest is dropped (a request logs two lines at info). */
const KEPT_LOG_LINES = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(ascending(values), 50);

for (const [name, value] of Object.entries({
  BENCH_AGENTS: AGENTS,
  BENCH_JOBS: JOBS,
  BENCH_RUNS: RUNS,
  BENCH_CLAIM_WAIT_MS: CLAIM_WAIT_MS,
})) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0 (got ${value})`);
}
if (CLAIM_WAIT_MS > 30_000) throw new Error('BENCH_CLAIM_WAIT_MS must be at most 30000 (the claim call refuses longer waits)');
for (const agents of [AGENTS, ...SWEEP]) {
  if (!Number.isInteger(agents) || agents < 1 || agents > MAX_LANES * MAX_THREADS_PER_LANE)
    throw new Error(`agent counts must be whole numbers from 1 to ${MAX_LANES * MAX_THREADS_PER_LANE} (got ${agents})`);
}
if (REPLICAS.some((count) => !Number.isInteger(count) || count < 1)) throw new Error('BENCH_REPLICAS must list whole numbers above 0');

/** utime+stime (and, with `reaped`, the CPU of children it waited for) of a process, in ticks; 0 once it is gone. */
function processTicks(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL's CPU in ticks: the postmaster with the backends it reaped, plus its live children.
 * A backend that exits mid-run moves from the second sum to the first, so differences stay true.
 */
function postgresTicks(postmaster: number): number {
  let ticks = processTicks(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && parentOf(Number(entry)) === postmaster) ticks += processTicks(Number(entry), true);
  }
  return ticks;
}

/** Busy and total ticks of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Where every CPU counter stood at one moment, read synchronously so the moment is exact. */
interface CpuSnapshot {
  at: number;
  apiTicks: number;
  postgresTicks: number | undefined;
  machine: { busy: number; total: number };
  bench: NodeJS.CpuUsage;
}

function cpuSnapshot(replicas: ServerProcess[], postmaster: number | undefined): CpuSnapshot {
  return {
    at: performance.now(),
    apiTicks: replicas.reduce((sum, replica) => sum + processTicks(replica.child.pid!), 0),
    postgresTicks: postmaster === undefined ? undefined : postgresTicks(postmaster),
    machine: machineTicks(),
    bench: process.cpuUsage(),
  };
}

/** Percent of one core that `ticks` are over `ms` of wall time. */
const coreShare = (ticks: number, ms: number) => (100 * ticks) / TICKS_PER_SECOND / (ms / 1000);

/** One simulated agent thread: its id and a client that carries its worker token to its replica. */
interface SimulatedAgent {
  workerId: string;
  api: ApiClient;
}

/** What the agents of one run saw, shared by all of them (one process, one event loop). */
class Drain {
  readonly claimed = new Set<string>();
  duplicates = 0;
  finished = 0;
  handedOver = 0;
  emptyPolls = 0;
  errors = 0;
  /** The first few error messages (a broken replica would otherwise fill memory with the same one). */
  readonly errorMessages: string[] = [];
  /** The call that brought each job: a claim, or a finish that handed the next one over. */
  readonly jobMs: number[] = [];
  /** Claim calls that answered a job. */
  readonly claimMs: number[] = [];
  readonly finishMs: number[] = [];
  /** Set once every job is finished, or the run gave up: agents leave after their current call. */
  stopping = false;
  start: CpuSnapshot | undefined;
  end: CpuSnapshot | undefined;
  private readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    private readonly jobs: number,
    private readonly snapshot: () => CpuSnapshot,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  got(job: WorkerJob, ms: number, via: 'claim' | 'hand-over'): void {
    this.start ??= this.snapshot();
    if (this.claimed.has(job.jobId)) this.duplicates += 1;
    this.claimed.add(job.jobId);
    this.jobMs.push(ms);
    if (via === 'claim') this.claimMs.push(ms);
    else this.handedOver += 1;
  }

  finishedOne(ms: number): void {
    this.finishMs.push(ms);
    this.finished += 1;
    if (this.finished === this.jobs) {
      this.end = this.snapshot();
      this.stopping = true;
      this.resolveDone();
    }
  }

  failed(what: string, error: unknown): void {
    this.errors += 1;
    if (this.errorMessages.length < 20) this.errorMessages.push(`${what}: ${(error as Error).message}`);
  }

  /** Resolves when every job is finished; throws once no job finished for `stalledAfterMs`. */
  async drained(stalledAfterMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let seen = { finished: -1, at: performance.now() };
    const stalled = new Promise<never>((_, reject) => {
      timer = setInterval(() => {
        if (this.finished !== seen.finished) seen = { finished: this.finished, at: performance.now() };
        else if (performance.now() - seen.at > stalledAfterMs)
          reject(new Error(`no job finished for ${stalledAfterMs / 1000} s: ${this.finished}/${this.jobs} finished`));
      }, 1000);
    });
    try {
      await Promise.race([this.done, stalled]);
    } finally {
      clearInterval(timer);
    }
  }
}

/** Builds the smallest run report the upload call takes: the job's scenario, passed, with no steps. */
function minimalReport(job: WorkerJob): RunReport {
  const now = new Date().toISOString();
  const env = { name: 'default', baseUrl: '' };
  return {
    env,
    startTime: now,
    endTime: now,
    mode: 'cloud',
    browser: job.browser,
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: job.jobId,
        scenarioName: job.scenarioName,
        featureName: job.featurePath,
        uri: job.featurePath,
        tags: [],
        result: { status: 'PASSED', startTime: now, endTime: now },
        parameters: {},
        steps: [],
        env,
        webLog: [],
        networkLog: [],
      },
    ],
  };
}

/**
 * One agent thread as `rehearse worker` runs it, minus the browser: claim (long-poll), finish
 * passed at once (asking for the next job when BENCH_HANDOVER is on), again, until the drain stops.
 */
async function runAgent(agent: SimulatedAgent, drain: Drain, baseUrl: string): Promise<void> {
  let next: WorkerJob | null = null;
  while (!drain.stopping) {
    if (!next) {
      const sent = performance.now();
      try {
        ({ job: next } = await agent.api.call(workerCalls.claim, { body: { workerId: agent.workerId, waitMs: CLAIM_WAIT_MS } }));
      } catch (error) {
        drain.failed('claim', error);
        await sleep(RETRY_AFTER_ERROR_MS);
        continue;
      }
      if (!next) {
        drain.emptyPolls += 1;
        continue;
      }
      drain.got(next, performance.now() - sent, 'claim');
    }
    const job: WorkerJob = next;
    next = null;
    try {
      if (UPLOAD) {
        const runner = createApiClient({ baseUrl, getToken: () => job.accessToken });
        await runner.call(runnerCalls.uploadRun, {
          body: { projectId: job.projectId, uploadKey: job.jobId, appendTo: job.runId, report: minimalReport(job) },
        });
      }
      const sent = performance.now();
      const answer: { job?: WorkerJob | null } = await agent.api.call(workerCalls.finish, {
        body: { workerId: agent.workerId, jobId: job.jobId, outcome: 'passed', ...(HANDOVER ? { next: true } : {}) },
      });
      const ms = performance.now() - sent;
      if (answer.job) {
        next = answer.job;
        drain.got(next, ms, 'hand-over');
      }
      drain.finishedOne(ms);
    } catch (error) {
      drain.failed('finish', error);
      await sleep(RETRY_AFTER_ERROR_MS);
    }
  }
}

/** What one drain of the execution measured. */
interface RunResult {
  claimsPerSecond: number;
  drain: Drain;
  windowMs: number;
  apiTicks: number;
  postgresTicks: number | undefined;
  machineBusyPercent: number;
  benchCpuMs: number;
  loopDelayP99Ms: number;
  maxApiConnections: number;
  maxAllConnections: number;
  idleApiPercent: number;
  /** The run call: the engine writes a job per scenario and releases the first ones. */
  startMs: number;
}

/**
 * What every run reuses: the schema's database (the in-process server that made it is closed once
 * it has, so it neither listens for the replicas' broadcasts nor does upkeep of its own), the
 * project's owner, a worker token per agent and the one execution, whose threads follow the agents.
 */
interface Setup {
  test: TestApp;
  owner: { token: string; projectId: string };
  tokens: string[];
  measured: Target;
  /** A few jobs per agent, drained unmeasured whenever a replica was started (its first requests compile and warm up). */
  warmUp: Target;
  lanes: number;
  postmaster: number | undefined;
  appNamePrefix: string;
}

/** An execution the agents drain: its jobs, the tag of its lanes, and the agent count its threads are set for. */
interface Target {
  id: string;
  jobs: number;
  tag: string;
  agents: number;
}

/** Feature files of SCENARIOS_PER_FILE scenarios, each tagged with its lane, the first `warmUpJobs` with a warm-up lane too. */
async function pushScenarios(owner: Awaited<ReturnType<typeof signUp>>, lanes: number, warmUpJobs: number): Promise<void> {
  for (let file = 0; file * SCENARIOS_PER_FILE < JOBS; file += 1) {
    const scenarios: string[] = [];
    for (let index = file * SCENARIOS_PER_FILE; index < Math.min(JOBS, (file + 1) * SCENARIOS_PER_FILE); index += 1) {
      const tags = `@lane${index % lanes}${index < warmUpJobs ? ` @warmup${index % lanes}` : ''}`;
      scenarios.push(`\n  ${tags}\n  Scenario: Scenario ${index}\n    Given I open "/"\n`);
    }
    await owner.api.call(workspaceCalls.pushFile, {
      body: {
        projectId: owner.projectId,
        directory: 'features',
        file: { name: `bench-${file}.feature`, content: `Feature: Bench ${file}\n${scenarios.join('')}` },
      },
    });
  }
}

/** The plan of an execution `agents` drain: one flow per lane, threads enough for every agent. */
function planFor(projectId: string, target: Pick<Target, 'jobs' | 'tag'>, agents: number, lanes: number): ExecutionInput {
  return {
    projectId,
    name: `${target.jobs} scenarios for worker agents (@${target.tag})`,
    env: 'default',
    flows: Array.from({ length: lanes }, (_, lane) => ({
      scenarioGroups: [{ name: `Lane ${lane}`, threadCount: Math.ceil(agents / lanes), tags: [`@${target.tag}${lane}`] }],
    })),
  };
}

/** The owner's client on a replica (the in-process server is closed by then). */
const ownerApi = (setup: Setup, replica: ServerProcess) =>
  createApiClient({ baseUrl: replica.addresses[0]!, getToken: () => setup.owner.token });

async function connectionCounts(setup: Setup): Promise<{ api: number; all: number }> {
  const [row] = await setup.test.database.rows<{ api: number; all: number }>(
    `select count(*) filter (where application_name like '${setup.appNamePrefix}%')::int as api, count(*)::int as "all"
     from pg_stat_activity where datname = current_database()`,
  );
  return row ?? { api: 0, all: 0 };
}

/**
 * Fresh planner statistics for the tables a claim and a finish read, as autovacuum gives a
 * production database soon after a run's insert. The test database runs without autovacuum, and
 * without statistics (or with ones that predate the run, which cannot know its id) the release
 * query (`ExecutionJobsRepo.releaseNext`) may be planned as nested loops that re-aggregate the run's
 * jobs per row: seconds per finish at 400 jobs, all of them queued behind the run's advisory lock.
 */
async function analyzeJobTables(setup: Setup): Promise<void> {
  await setup.test.database.execute(`ANALYZE execution_jobs, execution_runs, "${bossSchemaOf(setup.test.schemaName!)}".job`);
}

/** Drains `target` with `agents` agents split over `replicas`, and checks it ended right. */
async function drainOnce(setup: Setup, target: Target, agents: number, replicas: ServerProcess[]): Promise<RunResult> {
  const owner = ownerApi(setup, replicas[0]!);
  const executionId = target.id;
  const jobs = target.jobs;
  if (target.agents !== agents) {
    await owner.call(executionCalls.update, {
      params: { id: executionId },
      query: {},
      body: planFor(setup.owner.projectId, target, agents, setup.lanes),
    });
    target.agents = agents;
  }
  const drain = new Drain(jobs, () => cpuSnapshot(replicas, setup.postmaster));
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let maxApiConnections = 0;
  let maxAllConnections = 0;
  let sampling = false;
  const sampler = setInterval(() => {
    for (const replica of replicas) if (replica.log.length > KEPT_LOG_LINES) replica.log.splice(0, replica.log.length - KEPT_LOG_LINES);
    if (sampling) return;
    sampling = true;
    connectionCounts(setup)
      .then((counts) => {
        maxApiConnections = Math.max(maxApiConnections, counts.api);
        maxAllConnections = Math.max(maxAllConnections, counts.all);
      })
      .catch((error: unknown) => drain.failed('pg_stat_activity', error))
      .finally(() => (sampling = false));
  }, 1000);

  const agentLoops = Array.from({ length: agents }, (_, index) => {
    const replica = replicas[index % replicas.length]!;
    const baseUrl = replica.addresses[0]!;
    const token = setup.tokens[index]!;
    const agent = { workerId: `bench-agent-${index}:1/1:bench`, api: createApiClient({ baseUrl, getToken: () => token }) };
    return runAgent(agent, drain, baseUrl);
  });
  let runId: string;
  let startMs: number;
  try {
    // The fleet is already waiting when the run starts, as agents of an idle install are.
    await sleep(1000);
    loopDelay.enable();
    if (ANALYZE) await analyzeJobTables(setup);
    // Started through the API as a user starts it: the first replica's waiting claims hear of it at once, the others' poll.
    const startSent = performance.now();
    ({ runId } = await owner.call(executionCalls.run, { params: { id: executionId } }));
    startMs = performance.now() - startSent;
    if (ANALYZE) await analyzeJobTables(setup);
    await drain.drained(STALLED_AFTER_MS);
  } catch (error) {
    const lastLines = replicas.flatMap((replica) => replica.log.filter(Boolean).slice(-10));
    throw new Error(
      `${(error as Error).message}; agents' errors: ${drain.errorMessages.slice(0, 5).join(' | ') || 'none'}; replica log: ${lastLines.join('\n')}`,
    );
  } finally {
    drain.stopping = true;
    loopDelay.disable();
    // Agents still in a long-poll leave when it answers (empty, at most BENCH_CLAIM_WAIT_MS later).
    await Promise.all(agentLoops);
    clearInterval(sampler);
  }
  const idleEnd = cpuSnapshot(replicas, setup.postmaster);
  const start = drain.start!;
  const end = drain.end!;

  if (drain.duplicates > 0) throw new Error(`${drain.duplicates} job(s) were claimed more than once`);
  if (drain.claimed.size !== jobs) throw new Error(`${drain.claimed.size} distinct jobs claimed, ${jobs} queued`);
  const status = await setup.test.services.engine.status(executionId);
  const latest = await setup.test.services.engine.latestRun(executionId);
  if (
    status.running ||
    status.runId !== runId ||
    status.totalScenarios !== jobs ||
    status.scenariosPassed !== jobs ||
    latest?.state !== 'passed'
  )
    throw new Error(`the execution did not end with every scenario passed: ${JSON.stringify({ ...status, state: latest?.state })}`);
  const [attempts] = await setup.test.database.rows<{ once: number }>(
    `select count(*) filter (where attempts = 1)::int as once from execution_jobs where execution_run_id = '${latest.id}'`,
  );
  if (attempts?.once !== jobs) throw new Error(`${attempts?.once ?? 0} of ${jobs} jobs ran exactly one attempt`);

  const windowMs = end.at - start.at;
  const idleMs = idleEnd.at - end.at;
  return {
    claimsPerSecond: jobs / (windowMs / 1000),
    drain,
    windowMs,
    apiTicks: end.apiTicks - start.apiTicks,
    postgresTicks: end.postgresTicks === undefined ? undefined : end.postgresTicks - start.postgresTicks!,
    machineBusyPercent: (100 * (end.machine.busy - start.machine.busy)) / Math.max(1, end.machine.total - start.machine.total),
    benchCpuMs: (end.bench.user + end.bench.system - start.bench.user - start.bench.system) / 1000,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    maxApiConnections,
    maxAllConnections,
    idleApiPercent: idleMs > 0 ? coreShare(idleEnd.apiTicks - end.apiTicks, idleMs) : Number.NaN,
    startMs,
  };
}

const HEADER =
  '  agents  replicas  claims/s (runs)         job p50  job p99  claim p99  finish p99  hand-over  empty polls  errors  DB conns API/all' +
  '  API CPU s/1k claims  API %core  DB %core  machine busy  bench %core  bench loop p99  idle API %core  run call';

/** One table row: medians of the runs, latencies pooled over them. */
function row(agents: number, replicas: number, runs: RunResult[]): string {
  const pooled = (pick: (drain: Drain) => number[]) => ascending(runs.flatMap((run) => pick(run.drain)));
  const jobMs = pooled((drain) => drain.jobMs);
  const claimMs = pooled((drain) => drain.claimMs);
  const finishMs = pooled((drain) => drain.finishMs);
  const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(value < 10 ? 1 : 0));
  const percent = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '-' : `${value.toFixed(0)} %`);
  const claims = median(runs.map((run) => run.claimsPerSecond));
  const handedOver = runs.reduce((sum, run) => sum + run.drain.handedOver, 0) / (JOBS * runs.length);
  const postgres = runs.every((run) => run.postgresTicks !== undefined)
    ? median(runs.map((run) => coreShare(run.postgresTicks!, run.windowMs)))
    : undefined;
  const errors = runs.reduce((sum, run) => sum + run.drain.errors, 0);
  return [
    String(agents).padStart(8),
    String(replicas).padStart(9),
    `${claims.toFixed(0)} (${runs.map((run) => run.claimsPerSecond.toFixed(0)).join('/')})`.padStart(16).padEnd(23),
    ms(percentile(jobMs, 50)).padStart(7),
    ms(percentile(jobMs, 99)).padStart(8),
    ms(percentile(claimMs, 99)).padStart(10),
    ms(percentile(finishMs, 99)).padStart(11),
    `${(100 * handedOver).toFixed(0)} %`.padStart(10),
    String(runs.reduce((sum, run) => sum + run.drain.emptyPolls, 0)).padStart(12),
    String(errors).padStart(7),
    `${Math.max(...runs.map((run) => run.maxApiConnections))}/${Math.max(...runs.map((run) => run.maxAllConnections))}`.padStart(18),
    median(runs.map((run) => (run.apiTicks / TICKS_PER_SECOND / JOBS) * 1000))
      .toFixed(2)
      .padStart(21),
    percent(median(runs.map((run) => coreShare(run.apiTicks, run.windowMs)))).padStart(11),
    percent(postgres).padStart(10),
    percent(median(runs.map((run) => run.machineBusyPercent))).padStart(14),
    percent(median(runs.map((run) => (100 * run.benchCpuMs) / run.windowMs))).padStart(13),
    `${ms(median(runs.map((run) => run.loopDelayP99Ms)))} ms`.padStart(16),
    percent(median(runs.map((run) => run.idleApiPercent))).padStart(16),
    `${(median(runs.map((run) => run.startMs)) / 1000).toFixed(1)} s`.padStart(9),
  ].join('');
}

function printErrors(runs: RunResult[]): void {
  const messages = runs.flatMap((run) => run.drain.errorMessages);
  if (messages.length > 0) console.log(`    errors, first ones: ${[...new Set(messages)].slice(0, 5).join(' | ')}`);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** API replicas: the real server (main.ts) as processes of their own, on the bench's schema. */
class Replicas {
  private readonly running: ServerProcess[] = [];

  constructor(private readonly setup: Setup) {}

  /**
   * The first `count` replicas, started as needed, and whether any was; replicas beyond them are
   * stopped (an idle one still does upkeep).
   */
  async use(count: number): Promise<{ servers: ServerProcess[]; started: boolean }> {
    while (this.running.length > count) await stopServerProcess(this.running.pop());
    const started = this.running.length < count;
    while (this.running.length < count) {
      this.running.push(
        await startServerProcess(this.setup.test, {
          REHEARSE_ROLES: 'api',
          LOCAL_WORKERS: '0',
          WORKER_PROCESSES: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL,
          // node-postgres names its connections after PGAPPNAME: pg_stat_activity tells the replicas' apart.
          PGAPPNAME: `${this.setup.appNamePrefix}${this.running.length + 1}`,
        }),
      );
    }
    return { servers: this.running.slice(0, count), started };
  }

  /** Kills what is left at once (a bench stopped with Ctrl-C must not leave servers behind). */
  killNow(): void {
    for (const replica of this.running) replica.child.kill('SIGKILL');
  }

  async stopAll(): Promise<void> {
    await this.use(0);
  }
}

async function measure(setup: Setup, replicas: Replicas, agents: number, count: number, runs: number) {
  const { servers, started } = await replicas.use(count);
  if (started) await drainOnce(setup, setup.warmUp, agents, servers);
  const results: RunResult[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await drainOnce(setup, setup.measured, agents, servers));
  return results;
}

async function main(): Promise<void> {
  const lanes = Math.min(MAX_LANES, JOBS);
  const maxAgents = Math.max(AGENTS, ...SWEEP);
  const loadAtStart = load();
  const test = await startTestApp('postgres', { REHEARSE_ROLES: 'api' });
  const [backend] = await test.database.rows<{ pid: number; version: string; max: string }>(
    `select pg_backend_pid() as pid, current_setting('server_version') as version, current_setting('max_connections') as max`,
  );
  const postmaster = backend && parentOf(backend.pid);
  let replicas: Replicas | undefined;
  const stop = () => {
    replicas?.killNow();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const owner = await signUp(test);
    // Threads for every agent of the widest run: the project's limit would refuse the execution otherwise.
    await test.database.execute(
      `update projects set max_execution_threads = ${lanes * MAX_THREADS_PER_LANE} where id = '${owner.projectId}'`,
    );
    const warmUpJobs = Math.min(JOBS, 3 * maxAgents);
    await pushScenarios(owner, lanes, warmUpJobs);
    const firstAgents = SWEEP[0] ?? AGENTS;
    const target = async (jobs: number, tag: string): Promise<Target> => {
      const plan = planFor(owner.projectId, { jobs, tag }, firstAgents, lanes);
      const { execution } = await owner.api.call(executionCalls.create, { body: plan });
      return { id: execution.id, jobs, tag, agents: firstAgents };
    };
    const measured = await target(JOBS, 'lane');
    const warmUp = await target(warmUpJobs, 'warmup');
    const tokens: string[] = [];
    for (let agent = 0; agent < maxAgents; agent += 1) tokens.push((await test.services.workerTokens.create(`bench agent ${agent}`)).token);
    // Its database stays open (statistics, checks, and the schema is dropped at the end); the server itself stops here.
    await test.app.close();
    const setup: Setup = {
      test,
      owner: { token: owner.token, projectId: owner.projectId },
      tokens,
      measured,
      warmUp,
      lanes,
      postmaster,
      appNamePrefix: `bench-${test.schemaName}-r`,
    };
    replicas = new Replicas(setup);

    console.log(
      `Worker agents at scale: PostgreSQL ${backend?.version ?? '?'} (max_connections ${backend?.max ?? '?'}), ${JOBS} scenario jobs per run in ${lanes} flows,` +
        ` agents long-poll ${CLAIM_WAIT_MS} ms, ${HANDOVER ? 'finish hands the next job over (as rehearse worker)' : 'finish, then claim'}` +
        `${UPLOAD ? ', each job appends a minimal test case first' : ', no report upload'}; API log level ${LOG_LEVEL};` +
        ` ${ANALYZE ? 'job tables analyzed before and after each run starts (as autovacuum would)' : 'planner statistics left as they are (BENCH_ANALYZE=0)'}.` +
        `\n${availableParallelism()} cores, load average at start ${loadAtStart}${postmaster === undefined ? '; PostgreSQL is not on this machine, so no DB CPU' : ''}.` +
        `\nA replica's first drain is a warm-up of ${warmUpJobs} jobs, not measured. job p50/p99: the call that brought an agent its next job` +
        ' (claim, or finish with hand-over), ms; CPU over the drain (first job to last finish).',
    );

    const sweep: { agents: number; claims: number }[] = [];
    if (SWEEP.length > 0) {
      console.log(`\nSweep at 1 replica (one run each):\n${HEADER}`);
      for (const agents of SWEEP) {
        const runs = await measure(setup, replicas, agents, 1, 1);
        const claims = runs[0]!.claimsPerSecond;
        const previous = sweep.at(-1);
        const gain = previous
          ? `  ×${(claims / previous.claims).toFixed(2)} claims/s for ×${(agents / previous.agents).toFixed(2)} agents`
          : '';
        console.log(`${row(agents, 1, runs)}${gain}`);
        printErrors(runs);
        sweep.push({ agents, claims });
      }
    }

    console.log(`\n${AGENTS} agents, medians of ${RUNS} run(s):\n${HEADER}`);
    const byReplicas = new Map<number, number>();
    for (const count of REPLICAS) {
      const runs = await measure(setup, replicas, AGENTS, count, RUNS);
      console.log(row(AGENTS, count, runs));
      printErrors(runs);
      byReplicas.set(count, median(runs.map((run) => run.claimsPerSecond)));
    }
    const one = byReplicas.get(1);
    for (const [count, claims] of byReplicas) {
      if (one && count > 1) console.log(`  ${count} replicas: ×${(claims / one).toFixed(2)} the claims/s of one`);
    }
    console.log(`load average at the end ${load()}`);
  } finally {
    await replicas?.stopAll();
    await test.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
