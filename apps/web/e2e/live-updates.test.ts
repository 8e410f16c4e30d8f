import { authCalls, recorderCalls, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { ReportPageModel } from './pages/report.page';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';
import { seedRun } from './support/reports-seed';

/** Spec 01 §4 "Publish events": open screens follow upload_report and publish_scenario without a reload. */
describe('project events on open screens in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let png: Buffer;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    const shooter = await h.browser.newPage({ viewport: { width: 400, height: 300 } });
    await shooter.setContent('<body style="font:24px sans-serif"><h1>Trail Shop</h1></body>');
    png = await shooter.screenshot();
    await shooter.close();
    ({ context } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows a run uploaded with an access key on an open reports page and dashboard, without a reload', async () => {
    const reports = await context.newPage();
    const dashboard = await context.newPage();
    await reports.goto(`/${ada.projectId}/runs`);
    await dashboard.goto(`/${ada.projectId}/dashboard`);
    const r = new ReportPageModel(reports);
    await expect.poll(() => dashboard.getByText(Strings.dashboardNoExecutions).count()).toBe(1);
    await expect.poll(() => reports.getByText(Strings.reportsEmpty).count()).toBe(1);
    expect(await r.rows().count()).toBe(0);
    let navigations = 0;
    for (const page of [reports, dashboard]) page.on('framenavigated', (frame) => (frame === page.mainFrame() ? navigations++ : 0));

    // What a CI job does: the runner uploads with the project's access key, not a browser session.
    const { accessKey } = await ada.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: ada.projectId } });
    await seedRun(h.api(accessKey.token), ada.projectId, { name: 'Uploaded from CI', steps: 2, commands: 1, png });

    await expect.poll(() => r.rows().count()).toBe(1);
    expect(await r.rows().first().innerText()).toContain('Uploaded from CI');
    await expect.poll(() => dashboard.getByTestId('stat-runs').textContent()).toBe('1');
    await expect.poll(() => dashboard.getByRole('row').filter({ hasText: 'Uploaded from CI' }).count()).toBe(1);
    expect(navigations).toBe(0);
    await expectAccessible(reports, 'reports list after a live upload');
    await expectAccessible(dashboard, 'dashboard after a live upload');
    await screenshotAtSizes(reports, 'live-reports');
    await screenshotAtSizes(dashboard, 'live-dashboard');
    await reports.close();
    await dashboard.close();
  });

  it('counts features again 10 s and 60 s after publish_scenario', async () => {
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`/${ada.projectId}/dashboard`);
    const features = () => page.getByTestId('stat-features').textContent();
    await expect.poll(features).toMatch(/^\d+$/);
    const before = Number(await features());

    await ada.api.call(recorderCalls.publish, {
      body: {
        projectId: ada.projectId,
        featureName: 'Published live',
        scenarioName: 'Open the shop',
        commands: [
          { type: 'navigate', value: '/', path: '/' },
          { type: 'click', path: '/', element: { name: 'Shop', locators: [{ kind: 'css', value: 'a' }] } },
        ],
      },
    });
    // The event has arrived by now; the count waits for the workspace to settle.
    await page.waitForTimeout(1000);
    expect(await features()).toBe(String(before));
    await page.clock.runFor(10_000);
    await expect.poll(features).toBe(String(before + 1));

    // A feature that arrives without an event of its own is seen at the 60-second refresh.
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'pushed', data: 'Scenario: Pushed\n  Given I open "/"\n' },
    });
    await page.clock.runFor(40_000);
    expect(await features()).toBe(String(before + 1));
    await page.clock.runFor(10_000);
    await expect.poll(features).toBe(String(before + 2));
    await expectAccessible(page, 'dashboard after the features refresh');
    await screenshotAtSizes(page, 'live-features-count');
    await page.close();
  });
});
