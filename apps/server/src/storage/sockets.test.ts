import type { AddressInfo } from 'node:net';
import { authCalls, recorderCalls, SocketPaths } from '@rehearse/contract';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

describe('project rooms over socket.io', () => {
  let test: TestApp;
  let base: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    test = await startTestApp('pglite');
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await test?.close();
  });

  function connect(path: string, token?: string): Socket {
    const socket = io(base, { path, auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    return socket;
  }

  const silence = () => new Promise((resolve) => setTimeout(resolve, 300));

  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  it.each(SocketPaths)('refuses a connection without a valid token on %s', async (path) => {
    const error = await connected(connect(path, 'rhs_nope')).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Your session has expired. Please login again.');
  });

  it.each(SocketPaths)('lets members join their project room on %s and hear its events', async (path) => {
    const owner = await signUp(test);
    const stranger = await signUp(test);
    const member = connect(path, owner.token);
    const outsider = connect(path, stranger.token);
    await Promise.all([connected(member), connected(outsider)]);

    expect(await member.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({ status: true });
    expect(await outsider.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({
      status: false,
      error: 'You do not have access to this project.',
    });
    expect(await outsider.emitWithAck('joinProject', { projectId: 'nope' })).toEqual({
      status: false,
      error: 'Invalid project id.',
    });

    const heard: unknown[] = [];
    const leaked: unknown[] = [];
    outsider.on('projectChanged', (payload) => leaked.push(payload));
    const delivered = new Promise<void>((resolve) =>
      member.on('projectChanged', (payload) => {
        heard.push(payload);
        resolve();
      }),
    );
    test.services.sockets.emitToProject(owner.projectId, 'projectChanged', { projectId: owner.projectId, what: 'members' });
    await delivered;
    expect(heard).toEqual([{ projectId: owner.projectId, what: 'members' }]);
    expect(leaked).toEqual([]);
  });
  it("sends publish_scenario to the project's room when a recording is published, and to no one else", async () => {
    const owner = await signUp(test);
    const stranger = await signUp(test);
    const member = connect(SocketPaths[0], owner.token);
    const outsider = connect(SocketPaths[0], stranger.token);
    await Promise.all([connected(member), connected(outsider)]);
    expect(await member.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({ status: true });
    expect(await outsider.emitWithAck('joinProject', { projectId: stranger.projectId })).toEqual({ status: true });
    const leaked: unknown[] = [];
    outsider.onAny((event: string, payload: unknown) => leaked.push([event, payload]));
    const heard = new Promise<unknown>((resolve) => member.once('publish_scenario', resolve));

    await owner.api.call(recorderCalls.publish, {
      body: {
        projectId: owner.projectId,
        featureName: 'Live',
        scenarioName: 'Open the shop',
        commands: [
          { type: 'navigate', value: '/', path: '/' },
          { type: 'click', path: '/', element: { name: 'Shop', locators: [{ kind: 'css', value: 'a' }] } },
        ],
      },
    });
    expect(await heard).toEqual({ projectId: owner.projectId, featureName: 'Live', scenarioName: 'Open the shop' });
    await silence();
    expect(leaked).toEqual([]);
  });
  const disconnected = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

  it.each(SocketPaths)("closes a session's sockets at logout and a key's when it is revoked, on %s", async (path) => {
    const owner = await signUp(test);
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'live', projectId: owner.projectId } });
    const bySession = connect(path, owner.token);
    const byKey = connect(path, accessKey.token);
    await Promise.all([connected(bySession), connected(byKey)]);
    expect(await byKey.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({ status: true });

    const keyGone = disconnected(byKey);
    await owner.api.call(authCalls.deleteAccessKey, { body: { id: accessKey.id } });
    expect(await keyGone).toBe('io server disconnect');
    expect(bySession.connected).toBe(true);

    const sessionGone = disconnected(bySession);
    await owner.api.call(authCalls.logout);
    expect(await sessionGone).toBe('io server disconnect');
  });

  it.each(SocketPaths)("stops delivering a project's events to a member removed from it, on %s", async (path) => {
    const owner = await signUp(test);
    const member = await signUp(test);
    const access = await test.services.access.authorize(
      { kind: 'session', user: owner.user, tokenHash: '' },
      { from: 'body', field: 'id' },
      owner.projectId,
    );
    const [invitation] = await test.services.members.invite(owner.user, access, [member.email]);
    await test.services.members.accept(member.user, invitation!.id);
    const socket = connect(path, member.token);
    await connected(socket);
    expect(await socket.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({ status: true });
    expect(await socket.emitWithAck('subscribeToExecutionStatus', { projectId: owner.projectId })).toEqual({ status: true });
    const heard: string[] = [];
    socket.on('projectChanged', () => heard.push('project'));
    socket.onAny((event: string) => heard.push(event));

    await owner.api.call(authCalls.removeMemberOrInvitation, {
      body: { project_id: owner.projectId, status: 'active', user_id_to_remove: member.user.id },
    });
    await silence();
    test.services.sockets.emitToProject(owner.projectId, 'projectChanged', { projectId: owner.projectId, what: 'members' });
    test.services.sockets.emitToRoom(`execution-status:${owner.projectId}`, 'projectChanged', {
      projectId: owner.projectId,
      what: 'members',
    });
    await silence();
    expect(heard).toEqual([]);
    // Still connected (it is their session), just out of the project; and refused if it asks again.
    expect(socket.connected).toBe(true);
    expect(await socket.emitWithAck('joinProject', { projectId: owner.projectId })).toEqual({
      status: false,
      error: 'You do not have access to this project.',
    });
  });
});
