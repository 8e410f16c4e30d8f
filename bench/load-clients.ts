import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

/**
 * The client side of bench/load.ts: many concurrent API clients issuing a weighted mix of calls.
 * It runs in a worker thread so that issuing requests and reading bodies does not share an event
 * loop with the server (and, for PGlite, the database) it measures.
 */

export interface MixedRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface Operation {
  name: string;
  /** Share of the mix (weights are relative). */
  weight: number;
  write: boolean;
}

export interface MixJob {
  /** http://127.0.0.1:port */
  base: string;
  projects: { id: string; token: string }[];
  clientsPerProject: number;
  operations: Operation[];
  durationMs: number;
  /** Fixed seed: every run issues the same sequence of operations. */
  seed: number;
}

export interface MixResult {
  byOperation: Record<string, { latenciesMs: number[]; errors: number; firstError: string | null }>;
  elapsedMs: number;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One request of an operation for a client of a project; `n` makes every write distinct. */
function request(op: string, projectId: string, client: number, n: number): MixedRequest {
  const stamp = `${client}-${n}`;
  switch (op) {
    case 'push-file':
      return {
        method: 'POST',
        path: '/api/workspace/push-file',
        body: { projectId, directory: `notes/c${client}`, file: { name: `n${n % 20}.txt`, content: `note ${stamp}\n` } },
      };
    case 'push-scenario':
      return {
        method: 'POST',
        path: '/api/workspace/push-scenario',
        body: {
          projectId,
          name: `area${client % 10}`,
          // Replaces one of the seeded scenarios (index 0..4), as an editor's save does.
          scenarioIndex: n % 5,
          data: `@smoke\nScenario: Edited ${stamp}\n  Given I open "/demo-shop/"\n  When I search the catalogue for "${stamp}"\n  Then I should see "${stamp}"\n`,
        },
      };
    case 'run-upload': {
      const time = new Date().toISOString();
      const ok = { status: 'PASSED' as const, startTime: time, endTime: time };
      return {
        method: 'POST',
        path: '/api/runs/upload',
        body: {
          projectId,
          uploadKey: `load-${stamp}-${Math.random().toString(36).slice(2)}`,
          report: {
            name: `Load ${stamp}`,
            env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
            startTime: time,
            endTime: time,
            mode: 'local',
            browser: 'chromium',
            viewport: { width: 1024, height: 768 },
            testCases: Array.from({ length: 5 }, (_, i) => ({
              id: `tc-${stamp}-${i}`,
              scenarioName: `Case ${i}`,
              featureName: 'Checkout',
              uri: 'features/area0.feature',
              tags: ['@smoke'],
              result: ok,
              parameters: {},
              steps: [
                { keyword: 'Given', type: 'Context', text: 'I open "/demo-shop/"', result: ok, commands: [], networkData: [], webLog: [] },
              ],
              env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
              webLog: [],
              networkLog: [],
            })),
          },
        },
      };
    }
    case 'features':
      return { method: 'POST', path: '/api/workspace/get-feature-list', body: { projectId } };
    case 'test-data':
      return { method: 'GET', path: `/api/workspace/testData?projectId=${projectId}` };
    case 'environments':
      return { method: 'POST', path: '/api/workspace/get-env-list', body: { projectId } };
    case 'me':
      return { method: 'GET', path: '/api/auth/me' };
    case 'members':
      return { method: 'GET', path: `/api/auth/getMembers?project_id=${projectId}` };
    case 'reports':
      return { method: 'POST', path: '/api/runs/project/getDetails', body: { projectId } };
    default:
      throw new Error(`unknown operation ${op}`);
  }
}

async function runMix(job: MixJob): Promise<MixResult> {
  if (new URL(job.base).hostname !== '127.0.0.1') throw new Error(`refusing non-loopback target ${job.base}`);
  const byOperation: MixResult['byOperation'] = {};
  for (const op of job.operations) byOperation[op.name] = { latenciesMs: [], errors: 0, firstError: null };
  const totalWeight = job.operations.reduce((sum, op) => sum + op.weight, 0);
  const started = performance.now();
  const deadline = started + job.durationMs;

  async function client(project: { id: string; token: string }, index: number): Promise<void> {
    const next = random(job.seed + index);
    for (let n = 0; performance.now() < deadline; n += 1) {
      let pick = next() * totalWeight;
      const op = job.operations.find((candidate) => (pick -= candidate.weight) < 0) ?? job.operations.at(-1)!;
      const call = request(op.name, project.id, index, n);
      const stats = byOperation[op.name]!;
      const t0 = performance.now();
      try {
        const response = await fetch(`${job.base}${call.path}`, {
          method: call.method,
          headers: { authorization: `Bearer ${project.token}`, ...(call.body ? { 'content-type': 'application/json' } : {}) },
          ...(call.body ? { body: JSON.stringify(call.body) } : {}),
        });
        const text = await response.text();
        stats.latenciesMs.push(performance.now() - t0);
        if (response.status !== 200 || !text.startsWith('{"status":true')) {
          stats.errors += 1;
          stats.firstError ??= `${response.status} ${text.slice(0, 200)}`;
        }
      } catch (error) {
        stats.latenciesMs.push(performance.now() - t0);
        stats.errors += 1;
        stats.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  }

  const clients = job.projects.flatMap((project, p) =>
    Array.from({ length: job.clientsPerProject }, (_, c) => client(project, p * job.clientsPerProject + c)),
  );
  await Promise.all(clients);
  return { byOperation, elapsedMs: performance.now() - started };
}

parentPort?.on('message', (job: MixJob) => {
  runMix(job).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
