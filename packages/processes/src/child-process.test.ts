import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runChild, startNodeProgram, stopChild } from './child-process.js';

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

  it('starts a Node program that talks over IPC and stops when its parent goes away', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'node-program-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const script = path.join(folder, 'program.mjs');
    writeFileSync(
      script,
      "process.on('message', (m) => process.send({ echo: m, args: process.argv.slice(2) })); process.on('disconnect', () => { console.error('parent gone'); process.exit(3); });",
    );
    const child = startNodeProgram(script, ['one'], { env: process.env, stdout: 'ignore', stderr: 'pipe', serialization: 'advanced' });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const reply = new Promise((resolve) => child.once('message', resolve));
    child.send(Buffer.from('frame'));
    // Advanced serialization carries bytes as bytes.
    expect(await reply).toEqual({ echo: Buffer.from('frame'), args: ['one'] });
    child.disconnect();
    expect(await exited).toBe(3);
    expect(stderr).toContain('parent gone');
  });
});
