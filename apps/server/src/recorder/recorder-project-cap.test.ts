import { randomUUID } from 'node:crypto';
import { recorderCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

describe('cloud recorder per-project cap', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite', { RECORDER_PROJECT_CAPACITY: '1' });
  });
  afterAll(async () => test?.close());

  it('refuses one more session on a full project with the limit in words, and leaves other projects free', async () => {
    const busy = await signUp(test);
    const other = await signUp(test);
    // A session without a browser holds the project's one place.
    test.services.recorder.track(
      {
        id: randomUUID(),
        userId: busy.user.id,
        projectId: busy.projectId,
        env: 'default',
        branch: 'main',
        url: 'http://shop.test/',
        createdAt: new Date(),
      },
      { pid: undefined, send: () => undefined, stop: async () => undefined },
    );
    const full = await failure(busy.api.call(recorderCalls.createConnection, { body: { projectId: busy.projectId, env: 'no-such-env' } }));
    expect([full.httpStatus, full.message]).toEqual([
      503,
      'This project is already using all of its 1 cloud recorder sessions. Try again when one of them ends.',
    ]);
    // Another project passes the cap and fails only on its unknown environment.
    const free = await failure(
      other.api.call(recorderCalls.createConnection, { body: { projectId: other.projectId, env: 'no-such-env' } }),
    );
    expect(free.httpStatus).toBe(404);
  });
});
