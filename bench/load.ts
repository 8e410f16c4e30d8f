/**
 * Load bench (issue 24 item 3): 50 API clients on loopback for a bounded time, 70 % reads and
 * 30 % writes, 5 projects with 10 clients each, on PGlite and (with DATABASE_URL) on PostgreSQL.
 * Prints p50, p99 and throughput per operation against the targets: writes p99 ≤ 1 s, reads
 * p99 ≤ 200 ms, 0 errors, ≥ 100 requests/s overall. A single-writer micro-bench (200 sequential
 * push-file calls) comes first: it is less sensitive to what else the machine is doing.
 *
 *   npx tsx bench/load.ts [--seconds 30] [--only pglite|postgres]   (also part of `npm run bench`)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, workspaceCalls } from '@rehearse/contract';
import { startTestApp, type Backend } from '../apps/server/src/testing/test-app.js';
import type { MixJob, MixResult, Operation } from './load-clients.js';
import { percentile } from './stats.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const SECONDS = Number(argument('seconds') ?? 30);
const ONLY = argument('only');
const PROJECTS = 5;
const CLIENTS_PER_PROJECT = 10;
const SEQUENTIAL_WRITES = 200;
const TARGETS = { writeP99Ms: 1000, readP99Ms: 200, requestsPerSecond: 100 };

/** 70 % reads, 30 % writes. */
const OPERATIONS: Operation[] = [
  { name: 'push-file', weight: 12, write: true },
  { name: 'push-scenario', weight: 12, write: true },
  { name: 'run-upload', weight: 6, write: true },
  { name: 'features', weight: 14, write: false },
  { name: 'test-data', weight: 10, write: false },
  { name: 'environments', weight: 10, write: false },
  { name: 'me', weight: 12, write: false },
  { name: 'members', weight: 12, write: false },
  { name: 'reports', weight: 12, write: false },
];

function scenario(feature: number, index: number): string {
  return `  @area${feature} @regression\n  Scenario: Case ${feature}-${index}\n    Given I open "/demo-shop/"\n    When I search the catalogue for item ${index}\n    Then I should see "item ${index}"\n`;
}

