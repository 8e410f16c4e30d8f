import { runnerCalls, runsCalls, type ReportStep, type TestCase } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportPageModel } from './pages/report.page';
import { expectAccessible, startHarness, type Account, type Harness } from './support/harness';

const shots = process.env.WEB_SCREENSHOTS === '1';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];
const BASE = 'http://127.0.0.1/demo-shop/';
const LONG_URL = `${BASE}assets/build/0123456789abcdef0123456789abcdef/chunks/vendor-checkout-widget.js?v=42`;
// 2025-06-04 10:00:00 UTC: 15:30 in India, 12:00 in Berlin (summer time).
const START = Date.parse('2025-06-04T10:00:00.000Z');

function at(offsetMs: number): string {
  return new Date(START + offsetMs).toISOString();
}

function outcome(status: TestCase['result']['status'], offsetMs: number, message?: string) {
  return { status, startTime: at(offsetMs), endTime: at(offsetMs + 500), ...(message ? { message } : {}) };
}

/** The shop's checkout as an outline row: open the cart (a navigation), then an undefined step, then a skipped one. */
function outlineRow(id: string, item: string): TestCase {
  const steps: ReportStep[] = [
    {
      keyword: 'Given',
      type: 'Context',
      text: 'I open "/demo-shop/cart.html"',
      result: outcome('PASSED', 0),
      commands: [
        {
          type: 'navigate',
          value: `${BASE}cart.html`,
          // A navigation carries the page's HTTP status: that is not an API test.
          info: { url: `${BASE}cart.html`, title: 'Cart', status: 200, statusText: 'OK' },
          result: outcome('PASSED', 0),
        },
      ],
      networkData: [
        { requestUrl: `${BASE}cart.html`, method: 'GET', status: 200, responseTime: 40, size: 4096, type: 'document' },
        { requestUrl: LONG_URL, method: 'GET', status: 200, responseTime: 120, size: 80_000, type: 'script' },
      ],
      webLog: [],
    },
    {
      keyword: 'When',
      type: 'Action',
      text: `I add "${item}" to the wish list`,
      result: outcome('UNDEFINED', 1000, `Undefined. Implement with the following snippet: When('I add {string} to the wish list', …)`),
      commands: [],
      networkData: [],
      webLog: [],
    },
    {
      keyword: 'Then',
      type: 'Outcome',
      text: 'I should see 1 item in the wish list',
      result: outcome('SKIPPED', 2000),
      commands: [],
      networkData: [],
      webLog: [],
    },
  ];
  return {
    id,
    scenarioName: 'Wish for an item',
    featureName: 'Wish list',
    uri: 'features/wish-list.feature',
    tags: [],
    result: outcome('UNDEFINED', 0),
    parameters: { item },
    steps,
    env: { name: 'default', baseUrl: BASE },
    webLog: [],
    networkLog: steps.flatMap((step) => step.networkData),
    failedStep: 1,
  };
}

