import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/output.js';
import { makeWorkspace, startDemoShop } from '../testing/shop-workspace.js';
import { processIo } from './io.js';
import { closeSharedBrowser } from '../support/world.js';
import { runRun, type InProcessRunOptions } from './run.js';

/** Chromium processes this test process has as children (Playwright spawns the browser as our child). */
function chromiumChildrenNow(): number[] {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-o', 'pid=,stat=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are no children
  }
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat, comm]) => stat && !stat.startsWith('Z') && /chrom/i.test(comm ?? ''))
    .map(([pid]) => Number(pid));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Worker threads run one scenario per `runRun` in one process. This file shares its vitest worker
// process with other files (isolate: false): an earlier file may have left a kept browser or a
// closed one still exiting. So the kept browser is closed first, and the browsers counted are those
// started here. Here the support code cucumber imports is another instance of world.ts than the one
// this file imports (vitest's own): two CI runs failed when a close through one left the other's
// kept browser running, so the last step closes through this file's instance.
describe('runs of one long-lived process (a worker thread)', () => {
  let shop: { app: FastifyInstance; baseUrl: string };
  let ws: string;
  let earlier = new Set<number>();
  const chromiumChildren = () => chromiumChildrenNow().filter((pid) => !earlier.has(pid));

  beforeAll(async () => {
    await closeSharedBrowser();
    earlier = new Set(chromiumChildrenNow());
    shop = await startDemoShop();
    ws = makeWorkspace({ baseUrl: shop.baseUrl });
  });
  afterAll(async () => {
    await shop?.app.close();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  const run = async (inProcess: InProcessRunOptions) => {
    const io = captureIo();
    const { exitCode: code } = await runRun(
      ['--env', 'environments/default.json', '--scenario', 'Search finds the mug', '--out', path.join(ws, 'out'), '--headless'],
      { ...processIo(), cwd: ws, stdout: io.stdout, stderr: io.stderr },
      inProcess,
    );
    return { code, out: io.out() };
  };

  it('keeps one Chromium across runs with keepBrowser, relaunches it when it died, a plain run still closes its own, and closing the kept one closes it', async () => {
    expect(chromiumChildren()).toEqual([]);
    expect((await run({ keepBrowser: true })).code).toBe(0);
    const first = chromiumChildren();
    expect(first).toHaveLength(1);
    expect((await run({ keepBrowser: true })).code).toBe(0);
    expect(chromiumChildren()).toEqual(first);

    // The kept browser dies between two jobs: the next scenario runs in a new one.
    process.kill(first[0]!, 'SIGKILL');
    while (existsSync(`/proc/${first[0]}`)) await sleep(50);
    const afterCrash = await run({ keepBrowser: true });
    expect(afterCrash.out).toContain('1 scenario: 1 passed, 0 failed');
    const relaunched = chromiumChildren();
    expect(relaunched).toHaveLength(1);
    expect(relaunched).not.toEqual(first);

    // `rehearse run` as before: its browser is gone when it returns.
    expect((await run({})).code).toBe(0);
    expect(chromiumChildren()).toEqual([]);

    // A worker closing its kept browser closes the one its runs' support code launched.
    expect((await run({ keepBrowser: true })).code).toBe(0);
    expect(chromiumChildren()).toHaveLength(1);
    await closeSharedBrowser();
    expect(chromiumChildren()).toEqual([]);
  });
});
