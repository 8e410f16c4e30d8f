import { aiCalls, runnerCalls, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageKeys } from '../src/lib/storage-keys';
import { Strings } from '../src/lib/strings';
import { ShellPageModel } from './pages/shell.page';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/** The dashboard, plus the client plumbing every screen shares: cache persistence and the activity log. */
describe('dashboard and client plumbing in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: 'Scenario: Pay\n  Given I open "/"\n' },
    });
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: 'Scenario: Refund\n  Given I open "/"\n' },
    });
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows the feature and scenario totals, and honest empty states for runs and reviews', async () => {
    await page.goto(`/${ada.projectId}/dashboard`);
    await expect.poll(() => page.getByTestId('stat-features').textContent()).toBe('1');
    expect(await page.getByTestId('stat-scenarios').textContent()).toBe('2');
    // Each card loads its own query: on a slow machine the runs card may answer after the totals.
    await expect.poll(() => page.getByTestId('stat-runs').textContent()).toBe('—');
    await expect.poll(() => page.getByText(Strings.dashboardNoRunsYet).count()).toBe(1);
    await expect.poll(() => page.getByText(Strings.dashboardNoExecutions).count()).toBe(1);
    await expect.poll(() => page.getByText(Strings.dashboardNoRuns).count()).toBe(1);
    // The Code Review card lists oversight/list (AI issue); before that route exists it shows the
    // server's error rather than an invented empty list.
    const oversight = await ada.api.call(aiCalls.oversightList, { query: { project_id: ada.projectId } }).catch((e: Error) => e);
    const reviewsText = oversight instanceof Error ? Strings.reviewLoadFailed : Strings.dashboardNoReviews;
    await expect.poll(() => page.getByText(reviewsText).count()).toBe(1);
    expect(await page.getByText(Strings.dashboardGreeting(ada.firstname)).count()).toBe(1);
    await expectAccessible(page, 'dashboard');
  });

  it('shows runs from the runs service once one is uploaded', async () => {
    const time = new Date().toISOString();
    const ok = { status: 'PASSED' as const, startTime: time, endTime: time };
    await ada.api.call(runnerCalls.uploadRun, {
      body: {
        projectId: ada.projectId,
        uploadKey: 'dashboard-e2e-1',
        report: {
          name: 'Nightly smoke',
          // The environment as its file is named: every screen shows it without ".json".
          env: { name: 'staging.json', baseUrl: 'http://127.0.0.1/demo-shop/' },
          startTime: time,
          endTime: time,
          mode: 'local',
          browser: 'chromium',
          viewport: { width: 1024, height: 768 },
          testCases: [
            {
              id: 'tc-1',
              scenarioName: 'Pay',
              featureName: 'checkout',
              uri: 'features/checkout.feature',
              tags: [],
              result: ok,
              parameters: {},
              steps: [],
              env: { name: 'default', baseUrl: 'http://127.0.0.1/demo-shop/' },
              webLog: [],
              networkLog: [],
            },
          ],
        },
      },
    });
    await page.goto(`/${ada.projectId}/dashboard`);
    await expect.poll(() => page.getByTestId('stat-runs').textContent()).toBe('1');
    // The runs count and the latest executions are separate calls: either may answer first.
    await expect.poll(() => page.getByText('Nightly smoke').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByText(Strings.dashboardNoExecutions).count()).toBe(0);
    const latest = page.getByRole('row').filter({ hasText: 'Nightly smoke' });
    expect(await latest.getByRole('cell').allTextContents()).toContain('staging');
    expect(await latest.innerText()).not.toContain('.json');
    await screenshotAtSizes(page, 'dashboard-with-run');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(`/${ada.projectId}/runs`);
    const listed = page.getByTestId('report-row').filter({ hasText: 'Nightly smoke' });
    await expect.poll(() => listed.getByRole('cell').allTextContents()).toContain('staging');
    expect(await listed.innerText()).not.toContain('.json');
    await listed.getByRole('link', { name: 'Nightly smoke' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Nightly smoke');
    expect(await page.locator('main').innerText()).toContain('· staging ·');
    expect(await page.locator('main').innerText()).not.toContain('staging.json');
    await page.goto(`/${ada.projectId}/dashboard`);
    await expect.poll(() => page.getByText('Nightly smoke').count()).toBeGreaterThanOrEqual(1);
  });

  it('links to the application map, the reports and code review', async () => {
    expect(await page.getByRole('link', { name: Strings.dashboardMemory }).getAttribute('href')).toBe(`/${ada.projectId}/memory`);
    expect(
      await page.getByRole('link', { name: `${Strings.dashboardShowAll}: ${Strings.dashboardLatestExecutions}` }).getAttribute('href'),
    ).toBe(`/${ada.projectId}/runs`);
    expect(await page.getByRole('link', { name: `${Strings.dashboardShowAll}: ${Strings.dashboardCodeReview}` }).getAttribute('href')).toBe(
      `/${ada.projectId}/ai-oversight`,
    );
  });

  it('has the support and documentation links (new tab) and the user menu in the sidebar', async () => {
    const sidebar = new ShellPageModel(page).sidebar();
    for (const name of [Strings.contactSupport, Strings.documentation]) {
      const link = sidebar.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
    }
    expect(await sidebar.getByRole('button', { name: Strings.userMenuLabel }).count()).toBe(1);
  });

  it('persists the query cache in localStorage', async () => {
    await expect
      .poll(async () => (await page.evaluate((key) => localStorage.getItem(key), StorageKeys.queryCache)) ?? '')
      .toContain(ada.projectId);
  });

  it('sends the activity log in a batch of 10 entries', async () => {
    type LogBatch = { logs: { type: string; path: string; at: string }[] };
    // The 10 s timer may also flush a shorter batch when the machine is slow; the full one is the proof.
    let full: LogBatch | undefined;
    page.on('request', (request: Request) => {
      if (!request.url().endsWith('/api/auth/log') || request.method() !== 'POST') return;
      const body = request.postDataJSON() as LogBatch;
      if (body.logs.length === 10) full ??= body;
    });
    const shell = new ShellPageModel(page);
    const screens = [
      Strings.navFeatures,
      Strings.navExecutions,
      Strings.navReports,
      Strings.navCodeReview,
      Strings.navTestData,
      Strings.navSettings,
    ];
    for (let i = 0; i < 60 && !full; i++) await shell.navLink(screens[i % screens.length]!).click();
    await expect.poll(() => full !== undefined).toBe(true);
    const body = full!;
    expect(body.logs).toHaveLength(10);
    expect(body.logs.every((entry) => typeof entry.at === 'string' && entry.path.startsWith('/'))).toBe(true);
    expect(body.logs.some((entry) => entry.type === 'navigate')).toBe(true);
  });

  it('meets the accessibility bar on the other screens', async () => {
    for (const [path, name] of [
      [`/${ada.projectId}/settings/private-repository`, 'integrations'],
      [`/${ada.projectId}/memory`, 'coming soon'],
      ['/open-recorder/recorder?project_id=x', 'recorder placeholder'],
      ['/no/such/page', 'not found'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expectAccessible(page, name);
    }
    const fresh = await h.browser.newContext({ baseURL: h.base });
    const login = await fresh.newPage();
    await login.goto('/login');
    await login.getByRole('heading', { level: 1 }).waitFor();
    await expectAccessible(login, 'login');
    await fresh.close();
  });
});
