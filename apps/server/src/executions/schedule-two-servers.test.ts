import { executionCalls as calls, WEEK_DAYS, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../testing/server-process.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { firedSlots } from '../testing/schedule-fires.js';

const INDIA = 5.5;
/** The servers' scheduler clocks run this much faster, so two minutes pass in four seconds. */
const SPEED = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server process on the test's schema whose scheduler clock starts at `clockStart`; it answers at once, so both clocks start together. */
function startServer(test: TestApp, clockStart: Date): Promise<ServerProcess> {
  return startServerProcess(
    test,
    {
      HOST: '127.0.0.1',
      WORKER_PROCESSES: '0',
      LOCAL_WORKERS: '0',
      SCHEDULER_TICK_SECONDS: '0.5',
      SCHEDULER_CLOCK_START: clockStart.toISOString(),
      SCHEDULER_CLOCK_SPEED: String(SPEED),
    },
    { waitUntilReady: false },
  );
}

describe.skipIf(!process.env.DATABASE_URL)('a schedule with two server processes (PostgreSQL)', () => {
  let test: TestApp;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    test = await startTestApp('postgres');
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => stopServerProcess(server)));
    await test?.close();
  });

  it('fires a schedule set two minutes ahead exactly once', { timeout: 180_000 }, async () => {
    const user = await signUp(test, { email: 'scheduler@acme.test' });
    const { projectId } = user;
    await user.api.call(ws.pushFile, {
      body: {
        projectId,
        directory: 'features',
        file: { name: 'nightly.feature', content: 'Feature: Nightly\n\n  @nightly\n  Scenario: Home\n    Given I open "/"\n' },
      },
    });
    // The next quarter hour after now, written in India time (UTC+5:30) as the planner would.
    const slot = new Date(Math.ceil((Date.now() + 60_000) / 900_000) * 900_000);
    const local = new Date(slot.getTime() + INDIA * 3_600_000);
    const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const day = WEEK_DAYS[(local.getUTCDay() + 6) % 7]!;
    const { execution } = await user.api.call(calls.create, {
      body: {
        projectId,
        name: 'Nightly',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@nightly'] }] }],
        schedule: { days: [day], time, timeZone: INDIA, isBiweekly: false },
        enabled: true,
      },
    });

    // Both servers' clocks start two minutes before the slot.
    servers.push(
      ...(await Promise.all([
        startServer(test, new Date(slot.getTime() - 120_000)),
        startServer(test, new Date(slot.getTime() - 120_000)),
      ])),
    );
    const logs = servers.map((server) => server.log);

    let fires: { slot: string; fired_by: string }[] = [];
    for (let i = 0; i < 240 && fires.length === 0; i++) {
      await sleep(500);
      fires = await firedSlots(test, execution.id);
    }
    // Both servers keep ticking past the slot (within its lookback) until both have seen it.
    const sawSlot = (log: string[]) => log.some((line) => /schedule (fired|slot fired by another server)/.test(line));
    for (let i = 0; i < 120 && !(sawSlot(logs[0]!) && sawSlot(logs[1]!)); i++) await sleep(500);
    expect(sawSlot(logs[0]!) && sawSlot(logs[1]!)).toBe(true);

    fires = await firedSlots(test, execution.id);
    expect(fires).toHaveLength(1);
    expect(new Date(fires[0]!.slot).getTime()).toBe(slot.getTime());
    // The winner logs the fire, then starts the run: on a busy machine the run row lands a moment later.
    const startedRuns = () =>
      test.database.rows<{ trigger: string }>(`select trigger from execution_runs where execution_id = '${execution.id}'`);
    let started = await startedRuns();
    for (let i = 0; i < 60 && started.length === 0; i++) {
      await sleep(500);
      started = await startedRuns();
    }
    expect(
      started,
      logs
        .flat()
        .filter((line) => line.includes('schedule'))
        .join('\n'),
    ).toEqual([{ trigger: 'schedule' }]);
    expect(logs.flat().filter((line) => line.includes('"schedule fired"'))).toHaveLength(1);
    expect((await user.api.call(calls.get, { params: { id: execution.id } })).execution.running).toBe(true);
  });
});
