import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { breakBrowserLaunch } from '../testing/broken-browser.js';
import { makeWorkspace } from '../testing/shop-workspace.js';
import { captureIo } from '../testing/output.js';
import { closeSharedBrowser } from '../support/world.js';
import { processIo } from './io.js';
import { SupportCache, warmUp } from './run.js';

const STEP_FILE_THAT_THROWS = `throw new Error('the step file could not load: a missing helper');\n`;
/** A step file that counts its imports. */
const COUNTING_STEP_FILE = `globalThis.warmUpLoads = (globalThis.warmUpLoads ?? 0) + 1;\n`;
const loads = globalThis as { warmUpLoads?: number };
const made: string[] = [];

/** A workspace of the shop's steps (or the given step file), pointed at an address nothing answers: warming up never browses. */
function workspace(steps?: string): string {
  const dir = makeWorkspace({ baseUrl: 'http://127.0.0.1:9/', ...(steps ? { steps } : {}) });
  made.push(dir);
  return dir;
}

/** Runs `work` with a "browser" that exits at once, then puts the machine's back. */
async function withBrowserThatCannotStart<T>(work: () => Promise<T>): Promise<T> {
  const restore = breakBrowserLaunch();
  try {
    return await work();
  } finally {
    restore();
  }
}

describe('warmUp (a warm runner readies its workspace: support code and browser at once)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-warm-up-'));
  made.push(scratch);
  afterEach(async () => {
    await closeSharedBrowser();
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const warm = (cwd: string, cache = new SupportCache(scratch)) => warmUp(cwd, { ...processIo(), ...captureIo(), cwd }, cache);

  it('loads the support code once, into the cache the runs read', { timeout: 60_000 }, async () => {
    const cwd = workspace(COUNTING_STEP_FILE);
    const cache = new SupportCache(scratch);
    await warm(cwd, cache);
    await warm(cwd, cache);
    expect(loads.warmUpLoads).toBe(1);
  });

  it('says the browser did not start when only the browser fails', { timeout: 60_000 }, async () => {
    const cwd = workspace();
    const failure = await withBrowserThatCannotStart(() =>
      warm(cwd).then(
        () => undefined,
        (error: Error) => error,
      ),
    );
    expect(failure?.message).toMatch(/^The browser did not start: /);
  });

  it("reports the step file's error, the one a user can fix, when the browser fails as well", { timeout: 60_000 }, async () => {
    const cwd = workspace(STEP_FILE_THAT_THROWS);
    const failure = await withBrowserThatCannotStart(() =>
      warm(cwd).then(
        () => undefined,
        (error: Error) => error,
      ),
    );
    expect(failure?.message).toContain('the step file could not load: a missing helper');
  });
});
