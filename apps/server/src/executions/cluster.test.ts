import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createApiClient } from '@rehearse/api-client';
import {
  executionCalls as calls,
  executionStatusEvent,
  runsCalls,
  WEEK_DAYS,
  workspaceCalls as ws,
  type ExecutionStatus,
} from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import { restartServerProcess, startServerProcess, stopServerProcess, type ServerProcess } from '../testing/server-process.js';
import { SCALE_FEATURE, SCALE_SCENARIOS, scaleFlows } from '../testing/shop-at-scale.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { killWorkerAgent, startWorkerAgent, type WorkerAgent } from '../testing/worker-agent.js';
import { firedSlots } from '../testing/schedule-fires.js';

/**
 * Settings every server of the cluster shares (the test's own in-process app too: it sweeps lost
 * jobs like any server). A short lease and backoff so a lost worker's scenario runs again within
 * seconds; four attempts because each of the three faults below may cost one job one attempt, and
 * the test proves that no scenario is lost to them, not how attempts run out (execution-outcomes
 * does that). The agents are the only workers: no server starts its own.
 */
const CLUSTER_ENV = {
  WORKER_LEASE_SECONDS: '5',
  JOB_RETRY_BACKOFF_SECONDS: '1',
  JOB_ATTEMPTS: '4',
  SCHEDULER_TICK_SECONDS: '0.5',
  WORKER_PROCESSES: '0',
  LOCAL_WORKERS: '0',
};
/** Each scenario's deadline on the agents: a loaded two-core machine runs Chromium slowly (40 s was once needed). */
const JOB_TIMEOUT_SECONDS = 60;
/** The schedule's slot comes this long after the scheduler's clock starts. */
const CLOCK_LEAD_MS = 3_000;
const POLL_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it answers something; past `withinMs` it fails naming what it waited for,
 * with `context()` (what the processes said) to tell why.
 */
async function until<T>(what: string, withinMs: number, check: () => Promise<T | undefined>, context: () => string): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`Waited ${withinMs / 1000} s for ${what}, in vain.\n${context()}`);
    await sleep(POLL_MS);
  }
}

/** Whether a process under `pid` (the agent, its threads, their sandboxed jobs) is a browser: a scenario is running. */
function browserRunsUnder(pid: number): boolean {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (name) state ppid …": the name may hold spaces, so read after its closing parenthesis.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // It ended while we looked.
    }
  }
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    try {
      // The program itself, not its arguments: the runner's own command line says `--browser chromium`.
      const program = readFileSync(`/proc/${next}/cmdline`, 'utf8').split('\0')[0] ?? '';
      if (/chrom|headless_shell/i.test(path.basename(program))) return true;
    } catch {
      // It ended while we looked.
    }
    queue.push(...(children.get(next) ?? []));
  }
  return false;
}

interface JobRow {
  id: string;
  scenario_name: string;
  state: string;
  attempts: number;
  worker_id: string | null;
  message: string | null;
}

/** Thread ids name their agent: host:agentPid/threadPid:random. */
const runsOn = (job: JobRow, agent: WorkerAgent) => job.worker_id?.includes(`:${agent.child.pid}/`) === true;

