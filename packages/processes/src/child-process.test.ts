import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runChild, stopChild } from './child-process.js';

/** Running, not gone and not a zombie waiting for a parent that never reaps (PID 1 in a container may not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('child processes', () => {
  it('kills the whole tree at the deadline, not only the parent', async () => {
    const script =
      "const c = require('node:child_process').spawn('sleep', ['300'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);";
    const result = await runChild(process.execPath, ['-e', script], { cwd: process.cwd(), env: process.env, timeoutMs: 1500 });
    expect(result.timedOut).toBe(true);
    const grandchild = Number(result.stdout.trim());
    await expect.poll(() => alive(grandchild)).toBe(false);
  });

  it('stops a child that listens when asked, without killing it', async () => {
    const child = spawn(process.execPath, [
      '-e',
      "process.on('SIGTERM', () => process.exit(7)); console.log('ready'); setInterval(() => {}, 1000);",
    ]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await stopChild(child, { ask: () => child.kill('SIGTERM'), graceMs: 10_000 });
    expect(child.exitCode).toBe(7);
  });

  it("kills a child that ignores the request once its grace is over, with its group's processes", async () => {
    const script =
      "process.on('SIGTERM', () => {}); const c = require('node:child_process').spawn('sleep', ['300'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const grandchild = await new Promise<number>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString()))),
    );
    const started = Date.now();
    await stopChild(child, { ask: () => child.kill('SIGTERM'), graceMs: 500, group: true });
    expect(child.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    await expect.poll(() => alive(grandchild)).toBe(false);
  });

  it('returns at once for a child that already exited', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.once('exit', resolve));
    let asked = false;
    await stopChild(child, { ask: () => (asked = true), graceMs: 10_000 });
    expect(asked).toBe(false);
  });
});
