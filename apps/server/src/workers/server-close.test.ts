import { workerCalls } from '@rehearse/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('a server closing while worker agents long-poll', () => {
  let test: TestApp | undefined;
  afterAll(async () => test?.close().catch(() => undefined));

  it('closes at once: the waiting claim answers "no job" and its keep-alive connection ends with the answer', async () => {
    test = await startTestApp('pglite');
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const { token } = await test.services.workerTokens.create('closing test');
    // A real HTTP claim on a keep-alive connection, as `rehearse worker` makes it, waiting 20 s for a job.
    const claim = fetch(`${address}${workerCalls.claim.path}`, {
      method: workerCalls.claim.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workerId: 'agent-1', waitMs: 20_000 }),
    });
    await sleep(500);

    // Before, close() waited out the claim's 20 s and then hung on its idle keep-alive socket.
    const closed = await Promise.race([test.app.close().then(() => 'closed'), sleep(10_000).then(() => 'still open')]);
    expect(closed).toBe('closed');
    const answer = await claim;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.json()).toEqual({ status: true, job: null });
  });
});
