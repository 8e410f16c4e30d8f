import { createApiClient } from '@rehearse/api-client';
import { executionCalls, scenarioJobCalls, WEEK_DAYS, workspaceCalls as ws, type ScenarioJob } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../testing/server-process.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { firedSlots } from '../testing/schedule-fires.js';

/** The servers' scheduler clocks run this much faster, so two minutes pass in four seconds. */
const SPEED = 30;
/** What both servers of this test share: a fast scheduler clock. */
const CLOCK = { SCHEDULER_TICK_SECONDS: '0.5', SCHEDULER_CLOCK_SPEED: String(SPEED) };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.DATABASE_URL)('process roles: an api server and a scheduler,workers server on one PostgreSQL', () => {
  let test: TestApp;
  let api: ServerProcess | undefined;
  let back: ServerProcess | undefined;
  let restarted: ServerProcess | undefined;

  beforeAll(async () => {
    test = await startTestApp('postgres');
  });
  afterAll(async () => {
    await Promise.all([stopServerProcess(api), stopServerProcess(back), stopServerProcess(restarted)]);
    await test?.close();
  });

  it(
    'runs scenarios and schedules only where their role is, and listens for users only on the api server',
    { timeout: 300_000 },
    async () => {
      const user = await signUp(test, { email: 'roles@acme.test' });
      const { projectId } = user;
      // A slot two minutes ahead (UTC) on both servers' scheduler clocks.
      const slot = new Date(Math.ceil((Date.now() + 60_000) / 900_000) * 900_000);
      const time = `${String(slot.getUTCHours()).padStart(2, '0')}:${String(slot.getUTCMinutes()).padStart(2, '0')}`;
      const clock = { SCHEDULER_CLOCK_START: new Date(slot.getTime() - 120_000).toISOString() };

      // The api server is asked for local workers and Run scenario slots, which its role leaves off.
      api = await startServerProcess(test, {
        ...CLOCK,
        REHEARSE_ROLES: 'api',
        HOST: '127.0.0.1',
        WORKER_PROCESSES: '2',
        LOCAL_WORKERS: '1',
        ...clock,
      });
      const apiUrl = api.addresses[0]!;
      const client = createApiClient({ baseUrl: apiUrl, getToken: () => user.token });
      await client.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${apiUrl}/demo-shop/` } } });
      await client.call(ws.pushFile, {
        body: {
          projectId,
          directory: 'features',
          file: {
            name: 'smoke.feature',
            content:
              'Feature: Smoke\n\n  @nightly\n  Scenario: Home lists products\n    Given I open "/"\n    Then I should see "Enamel Camp Mug"\n',
          },
        },
      });
      const { execution } = await client.call(executionCalls.create, {
        body: {
          projectId,
          name: 'Nightly',
          env: 'default',
          flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@nightly'] }] }],
          schedule: { days: [WEEK_DAYS[(slot.getUTCDay() + 6) % 7]!], time, timeZone: 0, isBiweekly: false },
          enabled: true,
        },
      });
      const { job } = await client.call(scenarioJobCalls.runScenario, {
        body: { projectId, featureName: 'smoke', scenarioName: 'Home lists products', environment: 'local.json' },
      });

      // Past the slot on the api server's clock (4 s), with room for a slow machine: nothing ran there.
      await sleep(7_000);
      expect(await firedSlots(test, execution.id)).toEqual([]);
      expect((await client.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } })).job.state).toBe('queued');
      expect(await test.database.rows('select name from worker_tokens')).toEqual([]);

      // The scheduler,workers server, asked to listen everywhere, keeps to loopback for its own workers.
      back = await startServerProcess(test, {
        ...CLOCK,
        REHEARSE_ROLES: 'scheduler,workers',
        HOST: '0.0.0.0',
        WORKER_PROCESSES: '1',
        LOCAL_WORKERS: '0',
        WORKER_LEASE_SECONDS: '60',
        SCHEDULER_CLOCK_START: new Date(slot.getTime() - 30_000).toISOString(),
      });
      expect(back.addresses.length).toBeGreaterThan(0);
      expect(back.addresses.every((address) => address.startsWith('http://127.0.0.1:'))).toBe(true);

      let finished: ScenarioJob | undefined;
      for (let i = 0; i < 480 && !finished; i++) {
        const { job: current } = await client.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } });
        if (current.state !== 'queued' && current.state !== 'running') finished = current;
        else await sleep(250);
      }
      expect([finished?.state, finished?.message], back.log.slice(-30).join('\n')).toEqual(['passed', null]);
      const [owner] = await test.database.rows<{ owner: string }>(`select owner from scenario_jobs where id = '${job.id}'`);
      expect(owner?.owner).toBe(back.instance);

      // A request queued on the api server while the workers server runs is claimed there within
      // moments (it polls), not at its next sweep (every half lease: 30 s here).
      const queuedAt = Date.now();
      const { job: second } = await client.call(scenarioJobCalls.runScenario, {
        body: { projectId, featureName: 'smoke', scenarioName: 'Home lists products', environment: 'local.json' },
      });
      let secondState = 'queued';
      for (let i = 0; i < 120 && secondState === 'queued'; i++) {
        secondState = (await client.call(scenarioJobCalls.scenarioJob, { params: { jobId: second.id } })).job.state;
        if (secondState === 'queued') await sleep(100);
      }
      expect(secondState).not.toBe('queued');
      expect(Date.now() - queuedAt).toBeLessThan(8_000);

      let fires: { fired_by: string }[] = [];
      for (let i = 0; i < 120 && fires.length === 0; i++) {
        await sleep(250);
        fires = await firedSlots(test, execution.id);
      }
      expect(fires).toHaveLength(1);
      expect(fires[0]!.fired_by).toBe(back.instance);
    },
  );

  it('a restarting server ends only jobs whose lease lapsed, never another live server’s', { timeout: 180_000 }, async () => {
    // The project and user of the first test's job.
    const [row] = await test.database.rows<{ id: string; user_id: string }>('select project_id as id, user_id from scenario_jobs limit 1');
    const insert = (owner: string, heartbeat: string) =>
      test.database.rows<{
        id: string;
      }>(`insert into scenario_jobs (project_id, user_id, branch, feature_name, scenario_name, environment, state, started_at, owner, heartbeat_at)
        values ('${row!.id}', '${row!.user_id}', 'main', 'smoke', 'Home lists products', 'local', 'running', now() - interval '10 minutes', '${owner}', ${heartbeat}) returning id`);
    const [live] = await insert('another-server:1:aaaa', 'now()');
    const [dead] = await insert('dead-server:2:bbbb', "now() - interval '10 minutes'");
    // The other server is alive: it renews its job's lease, as ScenarioJobs does every third of it.
    const renew = setInterval(
      () => void test.database.execute(`update scenario_jobs set heartbeat_at = now() where id = '${live!.id}'`),
      1_000,
    );
    try {
      await stopServerProcess(back);
      restarted = await startServerProcess(test, {
        ...CLOCK,
        REHEARSE_ROLES: 'workers',
        HOST: '127.0.0.1',
        WORKER_PROCESSES: '1',
        LOCAL_WORKERS: '0',
        WORKER_LEASE_SECONDS: '5',
      });
      const stateOf = async (id: string) =>
        (
          await test.database.rows<{ state: string; message: string | null }>(`select state, message from scenario_jobs where id = '${id}'`)
        )[0];
      for (let i = 0; i < 120 && (await stateOf(dead!.id))?.state === 'running'; i++) await sleep(250);
      expect(await stateOf(dead!.id)).toEqual({
        state: 'error',
        message: 'The server restarted while this scenario was running. Please run it again.',
      });
      // Several of the restarted server's sweeps (every 2.5 s with a 5 s lease) later, the live job still runs.
      await sleep(6_000);
      expect(await stateOf(live!.id)).toEqual({ state: 'running', message: null });
    } finally {
      clearInterval(renew);
    }
  });
});
