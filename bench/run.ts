/**
 * API latency bench: seeds a user who belongs to 1,000 projects of 50 members each, serves the real
 * app on 127.0.0.1, and measures getProjects and getMembers over HTTP against the budget
 * "API p99 ≤ 50 ms", on PGlite and (when configured) PostgreSQL.
 *
 *   npm run bench                       PGlite only
 *   npm run bench -- --postgres         also PostgreSQL at postgres://postgres@127.0.0.1:5432/test
 *   DATABASE_URL=… npm run bench        also PostgreSQL at that URL
 *   --explain                           print EXPLAIN ANALYZE of the queries even when within budget
 *   --no-analyze                        skip VACUUM ANALYZE after seeding (an embedded database never gets one)
 *   --with-indexes                      add the indexes proposed in seed.ts to the bench database (what-if)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createApiClient } from '@rehearse/api-client';
import { authCalls } from '@rehearse/contract';
import { DEMO_SHOP_PATH } from '@rehearse/demo-shop';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { bossSchemaOf } from '../apps/server/src/jobs/job-queue.js';
import { loadSettings } from '../apps/server/src/env.js';
import { diagnose, type Diagnosis } from './explain.js';
import type { LoadJob, LoadResult } from './load-worker.js';
import { SEED, seed, type SeedReport } from './seed.js';
import { percentile } from './stats.js';

const BUDGET_P99_MS = 50;
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Counts and time caps per phase: bounded both ways so the whole run stays within ~3 minutes on 2 cores. */
const PHASES = {
  warmup: { requests: 50, concurrency: 1, maxMs: 5_000 },
  sequential: { requests: 300, concurrency: 1, maxMs: 15_000 },
  concurrent: { requests: 400, concurrency: 8, maxMs: 15_000 },
} as const;
type MeasuredPhase = 'sequential' | 'concurrent';

type Backend = 'pglite' | 'postgres';
type Endpoint = 'getProjects' | 'getMembers';

interface Figures {
  endpoint: Endpoint;
  phase: MeasuredPhase;
  concurrency: number;
  requests: number;
  errors: number;
  firstError: string | null;
  stoppedByTime: boolean;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  requestsPerSecond: number;
  responseBytes: number;
}

interface BackendReport {
  backend: Backend;
  /** One-minute load average before and after the measurements; above the core count, other processes competed for the CPU. */
  loadAverage: { before: number; after: number };
  seed: SeedReport;
  figures: Figures[];
  diagnosis?: Diagnosis;
}

const args = new Set(process.argv.slice(2));
const postgresUrl = process.env.DATABASE_URL || (args.has('--postgres') ? DEFAULT_POSTGRES_URL : undefined);
const backends: Backend[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];
const analyze = !args.has('--no-analyze');
const proposedIndexes = args.has('--with-indexes');
const benchDir = path.dirname(fileURLToPath(import.meta.url));

function loadAverage(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

/** Nearest-rank percentile of sorted samples. */

function summarize(endpoint: Endpoint, phase: MeasuredPhase, concurrency: number, result: LoadResult): Figures {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    endpoint,
    phase,
    concurrency,
    requests: sorted.length,
    errors: result.errors,
    firstError: result.firstError,
    stoppedByTime: result.stoppedByTime,
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
    meanMs: round(sorted.reduce((sum, n) => sum + n, 0) / Math.max(1, sorted.length)),
    requestsPerSecond: round(sorted.length / (result.elapsedMs / 1000)),
    responseBytes: result.responseBytes,
  };
}

/**
 * Starts load-worker.ts in a worker thread. tsx's loader does not reach worker threads on Node 20,
 * so the worker's entry is a line of plain JavaScript that loads the TypeScript file through tsx's API.
 */
