import type { AddressInfo } from 'node:net';
import { executionCalls as calls, executionStatusEvent, runsCalls, workspaceCalls as ws, type ExecutionStatus } from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE_FEATURE, scaleFlows } from '../testing/shop-at-scale.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { killWorkerAgent, startWorkerAgent, type WorkerAgent } from '../testing/worker-agent.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Three real worker processes with their own Chromium, sharing a PostgreSQL-backed server.
describe.skipIf(!process.env.DATABASE_URL)('an execution on three worker processes (PostgreSQL)', () => {
  let test: TestApp;
  let base: string;
  let socket: Socket | undefined;
  const workers: WorkerAgent[] = [];

  beforeAll(async () => {
    test = await startTestApp('postgres', { WORKER_LEASE_SECONDS: '4' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    socket?.disconnect();
    for (const worker of workers) killWorkerAgent(worker);
    await test?.close();
  });

  it(
    'runs 2 flows × 2 groups × 3 threads into one run of 12 test cases, live, and loses nothing when a worker is killed',
    { timeout: 420_000 },
    async () => {
      const user = await signUp(test, { email: 'scale@acme.test' });
      const { projectId } = user;
      await test.database.execute(`update projects set max_execution_threads = 6 where id = '${projectId}'`);
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${base}/demo-shop/` } } });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features', file: { name: 'scale.feature', content: SCALE_FEATURE } },
      });
      const { execution } = await user.api.call(calls.create, {
        body: {
          projectId,
          name: 'Scale',
          env: 'local',
          flows: scaleFlows(3),
        },
      });

      const { token } = await test.services.workerTokens.create('scale test');
      // Each in its own process group: killing it kills the worker and the runs it started, like a lost machine.
      for (let i = 0; i < 3; i++) workers.push(startWorkerAgent(base, token, 2));

      socket = io(base, { path: '/ws', auth: { token: user.token }, transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        socket!.once('connect', () => resolve());
        socket!.once('connect_error', reject);
      });
      expect(await socket.emitWithAck('subscribeToExecutionStatus', { projectId })).toEqual({ status: true });
      const updates: ExecutionStatus[] = [];
      socket.on(executionStatusEvent(execution.id), (status) => updates.push(status));

      const { runId } = await user.api.call(calls.run, { params: { id: execution.id } });

      // Kill the first worker as soon as it holds a scenario.
      const victim = workers[0]!;
      for (let i = 0; i < 600; i++) {
        const held = await test.database.rows(
          `select id from execution_jobs where state = 'running' and worker_id like '%:${victim.child.pid}/%'`,
        );
        if (held.length > 0) break;
        await sleep(200);
      }
      killWorkerAgent(victim);

      let final: ExecutionStatus | undefined;
      for (let i = 0; i < 360 && !final; i++) {
        const status = await test.services.engine.status(execution.id);
        if (!status.running) final = status;
        else await sleep(1000);
      }
      expect(final).toMatchObject({ runId, totalScenarios: 12, scenariosPassed: 12, scenariosFailed: 0 });

      const { run } = await user.api.call(runsCalls.getRun, { query: { runId } });
      const names = run.report.testCases.map((testCase) => testCase.scenarioName);
      expect(names).toHaveLength(12);
      expect(new Set(names).size).toBe(12);
      expect(run).toMatchObject({ status: 'PASSED', totalScenarios: 12, totalScenariosPassed: 12 });
      // The killed worker's scenario ran again elsewhere.
      const retried = await test.database.rows<{ attempts: number }>(`select attempts from execution_jobs where attempts > 1`);
      expect(retried.length).toBeGreaterThanOrEqual(1);
      // A flow's second group started only after its first group finished.
      const order = await test.database.rows<{ flow_index: number; first_done: string; then_started: string }>(`
      select flow_index,
             max(finished_at) filter (where group_index = 0) as first_done,
             min(started_at) filter (where group_index = 1) as then_started
      from execution_jobs group by flow_index order by flow_index`);
      expect(order).toHaveLength(2);
      for (const flow of order) expect(new Date(flow.then_started).getTime()).toBeGreaterThanOrEqual(new Date(flow.first_done).getTime());

      // Live counters arrived in order: never going back, ending at 12 passed.
      await sleep(500);
      const done = updates.map((update) => update.scenariosPassed + update.scenariosFailed);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      expect(updates.at(-1)).toMatchObject({ running: false, totalScenarios: 12, scenariosPassed: 12 });
      expect(updates.length).toBeGreaterThanOrEqual(12);
    },
  );
});