/** Report reading (issue 23): undefined steps, API tab, network URLs, breadcrumb, outline rows. */
describe('report reading in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let r: ReportPageModel;
  let runId = '';

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ runId } = await ada.api.call(runnerCalls.uploadRun, {
      body: {
        projectId: ada.projectId,
        uploadKey: 'report-reading',
        report: {
          name: 'Wish list nightly',
          env: { name: 'default', baseUrl: BASE },
          startTime: at(0),
          endTime: at(3000),
          mode: 'local',
          browser: 'chromium',
          viewport: { width: 1024, height: 768 },
          testCases: [outlineRow('row-1', 'backpack'), outlineRow('row-2', 'lamp')],
        },
      },
    }));
    ({ context, page } = await h.open(ada));
    r = new ReportPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('names scenario outline rows by their example values', async () => {
    await page.goto(`/${ada.projectId}/run-report/${runId}`);
    await expect
      .poll(() => page.getByTestId('run-scenario-name').allInnerTexts())
      .toEqual(['Wish for an item (item: backpack)', 'Wish for an item (item: lamp)']);
    expect(await page.getByRole('link', { name: 'Open the report of Wish for an item (item: lamp)', exact: true }).count()).toBe(1);
    await expectAccessible(page, 'run report with outline rows');
    if (shots)
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `/tmp/report-reading-run-${size.width}.png` });
      }
    await page.setViewportSize(SIZES[0]!);
  });

  it('opens a scenario stopped by an undefined step on that step, with no API test tab on its navigation', async () => {
    await page.getByRole('link', { name: 'Open the report of Wish for an item (item: lamp)', exact: true }).click();
    await page.waitForURL(/\/run-report\/[0-9a-f-]+\/[0-9a-f-]+$/);
    await expect.poll(() => r.selectedStep().innerText()).toContain('I add "lamp" to the wish list');
    expect(await r.detail().innerText()).toContain('Undefined. Implement with the following snippet');

    await r.steps().nth(0).getByRole('button').first().click();
    expect(await r.currentCommand().innerText()).toContain('navigate');
    const tabs = await r.detail().getByRole('tab').allInnerTexts();
    expect(tabs).toEqual(['Screenshot', 'Network', 'Console']);
    expect(tabs).not.toContain('API test');
  });

  it('shows long network URLs with a middle ellipsis and the full URL on hover', async () => {
    await r.tab('Network').click();
    const cell = r.detail().getByTitle(LONG_URL, { exact: true });
    expect(await cell.evaluate((td) => td.tagName)).toBe('TD');
    expect(await cell.getByTestId('network-url').textContent()).toBe(LONG_URL);
    await expectAccessible(page, 'scenario with an undefined step');
    if (shots)
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `/tmp/report-reading-network-${size.width}.png` });
      }
    await page.setViewportSize(SIZES[0]!);

    // In the step's pane at both sizes the request's last segment shows whole, with its method and
    // status in view beside it (at 1024 px the table's further columns scroll).
    const row = r
      .detail()
      .getByTestId('network-row')
      .filter({ has: page.getByTitle(LONG_URL, { exact: true }) });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const parts = await cell
        .getByTestId('network-url')
        .locator('span')
        .evaluateAll((spans) => spans.map((span) => ({ text: span.textContent ?? '', cut: span.scrollWidth > span.clientWidth })));
      expect([size.width, parts[1]]).toEqual([size.width, { text: '/vendor-checkout-widget.js?v=42', cut: false }]);
      const statusBox = (await row.getByRole('cell').nth(2).boundingBox())!;
      const paneBox = (await r.detail().getByRole('table').locator('..').boundingBox())!;
      expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(paneBox.x + paneBox.width + 1);
    }

    // In the full network log at 1024 px the URL's start gives way and its end shows whole.
    await page.setViewportSize(SIZES[1]!);
    await page.getByRole('button', { name: 'View all network logs' }).click();
    const url = page.getByTestId('network-dialog').getByTitle(LONG_URL, { exact: true }).getByTestId('network-url');
    const [head, tail] = await url
      .locator('span')
      .evaluateAll((spans) => spans.map((span) => ({ text: span.textContent ?? '', cut: span.scrollWidth > span.clientWidth })));
    expect(tail).toEqual({ text: '/vendor-checkout-widget.js?v=42', cut: false });
    expect(head!.cut).toBe(true);
    if (shots) await page.screenshot({ path: `/tmp/report-reading-network-dialog-1024.png` });
    await page.keyboard.press('Escape');
    await page.setViewportSize(SIZES[0]!);
  });

  it('names the run in the single scenario report’s breadcrumb', async () => {
    const { run } = await ada.api.call(runsCalls.getRun, { query: { runId } });
    await page.goto(`/${ada.projectId}/scenario-report/${run.report.testCases[0]!.id}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect.poll(() => crumbs.getByRole('link').allInnerTexts()).toEqual(['Executions', 'Wish list nightly']);
    expect(await crumbs.getByRole('link', { name: 'Wish list nightly' }).getAttribute('href')).toBe(
      `/${ada.projectId}/run-report/${runId}`,
    );
    await expect.poll(() => r.selectedStep().innerText()).toContain('I add "backpack" to the wish list');
    await expectAccessible(page, 'single scenario report with its breadcrumb');
    if (shots)
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `/tmp/report-reading-scenario-${size.width}.png` });
      }
    await page.setViewportSize(SIZES[0]!);
  });

  it('shows report times in the viewer’s zone, offers India time (IST) as an option and remembers it', async () => {
    const { context: berlin, page: p } = await h.open(ada, SIZES[0], { timezoneId: 'Europe/Berlin' });
    try {
      const { run } = await ada.api.call(runsCalls.getRun, { query: { runId } });
      await p.goto(`/${ada.projectId}/scenario-report/${run.report.testCases[0]!.id}`);
      const zone = p.getByRole('combobox', { name: 'Times in' });
      await expect.poll(() => zone.inputValue()).toBe('local');
      expect(await zone.locator('option').allInnerTexts()).toEqual(['Your time zone (Europe/Berlin)', 'India time (IST)']);
      expect(await p.getByTestId('report-started').innerText()).toBe('Jun 04, 2025 · 12:00:00 PM GMT+2');
      const model = new ReportPageModel(p);
      await model.steps().nth(0).getByRole('button').first().click();
      expect(await p.getByTestId('command-time').innerText()).toBe('12:00:00 PM GMT+2');

      await zone.selectOption({ label: 'India time (IST)' });
      expect(await p.getByTestId('command-time').innerText()).toBe('03:30:00 PM IST');
      expect(await p.getByTestId('report-started').innerText()).toBe('Jun 04, 2025 · 03:30:00 PM IST');
      await expectAccessible(p, 'scenario report in India time');
      if (shots)
        for (const size of SIZES) {
          await p.setViewportSize(size);
          await p.screenshot({ path: `/tmp/report-reading-time-zone-${size.width}.png` });
        }

      // Remembered per browser: the run report opens in India time too.
      await p.goto(`/${ada.projectId}/run-report/${runId}`);
      await expect.poll(() => p.getByTestId('report-started').innerText()).toBe('Jun 04, 2025 · 03:30:00 PM IST');
      expect(await p.getByRole('combobox', { name: 'Times in' }).inputValue()).toBe('ist');
      if (shots)
        for (const size of SIZES) {
          await p.setViewportSize(size);
          await p.screenshot({ path: `/tmp/report-reading-run-time-zone-${size.width}.png` });
        }
      // The reports list follows India time too, and says so.
      await p.evaluate(() => localStorage.setItem('durationIndex', '3'));
      await p.goto(`/${ada.projectId}/runs`);
      const row = p.getByTestId('report-row').filter({ hasText: 'Wish list nightly' });
      await expect.poll(() => row.locator('time').innerText()).toBe('Jun 04, 2025\n03:30:00 PM IST');
      if (shots)
        for (const size of SIZES) {
          await p.setViewportSize(size);
          await p.screenshot({ path: `/tmp/report-reading-list-time-zone-${size.width}.png` });
        }
      await p.goBack();
      await p.getByRole('combobox', { name: 'Times in' }).selectOption('local');
      expect(await p.getByTestId('report-started').innerText()).toBe('Jun 04, 2025 · 12:00:00 PM GMT+2');
    } finally {
      await berlin.close();
    }
  });
});
