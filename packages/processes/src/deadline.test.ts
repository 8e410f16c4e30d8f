import { createServer, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runChild } from './child-process.js';
import { Deadline, DeadlineExceeded, describeDuration, fetchWithDeadline } from './deadline.js';

describe('Deadline', () => {
  it('fires at its limit, says it expired, and kills a child process given its signal', async () => {
    const deadline = new Deadline(300);
    const started = Date.now();
    const result = await runChild(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      cwd: process.cwd(),
      env: process.env,
      timeoutMs: 60_000,
      signal: deadline.signal,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).toBeNull();
    expect(deadline.expired).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(DeadlineExceeded);
    deadline.dispose();
  });

  it("follows the caller's signal without calling it expired, and aborts a fetch in flight", async () => {
    const stop = new AbortController();
    const deadline = new Deadline(60_000, stop.signal);
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    const pending = deadline.fetch(hanging)('http://127.0.0.1:9/');
    stop.abort(new Error('halted'));
    await expect(pending).rejects.toThrow('halted');
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    deadline.dispose();
  });

  it('reads as minutes when whole, else seconds', () => {
    expect(describeDuration(15 * 60_000)).toBe('15 minutes');
    expect(describeDuration(6_000)).toBe('6 seconds');
  });

  it('bounds each call of a fetch on its own, through a server that never answers and one that stalls mid-body', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((request, response) => {
      held.push(response);
      if (request.url === '/quick') response.end('{"ok":true}');
      // Headers and half a body, then nothing.
      else if (request.url === '/stalls') response.writeHead(200, { 'content-type': 'application/json' }).write('{"job":');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const bounded = fetchWithDeadline(fetch, 1_000);
    try {
      const started = Date.now();
      await expect(bounded(`${base}/silent`)).rejects.toThrow('The deadline of 1 second passed.');
      const stalled = await bounded(`${base}/stalls`);
      await expect(stalled.json()).rejects.toThrow('The deadline of 1 second passed.');
      expect(Date.now() - started).toBeLessThan(15_000);
      // Each call has its own deadline: one that ran out does not touch the next.
      expect(await (await bounded(`${base}/quick`)).json()).toEqual({ ok: true });
    } finally {
      for (const response of held) response.destroy();
      server.close();
    }
  });
});
