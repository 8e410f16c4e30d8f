/**
 * Job claims bench (issue 21): claim throughput with 1,000 queued jobs through the job queue door
 * (pg-boss: fetch + complete) with 1, 2 and 4 concurrent claimers, on PGlite and, with
 * DATABASE_URL, on PostgreSQL; beside the hand-written `scenario_jobs` claim (SKIP LOCKED +
 * finish, `ScenarioJobsRepo` as it was at BENCH_LEGACY_COMMIT, taken from git) on the same
 * database. Medians of BENCH_RUNS (3) runs; the load average is printed since the machine may be shared.
 *
 *   npx tsx bench/job-claims.ts      (also part of `npm run bench`; PostgreSQL with DATABASE_URL)
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JobQueue } from '../apps/server/src/jobs/job-queue.js';
import type { Db } from '../apps/server/src/db/database.js';
import { signUp, startTestApp, testBackends } from '../apps/server/src/testing/test-app.js';
import { percentile } from './stats.js';

const JOBS = 1000;
const CLAIMERS = [1, 2, 4];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The commit whose hand-written claim is the baseline (the last one before pg-boss). */
const LEGACY_COMMIT = process.env.BENCH_LEGACY_COMMIT ?? '7a2eb4e';
const root = fileURLToPath(new URL('..', import.meta.url));

interface LegacyRepo {
  enqueue(job: {
    projectId: string;
    userId: string;
    branch: string;
    featureName: string;
    scenarioName: string;
    environment: string;
  }): Promise<{ id: string }>;
  claimNext(owner: string, preferOtherMs: number): Promise<{ id: string } | undefined>;
  finish(jobId: string, owner: string, outcome: { state: 'passed'; runId: null; message: null }): Promise<unknown>;
}

/** The old `ScenarioJobsRepo`, read from git at LEGACY_COMMIT into bench/.scratch with its imports pointed at this tree. */
async function legacyRepo(db: Db): Promise<LegacyRepo> {
  const source = execFileSync('git', ['show', `${LEGACY_COMMIT}:apps/server/src/runs/scenario-jobs.repo.ts`], {
    cwd: root,
    encoding: 'utf8',
  });
  const dir = path.join(root, 'bench/.scratch/legacy-claims');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'scenario-jobs.repo.ts');
  writeFileSync(file, source.replaceAll("'../db/", `'../../../apps/server/src/db/`));
  const module = (await import(pathToFileURL(file).href)) as { ScenarioJobsRepo: new (db: Db) => LegacyRepo };
  return new module.ScenarioJobsRepo(db);
}

/** Runs `claimers` loops that each claim and finish until the queue is empty; answers jobs per second. */
async function drain(claimers: number, claimAndFinish: (claimer: number) => Promise<boolean>): Promise<number> {
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: claimers }, async (_, claimer) => {
      while (await claimAndFinish(claimer)) done += 1;
    }),
  );
  if (done !== JOBS) throw new Error(`claimed ${done} of ${JOBS} jobs`);
  return JOBS / ((performance.now() - started) / 1000);
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function bench(backend: 'pglite' | 'postgres'): Promise<void> {
  // No claim loop of the server's own: only the bench claims.
  const test = await startTestApp(backend, { WORKER_PROCESSES: '0' });
  try {
    const user = await signUp(test);
    const queue = await JobQueue.start(test.database, {
      archiveAfterSeconds: 3600,
      deleteAfterSeconds: 3600,
      maintenanceIntervalSeconds: 3600,
    });
    const legacy = await legacyRepo(test.database.db);
    for (const claimers of CLAIMERS) {
      const door: number[] = [];
      const old: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const name = `bench-${claimers}-${run}`;
        await queue.define(name, { policy: 'short' });
        for (let i = 0; i < JOBS; i += 1) {
          await queue.enqueue(
            name,
            { i },
            { id: randomUUID(), singletonKey: `k${i}`, retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 900 },
          );
        }
        door.push(
          await drain(claimers, async () => {
            const job = await queue.claim(name);
            if (!job) return false;
            await queue.complete(name, job.id, { state: 'passed' });
            return true;
          }),
        );

        await test.database.execute('delete from scenario_jobs');
        for (let i = 0; i < JOBS; i += 1) {
          await legacy.enqueue({
            projectId: user.projectId,
            userId: user.user.id,
            branch: 'main',
            featureName: 'bench',
            scenarioName: `Scenario ${i}`,
            environment: 'default',
          });
        }
        old.push(
          await drain(claimers, async (claimer) => {
            const job = await legacy.claimNext(`bench:${claimer}`, 0);
            if (!job) return false;
            await legacy.finish(job.id, `bench:${claimer}`, { state: 'passed', runId: null, message: null });
            return true;
          }),
        );
      }
      const load = loadavg()
        .map((value) => value.toFixed(2))
        .join(' ');
      console.log(
        `${backend.padEnd(8)} ${claimers} claimer(s): pg-boss door ${median(door).toFixed(0)} jobs/s, old scenario_jobs SKIP LOCKED ${median(old).toFixed(0)} jobs/s` +
          ` (medians of ${RUNS}; runs ${door.map((v) => v.toFixed(0)).join('/')} vs ${old.map((v) => v.toFixed(0)).join('/')}; load average ${load})`,
      );
    }
    await queue.stop();
  } finally {
    await test.close();
  }
}

console.log(
  `Job claims: ${JOBS} queued jobs claimed and finished; machine load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
for (const backend of testBackends()) await bench(backend);
