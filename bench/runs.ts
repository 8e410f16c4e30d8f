/**
 * Reports at a million test cases (issue 24 item 4): one project with 100,000 runs of 10 scenarios
 * each (1,000,000 test cases) over the last year, plus 1,000 reruns, served on 127.0.0.1. Measures
 * against "p99 ≤ 50 ms": the reports list (first page, a status filter, the failed-step grouping's
 * page, a search), opening a run report and a scenario report, and the dashboard's counts; the
 * retention dry run is measured beside them (it has no target). Then prints the plan of every query
 * those calls send, as the repositories send them, and checks that none reads a big table whole.
 *
 *   npx tsx bench/runs.ts [--runs 100000] [--only pglite|postgres]
 *   (also part of `npm run bench`; PostgreSQL too with DATABASE_URL)
 *
 * Times are HTTP round trips on loopback from a client in the same process (request, zod checks of
 * the answer on both sides): an upper bound of the server's own time.
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, retentionCalls, runsCalls, type TestCase } from '@rehearse/contract';
import { RetentionRepo } from '../apps/server/src/runs/retention.repo.js';
import { RunsRepo } from '../apps/server/src/runs/runs.repo.js';
import { startTestApp, type Backend } from '../apps/server/src/testing/test-app.js';
import { captureStatements, explain, type QueryPlan } from './explain.js';
import { percentile } from './stats.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(argument('runs') ?? 100_000);
const ONLY = argument('only');
const CASES_PER_RUN = 10;
/** A suite of 200 scenarios; each run runs 10 of them, so a scenario ran in one run of 20. */
const SCENARIOS = 200;
/** Runs whose scenarios carry a full report (the ones the bench opens); the rest store `{}`. */
const OPENED_EVERY = Math.max(1, Math.floor(RUNS / 200));
const REQUESTS = 200;
const TARGET_P99_MS = 50;

/** A scenario report as the runner uploads one: 20 steps with commands, page log and network entries. */
function fullTestCase(index: number): TestCase {
  const time = new Date().toISOString();
  const passed = { status: 'PASSED' as const, startTime: time, endTime: time };
  const env = { name: 'default', baseUrl: 'https://shop.example.test/' };
  return {
    id: `runner-${index}`,
    scenarioName: `Scenario ${index}`,
    featureName: `Feature ${Math.floor(index / 10)}`,
    uri: `features/feature-${Math.floor(index / 10)}.feature`,
    tags: ['@regression', '@checkout'],
    result: passed,
    parameters: {},
    env,
    webLog: [],
    networkLog: [],
    steps: Array.from({ length: 20 }, (_, step) => ({
      keyword: step === 0 ? 'Given' : step < 10 ? 'When' : 'Then',
      type: 'Action' as const,
      text: `I click on "Add item ${step}" in the row of "Product ${step}"`,
      result: passed,
      commands: [
        {
          type: 'click',
          element_name: `Add item ${step}`,
          text: `click on "Add item ${step}"`,
          info: { selectors: [`[data-row="${step}"] button`] },
          locatorLog: [`locator('[data-row="${step}"] button') resolved to 1 element`],
          result: passed,
        },
      ],
      networkData: [
        {
          requestUrl: `https://shop.example.test/api/cart/items/${step}?include=prices,stock`,
          method: 'POST',
          status: 200,
          responseTime: 42,
          size: 1830,
          type: 'fetch',
          startTime: time,
        },
      ],
      webLog: [{ type: 'warning' as const, text: `slow response for item ${step}`, time }],
    })),
  };
}

type Measured = { name: string; p50: number; p99: number; target: boolean };

