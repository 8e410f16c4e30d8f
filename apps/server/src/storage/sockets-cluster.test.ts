import type { AddressInfo } from 'node:net';
import { executionStatusEvent, SocketPaths, type ExecutionStatus } from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two API servers on one PostgreSQL: an event emitted by one reaches the other's clients, once.
describe.skipIf(!process.env.DATABASE_URL)('socket events across API servers (PostgreSQL adapter)', () => {
  let first: TestApp;
  let second: TestApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    first = await startTestApp('postgres');
    second = await startTestApp(
      'postgres',
      {},
      {
        schemaName: first.schemaName!,
        dataDir: first.settings.dataDir,
        secretKeyHex: first.settings.secretKey.toString('hex'),
      },
    );
    for (const app of [first, second]) await app.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await second?.close();
    await first?.close();
  });

  async function subscribe(app: TestApp, path: string, token: string, projectId: string): Promise<Socket> {
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    const socket = io(base, { path, auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.emitWithAck('subscribeToExecutionStatus', { projectId })).toEqual({ status: true });
    return socket;
  }

  it(
    'delivers a status update from one server to members connected to either, on both paths, exactly once',
    { timeout: 60_000 },
    async () => {
      const owner = await signUp(first);
      const stranger = await signUp(first);
      const executionId = '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b';
      const event = executionStatusEvent(executionId);
      const listeners = [
        await subscribe(second, SocketPaths[0], owner.token, owner.projectId),
        await subscribe(second, SocketPaths[1], owner.token, owner.projectId),
        await subscribe(first, SocketPaths[1], owner.token, owner.projectId),
      ];
      const heard = listeners.map(() => [] as ExecutionStatus[]);
      listeners.forEach((socket, i) => socket.on(event, (status) => heard[i]!.push(status)));
      const outsider = await subscribe(second, SocketPaths[0], stranger.token, stranger.projectId);
      const leaked: unknown[] = [];
      outsider.on(event, (status) => leaked.push(status));
      const refused = await outsider.emitWithAck('subscribeToExecutionStatus', { projectId: owner.projectId });
      expect(refused.status).toBe(false);

      const status: ExecutionStatus = {
        executionId,
        runId: null,
        running: true,
        totalScenarios: 3,
        scenariosPassed: 1,
        scenariosErrored: 0,
        scenariosFailed: 0,
      };
      // LISTEN is set up asynchronously after the adapter starts: repeat until the other server hears one.
      for (let i = 0; i < 40 && heard[0]!.length === 0; i++) {
        first.services.sockets.emitToRoom(`execution-status:${owner.projectId}`, event, status);
        await sleep(250);
      }
      const sent = heard[0]!.length;
      expect(sent).toBeGreaterThan(0);
      heard.forEach((list) => list.splice(0));
      first.services.sockets.emitToRoom(`execution-status:${owner.projectId}`, event, { ...status, scenariosPassed: 2 });
      for (let i = 0; i < 40 && heard.some((list) => list.length === 0); i++) await sleep(100);
      await sleep(500);
      expect(heard.map((list) => list.map((s) => s.scenariosPassed))).toEqual([[2], [2], [2]]);
      expect(leaked).toEqual([]);
    },
  );

  it(
    "sends a member counters read by the server they are connected to, never another server's relayed (which could arrive after fresher ones)",
    { timeout: 60_000 },
    async () => {
      const owner = await signUp(first);
      const executionId = '0b7e2d41-5c3a-4f6e-9a8b-1c2d3e4f5a6b';
      const event = executionStatusEvent(executionId);
      const onSecond = await subscribe(second, SocketPaths[0], owner.token, owner.projectId);
      const onFirst = await subscribe(first, SocketPaths[0], owner.token, owner.projectId);
      const heard = { second: [] as ExecutionStatus[], first: [] as ExecutionStatus[] };
      onSecond.on(event, (status) => heard.second.push(status));
      onFirst.on(event, (status) => heard.first.push(status));
      // Each server reads its own counters: the two differ here, so who read what a member got shows.
      const countersOf =
        (scenariosPassed: number) =>
        async (id: string): Promise<ExecutionStatus> => ({
          executionId: id,
          runId: null,
          running: true,
          totalScenarios: 9,
          scenariosPassed,
          scenariosErrored: 0,
          scenariosFailed: 0,
        });
      const firstStatus = first.services.engine.status.bind(first.services.engine);
      const secondStatus = second.services.engine.status.bind(second.services.engine);
      first.services.engine.status = countersOf(1);
      second.services.engine.status = countersOf(2);
      try {
        // The announcement goes through LISTEN/NOTIFY, set up asynchronously: repeat until the other server hears one.
        for (let i = 0; i < 40 && heard.second.length === 0; i++) {
          await first.services.engine.publish(owner.projectId, executionId, { list: false });
          await sleep(250);
        }
        await sleep(500);
      } finally {
        first.services.engine.status = firstStatus;
        second.services.engine.status = secondStatus;
      }
      expect(heard.first.length).toBeGreaterThan(0);
      expect(heard.second.length).toBeGreaterThan(0);
      expect(new Set(heard.first.map((status) => status.scenariosPassed))).toEqual(new Set([1]));
      expect(new Set(heard.second.map((status) => status.scenariosPassed))).toEqual(new Set([2]));
    },
  );
});