function startLoadWorker() {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const target = new URL('./load-worker.ts', import.meta.url).href;
  const entry = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(target)}, ${JSON.stringify(target)}))`;
  const worker = new Worker(entry, { eval: true });
  let pending: { resolve: (result: LoadResult) => void; reject: (error: Error) => void } | null = null;
  // A worker that failed to load or exited would never answer; later jobs must fail instead of hanging.
  let dead: Error | null = null;
  const fail = (error: Error) => {
    dead ??= error;
    pending?.reject(error);
    pending = null;
  };
  worker.on('message', (message: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
    if (message.ok) pending?.resolve(message.result);
    else pending?.reject(new Error(message.error));
    pending = null;
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`load worker exited with code ${code}`)));
  return {
    run(job: LoadJob): Promise<LoadResult> {
      if (dead) return Promise.reject(dead);
      if (pending) return Promise.reject(new Error('one load job at a time'));
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage(job);
      });
    },
    close: () => worker.terminate(),
  };
}

async function benchBackend(backend: Backend, load: ReturnType<typeof startLoadWorker>): Promise<BackendReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rehearse-bench-'));
  const settings = loadSettings({
    DATA_DIR: dataDir,
    REHEARSE_SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://rehearse.bench',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });
  const schemaName = backend === 'postgres' ? `b_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase({
    url: backend === 'postgres' ? postgresUrl : undefined,
    pgliteDir: 'memory',
    ...(schemaName ? { schemaName } : {}),
  });
  try {
    const { app, services } = await buildApp({ settings, database, logger: false, demoShopDelayMs: 0 });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

      const email = `bench-${randomBytes(4).toString('hex')}@bench.test`;
      const signup = await createApiClient({ baseUrl }).call(authCalls.signup, {
        body: { email, password: randomBytes(12).toString('hex'), firstname: 'Bench', lastname: 'User' },
      });
      const user = await services.users.findByEmail(email);
      if (!user) throw new Error('bench user not found after sign-up');

      const seeded = await seed(database, user.id, `${settings.publicUrl}${DEMO_SHOP_PATH}/`, { analyze, proposedIndexes });
      console.log(
        `\n[${backend}] seeded in ${(seeded.ms / 1000).toFixed(1)} s${seeded.analyzed ? ' (incl. VACUUM ANALYZE)' : ' (no ANALYZE)'}: ` +
          `${seeded.rows.users} users, ${seeded.rows.projects} projects, ${seeded.rows.projectMembers} memberships, ` +
          `${seeded.rows.invitations} invitations`,
      );
      for (const statement of seeded.proposedIndexes) console.log(`[${backend}] what-if, not in the server's schema: ${statement}`);

      const api = createApiClient({ baseUrl, getToken: () => signup.token });
      const { projects } = await api.call(authCalls.getProjects);
      if (projects.length !== SEED.projects) throw new Error(`getProjects answered ${projects.length} projects, expected ${SEED.projects}`);
      const sample = projects[0];
      if (!sample) throw new Error('no project');
      const { members } = await api.call(authCalls.getMembers, { query: { project_id: sample._id } });
      const expectedMembers = SEED.membersPerProject + SEED.pendingInvitations;
      if (members.length !== expectedMembers) {
        throw new Error(`getMembers answered ${members.length} entries, expected ${expectedMembers}`);
      }

      const urls: Record<Endpoint, string[]> = {
        getProjects: [`${baseUrl}${authCalls.getProjects.path}`],
        // A different project on each request, so no single project's rows stay hot.
        getMembers: projects.map((p) => `${baseUrl}${authCalls.getMembers.path}?project_id=${p._id}`),
      };
      const figures: Figures[] = [];
      const loadBefore = loadAverage();
      for (const endpoint of ['getProjects', 'getMembers'] as const) {
        await load.run({ urls: urls[endpoint], token: signup.token, ...PHASES.warmup });
        for (const phase of ['sequential', 'concurrent'] as const) {
          const result = await load.run({ urls: urls[endpoint], token: signup.token, ...PHASES[phase] });
          figures.push(summarize(endpoint, phase, PHASES[phase].concurrency, result));
        }
      }
      const loadAfter = loadAverage();
      printTable(backend, figures);
      if (Math.max(loadBefore, loadAfter) > cpus().length) {
        console.log(
          `! load average ${loadBefore} before, ${loadAfter} after, on ${cpus().length} cores: other processes competed for the CPU and these latencies are inflated`,
        );
      }

      const report: BackendReport = { backend, loadAverage: { before: loadBefore, after: loadAfter }, seed: seeded, figures };
      const overBudget = figures.some((f) => !(f.p99Ms <= BUDGET_P99_MS));
      if (args.has('--explain') || overBudget) {
        report.diagnosis = await diagnose(database, services, { userId: user.id, token: signup.token, projectId: sample._id });
        printDiagnosis(backend, report.diagnosis);
      }
      return report;
    } finally {
      await app.close();
    }
  } finally {
    try {
      if (schemaName) {
        await database.execute(`DROP SCHEMA "${schemaName}" CASCADE`);
        await database.execute(`DROP SCHEMA IF EXISTS "${bossSchemaOf(schemaName)}" CASCADE`);
      }
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

function printTable(backend: Backend, figures: Figures[]): void {
  const header = ['endpoint', 'mode', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'req/s', 'bytes', 'errors'];
  const rows = figures.map((f) => [
    f.endpoint,
    f.phase === 'sequential' ? 'sequential' : `${f.concurrency} at once`,
    `${f.requests}${f.stoppedByTime ? '*' : ''}`,
    f.p50Ms.toFixed(1),
    f.p90Ms.toFixed(1),
    f.p99Ms.toFixed(1),
    f.maxMs.toFixed(1),
    f.requestsPerSecond.toFixed(0),
    String(f.responseBytes),
    String(f.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  console.log(`[${backend}${proposedIndexes ? ' + proposed indexes' : ''}]`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  if (figures.some((f) => f.stoppedByTime)) console.log('* stopped by the phase time cap');
  for (const f of figures.filter((x) => x.firstError)) console.log(`${f.endpoint} ${f.phase}: first error ${f.firstError}`);
}

function printDiagnosis(backend: Backend, diagnosis: Diagnosis): void {
  console.log(`\n[${backend}] EXPLAIN (ANALYZE, BUFFERS) of the queries behind each request`);
  for (const q of diagnosis.queries) {
    console.log(`-- ${q.name}: execution ${q.executionMs ?? '?'} ms (median, without per-node timing), planning ${q.planningMs ?? '?'} ms`);
    for (const l of q.plan) console.log(`   ${l}`);
  }
  console.log(`\n[${backend}] getProjects, in-process, median of 15:`);
  for (const s of diagnosis.getProjectsStages) console.log(`   ${s.name.padEnd(48)} ${s.medianMs.toFixed(2)} ms`);
}

function verdict(reports: BackendReport[]): string {
  const all = reports.flatMap((r) => r.figures.map((f) => ({ backend: r.backend, ...f })));
  const label = (f: (typeof all)[number]) =>
    `${f.backend} ${f.endpoint} ${f.phase === 'sequential' ? 'sequential' : `×${f.concurrency}`} p99 ${f.p99Ms.toFixed(1)} ms`;
  const scope = proposedIndexes ? ' (with the proposed indexes, not the shipped schema)' : '';
  const failing = all.filter((f) => !(f.p99Ms <= BUDGET_P99_MS) || f.errors > 0);
  if (failing.length > 0) return `FAIL: API p99 ≤ ${BUDGET_P99_MS} ms not met${scope} by ${failing.map(label).join('; ')}`;
  const worst = all.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
  return `PASS: API p99 ≤ ${BUDGET_P99_MS} ms met everywhere${scope}; worst ${label(worst)}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const load = startLoadWorker();
  const reports: BackendReport[] = [];
  try {
    for (const backend of backends) reports.push(await benchBackend(backend, load));
  } finally {
    await load.close();
  }
  const line = verdict(reports);
  const resultsDir = path.join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'api-latency.json');
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        machine: {
          node: process.version,
          platform: `${process.platform}-${process.arch}`,
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model,
        },
        budget: { p99Ms: BUDGET_P99_MS },
        seed: { ...SEED, analyzed: analyze, proposedIndexes },
        phases: PHASES,
        backends: reports,
        totalSeconds: Math.round((performance.now() - started) / 100) / 10,
        verdict: line,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nFigures written to ${path.relative(process.cwd(), file)} (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  console.log(`Verdict: ${line}`);
}

await main();
