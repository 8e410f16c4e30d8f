import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LocalWorkers } from './local-workers.js';
import type { WorkerTokens } from './worker-tokens.js';

/**
 * The pids of the `rehearse worker` processes started for `serverUrl` (their command line names it,
 * followed by --threads: a server on port 9123 of another test is not port 9).
 */
function workerPids(serverUrl: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `worker --server ${serverUrl} --threads`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Single-machine installs start their own worker processes and start another when one dies (issue
 * 23's rough edge: the server must not start one while it is shutting down).
 */
describe('local workers', () => {
  it('start another worker when one dies, and none while the server stops', async () => {
    // A port nothing listens on: the worker keeps trying to reach its server, which is all this needs.
    const serverUrl = 'http://127.0.0.1:9';
    const tokens = {
      create: async () => ({ id: 'token-1', token: 'rwt_local_workers_test' }),
      delete: async () => true,
    } as unknown as WorkerTokens;
    const warnings: string[] = [];
    const workers = new LocalWorkers(
      tokens,
      {
        processes: 1,
        threads: 1,
        jobTimeoutMs: 60_000,
        serverUrl: () => serverUrl,
        unsandboxed: true,
        allowPrivateTargets: false,
        processPerScenario: false,
      },
      { info: () => undefined, warn: (_details, message) => warnings.push(message) },
    );
    try {
      await workers.start();
      await until(() => workerPids(serverUrl).length === 1, 'the first worker');
      const [first] = workerPids(serverUrl);
      process.kill(first!, 'SIGKILL');
      await until(() => workerPids(serverUrl).some((pid) => pid !== first), 'a worker started in its place');
      expect(warnings).toEqual(['local worker exited; starting another']);

      await workers.stop();
      expect(workerPids(serverUrl)).toEqual([]);
      // Past the restart delay (2 s): nothing was started again.
      await sleep(3_000);
      expect(workerPids(serverUrl)).toEqual([]);
      expect(warnings).toHaveLength(1);
    } finally {
      await workers.stop();
      for (const pid of workerPids(serverUrl)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});