// Two real server processes with different roles on one PostgreSQL schema, three real agents
// (sandboxed jobs, real Chromium), and the three faults a cluster meets: a lost machine, a server
// restart and a network that refuses a request.
describe.skipIf(!process.env.DATABASE_URL)('a cluster: an api server, a scheduler,workers server and three worker agents', () => {
  let test: TestApp;
  let api: ServerProcess | undefined;
  /** The scheduler,workers server, then the same server started again. */
  const back: ServerProcess[] = [];
  const agents: WorkerAgent[] = [];
  let proxy: FlakyProxy | undefined;
  let socket: Socket | undefined;

  beforeAll(async () => {
    test = await startTestApp('postgres', CLUSTER_ENV);
  });
  afterAll(async () => {
    socket?.disconnect();
    for (const agent of agents) killWorkerAgent(agent);
    await Promise.all([api, ...back].map((server) => stopServerProcess(server)));
    await proxy?.close();
    await test?.close();
  });

  it(
    'fires a schedule once and runs its 2 flows × 2 groups × 3 threads to 12 passed scenarios, each reported once, though an agent is killed, a server restarts and a download is refused',
    { timeout: 600_000 },
    async () => {
      const user = await signUp(test, { email: 'cluster@acme.test' });
      const { projectId } = user;
      await test.database.execute(`update projects set max_execution_threads = 6 where id = '${projectId}'`);
      const { token } = await test.services.workerTokens.create('cluster test');

      // Users reach the cluster through the api server only; the scenarios test its demo shop.
      api = await startServerProcess(test, { ...CLUSTER_ENV, REHEARSE_ROLES: 'api', HOST: '127.0.0.1' });
      const apiUrl = api.addresses[0]!;
      const client = createApiClient({ baseUrl: apiUrl, getToken: () => user.token });
      await client.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${apiUrl}/demo-shop/` } } });
      await client.call(ws.pushFile, {
        body: { projectId, directory: 'features', file: { name: 'scale.feature', content: SCALE_FEATURE } },
      });
      // The next quarter hour (the planner's steps, UTC) at least a minute ahead; the cluster's
      // clock, not the test, brings it near.
      const slot = new Date(Math.ceil((Date.now() + 60_000) / 900_000) * 900_000);
      const { execution } = await client.call(calls.create, {
        body: {
          projectId,
          name: 'Cluster',
          env: 'local',
          flows: scaleFlows(3),
          schedule: {
            days: [WEEK_DAYS[(slot.getUTCDay() + 6) % 7]!],
            time: `${String(slot.getUTCHours()).padStart(2, '0')}:${String(slot.getUTCMinutes()).padStart(2, '0')}`,
            timeZone: 0,
            isBiweekly: false,
          },
          enabled: true,
        },
      });

      // A user watching the execution on the api server: the workers' server publishes its counters
      // through the database's socket adapter.
      socket = io(apiUrl, { path: '/ws', auth: { token: user.token }, transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        socket!.once('connect', () => resolve());
        socket!.once('connect_error', reject);
      });
      expect(await socket.emitWithAck('subscribeToExecutionStatus', { projectId })).toEqual({ status: true });
      const updates: ExecutionStatus[] = [];
      socket.on(executionStatusEvent(execution.id), (status: ExecutionStatus) => updates.push(status));

      // The scheduler's clock is real time shifted so the slot comes CLOCK_LEAD_MS after it starts;
      // started again, the server reads the same shifted time, as a restarted server reads the real one.
      const shift = slot.getTime() - CLOCK_LEAD_MS - Date.now();
      const clusterClock = () => ({ SCHEDULER_CLOCK_START: new Date(Date.now() + shift).toISOString() });
      back.push(await startServerProcess(test, { ...CLUSTER_ENV, REHEARSE_ROLES: 'scheduler,workers', ...clusterClock() }));

      // Three agents with two threads each: one on the api server (killed later), one behind a proxy
      // that refuses its first workspace download, and one on the server that restarts, over
      // loopback as that server's own local workers would be.
      proxy = flakyProxy(apiUrl);
      await proxy.listen();
      proxy.refuseNextDownload();
      const deadline = { REHEARSE_JOB_TIMEOUT_SECONDS: String(JOB_TIMEOUT_SECONDS) };
      const killed = startWorkerAgent(apiUrl, token, 2, deadline);
      const proxied = startWorkerAgent(proxy.url(), token, 2, deadline);
      const onBack = startWorkerAgent(back[0]!.addresses[0]!, token, 2, deadline);
      agents.push(killed, proxied, onBack);

      // Every job's states and messages as they change (a retried job's message is gone once it passes).
      let jobs: JobRow[] = [];
      const messages = new Map<string, string[]>();
      const context = () =>
        [
          `jobs: ${JSON.stringify(jobs, null, 1)}`,
          `live counters (${updates.length}), the last: ${JSON.stringify(updates.at(-1))}`,
          ...[api, ...back].map(
            (server, i) => `server ${i} log (warnings):\n${server?.log.filter((line) => /"level":[45]0/.test(line)).join('\n')}`,
          ),
          ...agents.map((agent, i) => `agent ${i} stderr:\n${agent.log.slice(-20).join('\n')}`),
        ].join('\n');

      const [run] = await until(
        'the schedule to start the execution at its slot',
        60_000,
        async () => {
          const runs = await test.database.rows<{ id: string; run_id: string; trigger: string }>(
            `select id, run_id, trigger from execution_runs where execution_id = '${execution.id}'`,
          );
          return runs.length > 0 ? runs : undefined;
        },
        context,
      );
      const runId = run!.run_id;
      const jobsNow = async () => {
        jobs = await test.database.rows<JobRow>(
          `select id, scenario_name, state, attempts, worker_id, message from execution_jobs
           where execution_run_id = '${run!.id}' order by position`,
        );
        for (const job of jobs)
          if (job.message && !messages.get(job.id)?.includes(job.message))
            messages.set(job.id, [...(messages.get(job.id) ?? []), job.message]);
        return jobs;
      };
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          await jobsNow();
          await sleep(POLL_MS);
        }
      })();

      try {
        // (a) A lost machine: the first agent is killed while a browser runs one of its scenarios.
        await until(
          'the first agent to run a scenario in its browser',
          120_000,
          async () =>
            (await jobsNow()).some((job) => job.state === 'running' && runsOn(job, killed)) && browserRunsUnder(killed.child.pid!)
              ? true
              : undefined,
          context,
        );
        killWorkerAgent(killed);
        const lost = (await jobsNow()).filter((job) => job.state === 'running' && runsOn(job, killed)).map((job) => job.id);
        expect(lost.length, 'the killed agent held a running scenario').toBeGreaterThan(0);

        // (b) A restart: the scheduler,workers server stops while its agent runs a scenario, and starts again.
        const inFlight = await until(
          'the agent on the scheduler,workers server to run a scenario',
          120_000,
          async () => {
            const running = (await jobsNow()).filter((job) => job.state === 'running' && runsOn(job, onBack)).map((job) => job.id);
            return running.length > 0 ? running : undefined;
          },
          context,
        );
        back.push(await restartServerProcess(test, back[0]!, clusterClock()));
        // A graceful stop: it exited 0 within main.ts's shutdown grace, the database closed last.
        expect(back[0]!.child.exitCode, back[0]!.log.slice(-5).join('\n')).toBe(0);
        // Back within the slot's lookback, the restarted scheduler sees the slot due again and finds it fired.
        await until(
          'the restarted scheduler to find the slot fired',
          30_000,
          async () => (back[1]!.log.some((line) => line.includes('schedule slot fired by another server')) ? true : undefined),
          context,
        );

        const final = await until(
          'the execution to finish',
          360_000,
          async () => {
            const status = await test.services.engine.status(execution.id);
            return status.running ? undefined : status;
          },
          context,
        );
        watching = false;
        await watcher;
        await jobsNow();

        // Every scenario passed, once: no failed, none errored, none missing, none twice.
        expect(
          jobs.map((job) => [job.scenario_name, job.state]),
          context(),
        ).toEqual(SCALE_SCENARIOS.map((name) => [name, 'passed']));
        expect(final).toMatchObject({ runId, totalScenarios: 12, scenariosPassed: 12, scenariosFailed: 0, scenariosErrored: 0 });
        const { run: report } = await client.call(runsCalls.getRun, { query: { runId } });
        expect(report).toMatchObject({ status: 'PASSED', totalScenarios: 12, totalScenariosPassed: 12 });
        expect(report.report.testCases.map((testCase) => testCase.scenarioName).sort()).toEqual([...SCALE_SCENARIOS].sort());
        expect(report.report.testCases.every((testCase) => testCase.result.status === 'PASSED')).toBe(true);
        expect(await test.database.rows(`select count(*)::int as stored from test_cases where run_id = '${runId}'`)).toEqual([
          { stored: 12 },
        ]);

        // A flow's second group started only after its first group finished.
        const order = await test.database.rows<{ flow_index: number; first_done: string; then_started: string }>(`
          select flow_index,
                 max(finished_at) filter (where group_index = 0) as first_done,
                 min(started_at) filter (where group_index = 1) as then_started
          from execution_jobs where execution_run_id = '${run!.id}' group by flow_index order by flow_index`);
        expect(order).toHaveLength(2);
        for (const flow of order) expect(new Date(flow.then_started).getTime()).toBeGreaterThanOrEqual(new Date(flow.first_done).getTime());
        // The live counters reached the user in order, never going back, ending at 12 passed.
        await until('the last live counters', 10_000, async () => (updates.at(-1)?.running === false ? true : undefined), context);
        const done = updates.map((update) => update.scenariosPassed + update.scenariosFailed);
        expect(done).toEqual([...done].sort((a, b) => a - b));
        expect(updates.at(-1)).toMatchObject({ running: false, totalScenarios: 12, scenariosPassed: 12 });
        expect(updates.length).toBeGreaterThanOrEqual(12);

        // (a) The killed agent's scenarios ran again on another agent.
        for (const id of lost) {
          const job = jobs.find((candidate) => candidate.id === id)!;
          expect(job.attempts, job.scenario_name).toBeGreaterThanOrEqual(2);
          expect(runsOn(job, killed), job.scenario_name).toBe(false);
        }
        // (b) The scenarios running during the restart passed (finished by their agent or run again).
        for (const id of inFlight) expect(jobs.find((job) => job.id === id)?.state).toBe('passed');
        // (c) The refused download cost one attempt of one job, which then passed.
        expect(proxy.refused()).toBe(1);
        const refused = jobs.filter((job) =>
          messages.get(job.id)?.some((message) => message.includes('the test proxy refused this download')),
        );
        expect(refused.map((job) => [job.state, job.attempts >= 2])).toEqual([['passed', true]]);

        // The slot fired once, on the scheduler: the api server never ticks, the restart found it taken.
        const fires = await firedSlots(test, execution.id);
        expect(fires.map((fire) => [new Date(fire.slot).getTime(), fire.fired_by])).toEqual([[slot.getTime(), back[0]!.instance]]);
        expect(
          (await test.database.rows<{ trigger: string }>(`select trigger from execution_runs where execution_id = '${execution.id}'`)).map(
            (row) => row.trigger,
          ),
        ).toEqual(['schedule']);
        expect(api.log.filter((line) => /schedule (fired|slot)/.test(line))).toEqual([]);
        expect(back[1]!.log.filter((line) => line.includes('"schedule fired"'))).toEqual([]);
      } finally {
        watching = false;
        await watcher;
      }
    },
  );
});