/** Starts load-clients.ts in a worker thread (through tsx's API: its loader does not reach workers on Node 20). */
function startClients() {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const target = new URL('./load-clients.ts', import.meta.url).href;
  const entry = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(target)}, ${JSON.stringify(target)}))`;
  const worker = new Worker(entry, { eval: true });
  return {
    run(job: MixJob): Promise<MixResult> {
      return new Promise((resolve, reject) => {
        worker.once('message', (message: { ok: true; result: MixResult } | { ok: false; error: string }) =>
          message.ok ? resolve(message.result) : reject(new Error(message.error)),
        );
        worker.once('error', reject);
        worker.postMessage(job);
      });
    },
    close: () => worker.terminate(),
  };
}

interface Row {
  operation: string;
  write: boolean;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  firstError: string | null;
}

async function benchBackend(backend: Backend) {
  const test = await startTestApp(backend);
  const { app } = test;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const clients = startClients();
  try {
    const anonymous = createApiClient({ baseUrl: base });
    const projects: { id: string; token: string }[] = [];
    for (let p = 0; p < PROJECTS; p += 1) {
      const { token, project } = await anonymous.call(authCalls.signup, {
        body: { email: `load${p}@acme.test`, password: 'bench password', firstname: 'Load', lastname: `Owner${p}` },
      });
      const api = createApiClient({ baseUrl: base, getToken: () => token });
      // 10 features of 5 scenarios, a few rows of test data, three environments.
      for (let f = 0; f < 10; f += 1) {
        await api.call(workspaceCalls.pushFile, {
          body: {
            projectId: project._id,
            directory: 'features',
            file: {
              name: `area${f}.feature`,
              content: `Feature: Area ${f}\n\n${Array.from({ length: 5 }, (_, i) => scenario(f, i)).join('\n')}`,
            },
          },
        });
      }
      await api.call(workspaceCalls.changeTestData, {
        body: {
          projectId: project._id,
          testData: Array.from({ length: 10 }, (_, i) => ({ key: `key${i}`, value: `value ${i}`, DataType: 'string', environment: '*' })),
        },
      });
      for (const name of ['staging', 'production']) {
        await api.call(workspaceCalls.pushEnv, {
          body: { projectId: project._id, name, data: { baseUrl: `https://${name}.example.com` } },
        });
      }
      projects.push({ id: project._id, token });
    }

    // Single writer: 200 sequential push-file calls to one project.
    const api = createApiClient({ baseUrl: base, getToken: () => projects[0]!.token });
    const sequential: number[] = [];
    const sequentialStarted = performance.now();
    for (let i = 0; i < SEQUENTIAL_WRITES; i += 1) {
      const t0 = performance.now();
      await api.call(workspaceCalls.pushFile, {
        body: { projectId: projects[0]!.id, directory: 'single', file: { name: `s${i % 10}.txt`, content: `write ${i}\n` } },
      });
      sequential.push(performance.now() - t0);
    }
    const sequentialMs = performance.now() - sequentialStarted;
    sequential.sort((a, b) => a - b);
    const single = {
      writes: SEQUENTIAL_WRITES,
      p50Ms: percentile(sequential, 50),
      p99Ms: percentile(sequential, 99),
      perSecond: SEQUENTIAL_WRITES / (sequentialMs / 1000),
    };

    const load = loadavg()[0]!;
    // Per-request costs read less of the machine's other load than latencies do: the server's
    // thread busy time (event-loop utilisation) and the process's CPU (server, database thread and
    // the clients' thread; git's processes not included).
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const delays = monitorEventLoopDelay({ resolution: 5 });
    delays.enable();
    const result = await clients.run({
      base,
      projects,
      clientsPerProject: CLIENTS_PER_PROJECT,
      operations: OPERATIONS,
      durationMs: SECONDS * 1000,
      seed: 24,
    });
    const elu = performance.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    delays.disable();
    console.log(
      `  event-loop delay: p50 ${(delays.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(delays.percentile(99) / 1e6).toFixed(1)} ms, max ${(delays.max / 1e6).toFixed(1)} ms`,
    );
    const seconds = result.elapsedMs / 1000;
    const rows: Row[] = OPERATIONS.map((op) => {
      const stats = result.byOperation[op.name]!;
      const sorted = [...stats.latenciesMs].sort((a, b) => a - b);
      return {
        operation: op.name,
        write: op.write,
        requests: sorted.length,
        errors: stats.errors,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        perSecond: sorted.length / seconds,
        firstError: stats.firstError,
      };
    });
    const total = rows.reduce((sum, row) => sum + row.requests, 0);
    const errors = rows.reduce((sum, row) => sum + row.errors, 0);
    return {
      backend,
      seconds,
      loadAverageBefore: load,
      loadAverageAfter: loadavg()[0]!,
      single,
      rows,
      total,
      errors,
      perSecond: total / seconds,
      serverThreadUtilisation: elu.utilization,
      serverThreadMsPerRequest: elu.active / total,
      processCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / total,
    };
  } finally {
    await clients.close();
    await test.close();
  }
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`);

async function main(): Promise<void> {
  const backends: Backend[] = ONLY ? [ONLY as Backend] : process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const reports = [];
  let met = true;
  for (const backend of backends) {
    const report = await benchBackend(backend);
    reports.push(report);
    console.log(
      `\nLoad bench on ${backend}: ${PROJECTS * CLIENTS_PER_PROJECT} clients, ${PROJECTS} projects, ${report.seconds.toFixed(1)} s (load average ${report.loadAverageBefore.toFixed(1)} → ${report.loadAverageAfter.toFixed(1)})`,
    );
    console.log(
      `  single writer, ${report.single.writes} sequential push-file: p50 ${ms(report.single.p50Ms)}, p99 ${ms(report.single.p99Ms)}, ${report.single.perSecond.toFixed(1)} writes/s`,
    );
    console.log('  | operation | requests | errors | p50 | p99 | req/s | target |');
    console.log('  |---|---|---|---|---|---|---|');
    for (const row of report.rows) {
      const limit = row.write ? TARGETS.writeP99Ms : TARGETS.readP99Ms;
      const ok = row.p99Ms <= limit && row.errors === 0;
      met &&= ok;
      console.log(
        `  | ${row.operation} | ${row.requests} | ${row.errors} | ${ms(row.p50Ms)} | ${ms(row.p99Ms)} | ${row.perSecond.toFixed(1)} | p99 ≤ ${ms(limit)} ${ok ? 'met' : 'MISSED'} |`,
      );
      if (row.firstError) console.log(`    first error: ${row.firstError}`);
    }
    const overallOk = report.perSecond >= TARGETS.requestsPerSecond && report.errors === 0;
    met &&= overallOk;
    console.log(
      `  per request: server thread busy ${report.serverThreadMsPerRequest.toFixed(2)} ms (utilisation ${(report.serverThreadUtilisation * 100).toFixed(0)} %), process CPU ${report.processCpuMsPerRequest.toFixed(2)} ms`,
    );
    console.log(
      `  overall: ${report.total} requests, ${report.errors} errors, ${report.perSecond.toFixed(1)} requests/s (target ≥ ${TARGETS.requestsPerSecond}, ${overallOk ? 'met' : 'MISSED'})`,
    );
  }
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'load.json'), `${JSON.stringify({ date: new Date().toISOString(), reports }, null, 2)}\n`);
  console.log(`\nLoad targets ${met ? 'met' : 'missed'}.`);
}

await main();
