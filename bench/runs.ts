/**
 * Reports-list bench: one project with 100,000 runs (and a test case each), served on 127.0.0.1;
 * measures project/getDetails (first page, a filtered page, a search) against "p99 ≤ 50 ms".
 *
 *   npx tsx bench/runs.ts            (also part of `npm run bench`; PostgreSQL too with DATABASE_URL)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, runsCalls } from '@rehearse/contract';
import { startTestApp } from '../apps/server/src/testing/test-app.js';

const RUNS = 100_000;
const REQUESTS = 200;
const TARGET_P99_MS = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function bench(backend: 'pglite' | 'postgres'): Promise<void> {
  // The same server the integration tests start (a fresh PostgreSQL schema for postgres).
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
    // Bulk SQL: 100,000 runs over the last year, one in seven failed, a test case each.
    await database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, publish_time)
      select '${projectId}', 'bench-' || g, 'Rep Orts', 'Nightly ' || g, 'cloud', 'default', 'http://x/', 'chromium',
             case when g % 7 = 0 then 'FAILED' else 'PASSED' end, 12, case when g % 7 = 0 then 11 else 12 end,
             now() - (g * interval '5 minutes') - interval '90 seconds', now() - (g * interval '5 minutes'),
             now() - (g * interval '5 minutes')
      from generate_series(1, ${RUNS}) g`);
    await database.execute(`
      insert into test_cases (run_id, project_id, position, scenario_name, feature_name, status, failed_step_text, start_time, end_time, report)
      select id, project_id, 0, 'Checkout', 'Shop', status, case when status = 'FAILED' then 'I should see "Thanks"' end,
             start_time, end_time, '{}'::jsonb
      from runs where project_id = '${projectId}'`);
    await database.execute('ANALYZE');
    const seedMs = performance.now() - seeded;
    if (process.argv.includes('--explain')) {
      // The search's two statements as the repository sends them (page and capped count).
      const where = `project_id = '${projectId}' and rerun_of is null and name ilike '%Nightly 99%'`;
      for (const query of [
        `select id from runs where ${where} order by publish_time desc, id desc limit 10`,
        `select count(*) from (select 1 from runs where ${where} limit 1000) capped`,
      ]) {
        const plan = await database.rows<{ 'QUERY PLAN': string }>(`explain analyze ${query}`);
        console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
      }
    }

    const cases = {
      'first page (10)': { projectId },
      'failed only, page 3': { projectId, filterType: 'failed' as const, page: 3 },
      'search "Nightly 99"': { projectId, search: 'Nightly 99' },
    };
    console.log(`\nReports list bench (${backend}, ${RUNS.toLocaleString('en-US')} runs; seeded in ${(seedMs / 1000).toFixed(1)} s)`);
    console.log('  query                         n     p50 ms   p99 ms');
    let worst = 0;
    for (const [name, body] of Object.entries(cases)) {
      for (let i = 0; i < 20; i += 1) await api.call(runsCalls.getDetails, { body });
      const samples: number[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const started = performance.now();
        await api.call(runsCalls.getDetails, { body });
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      worst = Math.max(worst, percentile(samples, 99));
      console.log(
        `  ${name.padEnd(28)} ${String(REQUESTS).padStart(4)} ${percentile(samples, 50).toFixed(1).padStart(9)} ${percentile(samples, 99).toFixed(1).padStart(8)}`,
      );
    }
    console.log(`  verdict: p99 ${worst <= TARGET_P99_MS ? 'within' : 'OVER'} the ${TARGET_P99_MS} ms target`);
  } finally {
    await test.close();
  }
}

async function main(): Promise<void> {
  await bench('pglite');
  if (process.env.DATABASE_URL) await bench('postgres');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
