import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportPageModel } from './pages/report.page';
import { backdateRuns, expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';
import { seedRun } from './support/reports-seed';

/** The reports list when the chosen time range is empty: older reports are offered, none means none. */
describe('reports list with an empty time range in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let r: ReportPageModel;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    const shooter = await h.browser.newPage({ viewport: { width: 400, height: 200 } });
    await shooter.setContent('<body><h1>Trail Shop</h1></body>');
    const png = await shooter.screenshot();
    await shooter.close();
    await seedRun(ada.api, ada.projectId, { name: 'Last month nightly', steps: 2, commands: 1, png });
    await backdateRuns(h.test, ada.projectId, '20 days');
    ({ context, page } = await h.open(ada));
    r = new ReportPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("names the empty range and widens it to 'All' when older reports exist", async () => {
    await page.goto(`/${ada.projectId}/runs`);
    const status = page.getByRole('status').filter({ hasText: 'No reports in' });
    await expect.poll(() => status.locator('p').first().textContent()).toBe('No reports in the last 24 hours');
    expect(await page.getByText('No reports yet').count()).toBe(0);
    await expectAccessible(page, 'reports list, empty range');
    await screenshotAtSizes(page, 'reports-empty-range');

    await r.select('Time range').selectOption({ label: 'Last week' });
    await expect.poll(() => status.locator('p').first().textContent()).toBe('No reports in the last week');
    await r.select('Time range').selectOption({ label: 'Last 2 weeks' });
    await expect.poll(() => status.locator('p').first().textContent()).toBe('No reports in the last 2 weeks');

    await page.getByRole('button', { name: 'Show all reports' }).click();
    await expect.poll(() => r.rows().count()).toBe(1);
    expect(await r.rows().nth(0).innerText()).toContain('Last month nightly');
    expect(await r.select('Time range').inputValue()).toBe('3');
    expect(await page.evaluate(() => localStorage.getItem('durationIndex'))).toBe('3');
  });

  it('names the status filter that emptied the list and shows every report again', async () => {
    await page.goto(`/${ada.projectId}/runs`);
    await r.select('Time range').selectOption({ label: 'All' });
    await expect.poll(() => r.rows().count()).toBe(1);
    await r.select('Status').selectOption({ label: 'Failed only' });
    const status = page.getByRole('status').filter({ hasText: 'No failed reports' });
    await expect.poll(() => status.locator('p').first().textContent()).toBe('No failed reports in the last year');
    expect(await status.locator('p').nth(1).textContent()).toBe('Reports with another status are hidden by the Status filter.');
    expect(await page.getByText('No reports yet').count()).toBe(0);
    await expectAccessible(page, 'reports list, emptied by the status filter');
    await screenshotAtSizes(page, 'reports-empty-status');

    await r.select('Time range').selectOption({ label: 'Last 24 hours' });
    await expect.poll(() => status.locator('p').first().textContent()).toBe('No failed reports in the last 24 hours');
    await page.getByRole('button', { name: 'Show all reports' }).click();
    await expect.poll(() => r.rows().count()).toBe(1);
    expect(await r.select('Status').inputValue()).toBe('all');
    expect(await r.select('Time range').inputValue()).toBe('3');
  });

  it('keeps the table accessible while the reports load and when they cannot be loaded', async () => {
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/runs/project/getDetails', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal error' }) });
    });
    try {
      await page.goto(`/${ada.projectId}/runs`);
      await page.getByRole('status').filter({ hasText: 'Loading reports…' }).waitFor();
      await expectAccessible(page, 'reports list, loading');
      answer();
      await page.getByText('Could not load the reports').waitFor({ timeout: 30_000 });
      await expectAccessible(page, 'reports list, failed to load');
    } finally {
      answer();
      await page.unroute('**/api/runs/project/getDetails');
    }
  });

  it("reads 'Error' / 'Internal error' when a run report cannot be fetched for a server fault (spec 02 §8)", async () => {
    await page.route('**/api/runs/cucumber-runs/get?**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'database down' }) }),
    );
    try {
      await page.goto(`/${ada.projectId}/run-report/00000000-0000-4000-8000-000000000000`);
      const alert = page.getByRole('alert').filter({ hasText: 'Internal error' });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.locator('p').allTextContents()).toEqual(['Error', 'Internal error']);
      await expectAccessible(page, 'run report, failed to load');
      await screenshotAtSizes(page, 'run-report-internal-error');
    } finally {
      await page.unroute('**/api/runs/cucumber-runs/get?**');
    }
  });

  it('keeps "No reports yet" for a project that has no reports at all', async () => {
    const bob = await h.signUp('Bob');
    const opened = await h.open(bob);
    try {
      await opened.page.goto(`/${bob.projectId}/runs`);
      await expect.poll(() => opened.page.getByText('No reports yet').count()).toBe(1);
      expect(await opened.page.getByText('No reports in').count()).toBe(0);
      expect(await opened.page.getByRole('button', { name: 'Show all reports' }).count()).toBe(0);
    } finally {
      await opened.context.close();
    }
  });
});
