import { describe, expect, it } from 'vitest';
import { runChild } from './child-process.js';
import { Deadline, DeadlineExceeded, describeDuration } from './deadline.js';

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
});