async function bench(backend: Backend): Promise<void> {
  const test = await startTestApp(backend);
  const { app, database } = test;
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'reports@acme.test', password: 'bench password', firstname: 'Rep', lastname: 'Orts' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;
    const seeded = performance.now();
    // Bulk SQL: a run every 5 minutes back over the last year, one in seven failed (one scenario,
    // on one of 12 failing steps), every hundredth re-run once.
    await database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, publish_time)
      select '${projectId}', 'bench-' || g, 'Rep Orts', 'Nightly ' || (g % 100), 'cloud', 'default', 'https://shop.example.test/', 'chromium',
             case when g % 7 = 0 then 'FAILED' else 'PASSED' end, ${CASES_PER_RUN},
             case when g % 7 = 0 then ${CASES_PER_RUN - 1} else ${CASES_PER_RUN} end,
             now() - (g * interval '5 minutes') - interval '90 seconds' - (g % 13) * interval '7 seconds',
             now() - (g * interval '5 minutes'), now() - (g * interval '5 minutes')
      from generate_series(1, ${RUNS}) g`);
    await database.execute(`
      insert into test_cases (run_id, project_id, position, scenario_name, feature_name, status, failed_step_text, start_time, end_time, report)
      select r.id, r.project_id, i, 'Scenario ' || ((r.n * ${CASES_PER_RUN} + i) % ${SCENARIOS}),
             'Feature ' || ((r.n * ${CASES_PER_RUN} + i) % ${SCENARIOS}) / 10,
             case when r.status = 'FAILED' and i = r.n % ${CASES_PER_RUN} then 'FAILED' else 'PASSED' end,
             case when r.status = 'FAILED' and i = r.n % ${CASES_PER_RUN} then 'I should see "Order ' || (r.n % 12) || ' confirmed"' end,
             r.start_time + i * interval '9 seconds', r.start_time + (i + 1) * interval '9 seconds', '{}'::jsonb
      from (select id, project_id, status, start_time, substring(upload_key from 7)::int as n
            from runs where project_id = '${projectId}') r
      cross join generate_series(0, ${CASES_PER_RUN - 1}) i`);
    await database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, publish_time, rerun_of)
      select project_id, upload_key || '-rerun', username, name, mode, env_name, env_base_url, browser, 'PASSED',
             1, 1, start_time + interval '3 minutes', end_time + interval '3 minutes', publish_time + interval '3 minutes', id
      from runs where project_id = '${projectId}' and substring(upload_key from 7)::int % 100 = 1`);
    const openedRuns = await database.rows<{ id: string }>(
      `select id from runs where project_id = '${projectId}' and rerun_of is null
       and substring(upload_key from 7)::int % ${OPENED_EVERY} = 0 order by publish_time desc`,
    );
    for (let i = 0; i < CASES_PER_RUN; i += 1)
      await database.execute(
        `update test_cases set report = '${JSON.stringify(fullTestCase(i)).replaceAll("'", "''")}'::jsonb
         where position = ${i} and run_id in (${openedRuns.map((run) => `'${run.id}'`).join(',')})`,
      );
    await database.execute('vacuum analyze runs, test_cases');
    const seedMs = performance.now() - seeded;
    const [sizes] = await database.rows<{ runs: number; cases: number }>(
      `select (select count(*) from runs where project_id = '${projectId}')::int as runs,
              (select count(*) from test_cases where project_id = '${projectId}')::int as cases`,
    );
    const openedCases = await database.rows<{ id: string }>(
      `select tc.id from test_cases tc where tc.run_id in (${openedRuns.map((run) => `'${run.id}'`).join(',')}) and tc.position = 3`,
    );

    const list = (body: Partial<Parameters<typeof api.call<typeof runsCalls.getDetails>>[1]['body']>) => () =>
      api.call(runsCalls.getDetails, { body: { projectId, ...body } });
    let next = 0;
    const cycle = <T>(items: T[]) => items[next++ % items.length]!;
    const operations: Array<[string, () => Promise<unknown>, boolean]> = [
      ['list: first page (All)', list({ days: 365 }), true],
      ['list: first page (24 hours)', list({ days: 1 }), true],
      ['list: failed only, page 3', list({ days: 365, filterType: 'failed', page: 3 }), true],
      ['list: failed-step grouping (100)', list({ days: 365, filterType: 'failed', limit: 100 }), true],
      ['list: search "Nightly 99"', list({ days: 365, search: 'Nightly 99' }), true],
      ['list: sorted by duration', list({ days: 365, sortField: 'executionTime' }), true],
      ['run report open (10 scenarios)', () => api.call(runsCalls.getRun, { query: { runId: cycle(openedRuns).id } }), true],
      ['scenario report open', () => api.call(runsCalls.getScenario, { query: { scenarioId: cycle(openedCases).id } }), true],
      ['dashboard counts', () => api.call(runsCalls.dashboardDetails, { query: { projectId } }), true],
      [
        'retention dry run (keep 30 days)',
        () => api.call(retentionCalls.previewRetention, { body: { projectId, keepDays: 30, keepRuns: null } }),
        false,
      ],
    ];
    const measured: Measured[] = [];
    for (const [name, call, target] of operations) {
      try {
        for (let i = 0; i < 20; i += 1) await call();
      } catch (error) {
        throw new Error(`${name} failed`, { cause: error });
      }
      const samples: number[] = [];
      const requests = target ? REQUESTS : 20;
      for (let i = 0; i < requests; i += 1) {
        const started = performance.now();
        await call();
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      measured.push({ name, p50: percentile(samples, 50), p99: percentile(samples, 99), target });
    }

    console.log(
      `\nReports at scale (${backend}): ${sizes?.runs.toLocaleString('en-US')} runs, ${sizes?.cases.toLocaleString('en-US')} test cases; ` +
        `seeded in ${(seedMs / 1000).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log('  operation                            n     p50 ms   p99 ms');
    for (const row of measured)
      console.log(
        `  ${row.name.padEnd(34)} ${String(row.target ? REQUESTS : 20).padStart(4)} ${row.p50.toFixed(1).padStart(9)} ${row.p99.toFixed(1).padStart(8)}${row.target ? '' : '   (no target)'}`,
      );
    const worst = Math.max(...measured.filter((row) => row.target).map((row) => row.p99));
    console.log(
      `  verdict: worst p99 ${worst.toFixed(1)} ms, ${worst <= TARGET_P99_MS ? 'within' : 'OVER'} the ${TARGET_P99_MS} ms target`,
    );

    await printPlans(test.database, projectId, openedRuns[0]!.id);
  } finally {
    await test.close();
  }
}

/**
 * A sequential scan that stops early (under a LIMIT) is fine; one that reads the project's history
 * is what must not happen at this size. Rows read = rows out × loops + rows its filter removed.
 */
const WHOLE_READ_ROWS = 10_000;
const RETENTION_PLAN = 'retention: runs past the rule';

function rowsReadSequentially(plan: string[]): number {
  let read = 0;
  plan.forEach((line, at) => {
    if (!/Seq Scan on (runs|test_cases)\b/.test(line)) return;
    const actual = /actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)/.exec(line);
    const next = plan.slice(at + 1).findIndex((l) => l.includes('->'));
    const details = plan.slice(at + 1, next < 0 ? undefined : at + 1 + next);
    const removed = details.map((l) => /Rows Removed by Filter: (\d+)/.exec(l)).find(Boolean);
    read += (actual ? Number(actual[1]) * Number(actual[2]) : 0) + (removed ? Number(removed[1]) : 0);
  });
  return read;
}

/** Plan lines left out of the printout: buffer counts and sort details, not the plan's shape. */
const NOISE =
  /^\s*(Buffers|Index Searches|Heap Blocks|Sort Method|Full-sort Groups|Pre-sorted Groups|Planning Time|Execution Time|Planning:|Worker \d)/;

/** The plans the calls above rely on, captured from the repositories' own SQL. */
async function printPlans(database: Awaited<ReturnType<typeof startTestApp>>['database'], projectId: string, runId: string) {
  const [opened] = await database.rows<{ name: string; publish_time: Date }>(`select name, publish_time from runs where id = '${runId}'`);
  const previous = await new RunsRepo(database.db).previousRunsInSeries(projectId, { name: opened!.name }, opened!.publish_time, 5);
  const since = (days: number) => new Date(Date.now() - days * 86_400_000);
  const page = { since: since(365), status: null, search: '', sortField: 'publishTime', sortOrder: 'desc', limit: 10, offset: 0 } as const;
  const statements: Array<[string, Awaited<ReturnType<typeof captureStatements>>]> = [
    ['list: first page + capped count', await captureStatements((db) => new RunsRepo(db).list(projectId, page))],
    [
      'list: failed only, page 3',
      await captureStatements((db) => new RunsRepo(db).list(projectId, { ...page, status: 'FAILED', offset: 30 })),
    ],
    ['list: search', await captureStatements((db) => new RunsRepo(db).list(projectId, { ...page, search: 'Nightly 99' }))],
    ['list: by duration', await captureStatements((db) => new RunsRepo(db).list(projectId, { ...page, sortField: 'executionTime' }))],
    ['run: test cases', await captureStatements((db) => new RunsRepo(db).testCasesOf(runId))],
    [
      'run: previous runs of its series',
      await captureStatements((db) => new RunsRepo(db).previousRunsInSeries(projectId, { name: opened!.name }, opened!.publish_time, 5)),
    ],
    [
      'run: its scenarios in those runs',
      await captureStatements((db) => new RunsRepo(db).scenarioStatusesInRuns(previous.map((run) => run.id))),
    ],
    ['dashboard: counts', await captureStatements((db) => new RunsRepo(db).counts(projectId, since(7)))],
    [
      // Not checked: it numbers every top-level run to apply "keep the newest N", a read of them all by design.
      RETENTION_PLAN,
      await captureStatements((db) => new RetentionRepo(db).runsPastRule(projectId, { keepDays: 30, keepRuns: null }, new Date())),
    ],
  ];
  const plans: QueryPlan[] = [];
  for (const [name, captured] of statements)
    for (const [index, statement] of captured.entries())
      plans.push(await explain(database, captured.length > 1 ? `${name} (${index + 1}/${captured.length})` : name, statement));
  console.log('\n  Plans (EXPLAIN ANALYZE, BUFFERS; execution time: median of 5 without per-node timing)');
  const wholeReads: string[] = [];
  for (const plan of plans) {
    console.log(`\n  ── ${plan.name}: execution ${plan.executionMs?.toFixed(2)} ms, planning ${plan.planningMs?.toFixed(2)} ms`);
    for (const line of plan.plan.filter((l) => !NOISE.test(l))) console.log(`     ${line}`);
    const read = rowsReadSequentially(plan.plan);
    if (read > WHOLE_READ_ROWS && !plan.name.startsWith(RETENTION_PLAN))
      wholeReads.push(`${plan.name} (${read.toLocaleString('en-US')} rows)`);
  }
  console.log(
    `\n  plan check: ${wholeReads.length === 0 ? `no query reads more than ${WHOLE_READ_ROWS.toLocaleString('en-US')} rows of runs or test_cases sequentially` : `SEQUENTIAL READS in ${wholeReads.join('; ')}`}`,
  );
}

async function main(): Promise<void> {
  if (ONLY !== 'postgres') await bench('pglite');
  if (ONLY !== 'pglite' && process.env.DATABASE_URL) await bench('postgres');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
