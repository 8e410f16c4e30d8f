/**
 * Web reports bench: the built web app in Chromium against a seeded server.
 *   - the reports list with 100,000 runs: first rows, scrolling (frame times while scrolling
 *     through 3,000 rows, pages loading on the way) and a search end to end (target ≤ 300 ms,
 *     measured from the moment the 500 ms debounce lets the query go to the rows on screen);
 *   - a run report of 200 steps × 5 commands: open to the default command shown (target ≤ 1 s).
 *
 *   npm run build --workspace apps/web && npx tsx bench/web-reports.ts   (also part of `npm run bench`;
 *   PostgreSQL too with DATABASE_URL)
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, runsCalls } from '@rehearse/contract';
import { chromium } from 'playwright-core';
import { startTestApp } from '../apps/server/src/testing/test-app.js';
import { seedRun } from '../apps/web/e2e/support/reports-seed.js';
import { percentile } from './stats.js';

const RUNS = 100_000;
const SEARCH_DEBOUNCE_MS = 500;
const TARGET_SEARCH_MS = 300;
const TARGET_REPORT_MS = 1000;
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function bench(backend: 'pglite' | 'postgres'): Promise<void> {
  const test = await startTestApp(backend, { WEB_DIST_DIR: WEB_DIST });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'web-reports@acme.test', password: 'bench password', firstname: 'Rep', lastname: 'Orts' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;

    const shooter = await browser.newPage({ viewport: { width: 800, height: 500 } });
    await shooter.setContent('<body style="font:24px sans-serif"><h1>Trail Shop</h1><button>Pay now</button></body>');
    const png = await shooter.screenshot();
    await shooter.close();
    const big = await seedRun(api, projectId, { name: 'Big report', steps: 200, commands: 5, png, failAt: 150 });

    const seeded = performance.now();
    await test.database.execute(`
      insert into runs (project_id, upload_key, username, name, mode, env_name, env_base_url, browser, status,
                        total_scenarios, passed_scenarios, start_time, end_time, publish_time)
      select '${projectId}', 'bench-' || g, 'Rep Orts', 'Nightly ' || g, 'cloud', 'default', 'http://x/', 'chromium',
             case when g % 7 = 0 then 'FAILED' else 'PASSED' end, 12, case when g % 7 = 0 then 11 else 12 end,
             now() - (g * interval '5 minutes') - interval '90 seconds', now() - (g * interval '5 minutes'),
             now() - (g * interval '5 minutes')
      from generate_series(1, ${RUNS}) g`);
    await test.database.execute(`
      insert into test_cases (run_id, project_id, position, scenario_name, feature_name, status, failed_step_text, start_time, end_time, report)
      select id, project_id, 0, 'Checkout', 'Shop', status, case when status = 'FAILED' then 'I should see "Thanks"' end,
             start_time, end_time, '{}'::jsonb
      from runs where project_id = '${projectId}' and upload_key like 'bench-%'`);
    await test.database.execute('ANALYZE');
    console.log(
      `\nWeb reports bench (${backend}, ${RUNS.toLocaleString('en-US')} runs seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s)`,
    );

    // The server's share of a search: the same query the list sends, straight through the API.
    const apiSearch: number[] = [];
    for (const term of ['Nightly 99999', 'Nightly 4242', 'Nightly 77777', 'Nightly 123', 'Nightly 55555']) {
      const t0 = performance.now();
      await api.call(runsCalls.getDetails, { body: { projectId, days: 365, page: 0, limit: 50, search: term } });
      apiSearch.push(performance.now() - t0);
    }
    apiSearch.sort((a, b) => a - b);
    const apiFirst = performance.now();
    await api.call(runsCalls.getDetails, { body: { projectId, days: 365, page: 0, limit: 50 } });
    console.log(
      `  API getDetails: first page ${(performance.now() - apiFirst).toFixed(0)} ms; search p50 ${percentile(apiSearch, 50).toFixed(0)} ms, worst ${apiSearch.at(-1)!.toFixed(0)} ms`,
    );

    const apiRun: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      await api.call(runsCalls.getRun, { query: { runId: big.runId } });
      apiRun.push(performance.now() - t0);
    }
    apiRun.sort((a, b) => a - b);
    console.log(
      `  API getRun (200 steps × 5 commands): p50 ${percentile(apiRun, 50).toFixed(0)} ms, worst ${apiRun.at(-1)!.toFixed(0)} ms`,
    );

    // The bench's own probes are page-side expressions, which the app's CSP (script-src 'self') forbids.
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, bypassCSP: true });
    // Signed in, and the "All" time range: the seeded runs span a year.
    await context.addInitScript(
      `localStorage.setItem('rehearse.token', ${JSON.stringify(signup.token)}); localStorage.setItem('durationIndex', '3');`,
    );
    const page = await context.newPage();

    // Reports list: first rows.
    await page.goto(`/${projectId}/dashboard`);
    await page.getByTestId('stat-runs').waitFor();
    let started = performance.now();
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByTestId('report-row').first().waitFor();
    console.log(`  reports list, first rows shown          ${(performance.now() - started).toFixed(0).padStart(6)} ms`);

    // Scrolling: frame durations while the list is scrolled 40 px per frame through 3,000 rows.
    const frames = await page.evaluate<number[]>(`new Promise((resolve) => {
      const scroller = document.querySelector('[data-testid="reports-scroller"]');
      const target = 3000 * 56;
      const times = [];
      let last = performance.now();
      function tick(now) {
        times.push(now - last);
        last = now;
        scroller.scrollTop += 40;
        if (scroller.scrollTop >= target || times.length > 6000) resolve(times);
        else requestAnimationFrame(tick);
      }
      requestAnimationFrame(tick);
    })`);
    const sorted = [...frames].sort((a, b) => a - b);
    const rowsInDom = await page.evaluate<number>(`document.querySelectorAll('[data-testid="report-row"]').length`);
    const long = frames.filter((f) => f > 50).length;
    console.log(
      `  scroll 3,000 rows: ${frames.length} frames, p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, ` +
        `${long} frames > 50 ms; ${rowsInDom} rows in the DOM`,
    );

    // Search, end to end: typed → debounce → query → rows on screen (debounce subtracted).
    const searches: number[] = [];
    for (const term of ['Nightly 99999', 'Nightly 4242', 'Nightly 77777', 'Nightly 123', 'Nightly 55555']) {
      await page.getByRole('searchbox', { name: 'Search reports' }).fill('');
      await page.waitForFunction(`document.querySelectorAll('[data-testid="report-row"]').length > 1`);
      started = performance.now();
      await page.getByRole('searchbox', { name: 'Search reports' }).fill(term);
      await page.waitForFunction(
        `(() => { const rows = document.querySelectorAll('[data-testid="report-row"]'); return rows.length > 0 && rows[0].textContent.includes(${JSON.stringify(term)}); })()`,
        undefined,
        { polling: 'raf' },
      );
      searches.push(performance.now() - started - SEARCH_DEBOUNCE_MS);
    }
    searches.sort((a, b) => a - b);
    console.log(
      `  search (after the 500 ms debounce)       p50 ${percentile(searches, 50).toFixed(0)} ms, worst ${searches.at(-1)!.toFixed(0)} ms ` +
        `(${searches.at(-1)! <= TARGET_SEARCH_MS ? 'within' : 'OVER'} ${TARGET_SEARCH_MS} ms)`,
    );

    // Run report of 200 steps × 5 commands: open it from the app, until the default command shows.
    const opens: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await page.goto(`/${projectId}/dashboard`);
      await page.getByTestId('stat-runs').waitFor();
      started = performance.now();
      await page.evaluate(
        `(() => { history.pushState({}, '', '/${projectId}/run-report/${big.runId}/0'); dispatchEvent(new PopStateEvent('popstate')); })()`,
      );
      await page.waitForFunction(
        `document.querySelectorAll('[data-testid="step"]').length === 200 && document.querySelector('[data-testid="command"][aria-current]') !== null`,
        undefined,
        { polling: 'raf' },
      );
      opens.push(performance.now() - started);
    }
    opens.sort((a, b) => a - b);
    console.log(
      `  run report 200 steps × 5 commands open  p50 ${percentile(opens, 50).toFixed(0)} ms, worst ${opens.at(-1)!.toFixed(0)} ms ` +
        `(${opens.at(-1)! <= TARGET_REPORT_MS ? 'within' : 'OVER'} ${TARGET_REPORT_MS} ms)`,
    );
    await context.close();
  } finally {
    await browser.close();
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
