import { workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/** Spec 02 §2: "A path containing execute means execution mode, not recording." */
describe('/remote-recorder/execute in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  const calls: { url: string; body: string | null }[] = [];

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: 'Scenario: Pay\n  Given I open "/"\n' },
    });
    ({ context, page } = await h.open(ada));
    page.on('request', (request) => {
      if (/\/api\/(guac|recorder|runs\/run-scenario)/.test(request.url())) calls.push({ url: request.url(), body: request.postData() });
    });
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('runs the named scenario in the cloud and opens no recorder session', async () => {
    const query = new URLSearchParams({ project_id: ada.projectId, env_name: 'default', feature_file: 'checkout', scenario_name: 'Pay' });
    await page.goto(`/remote-recorder/execute?${query.toString()}`);
    await page.getByRole('heading', { name: 'Running in Cloud' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Recording in Cloud' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Pay' }).count()).toBe(1);
    await expect.poll(() => page.getByTestId('cloud-execution-status').count()).toBe(1);
    await expect.poll(() => calls.filter((c) => c.url.includes('/api/runs/run-scenario')).length).toBeGreaterThanOrEqual(1);
    const queued = calls.filter((c) => c.url.endsWith('/api/runs/run-scenario'));
    expect(queued).toHaveLength(1);
    expect(JSON.parse(queued[0]!.body!)).toMatchObject({
      projectId: ada.projectId,
      featureName: 'checkout',
      scenarioName: 'Pay',
      environment: 'default',
    });
    expect(calls.filter((c) => /\/api\/(guac|recorder)\//.test(c.url))).toEqual([]);
    await expectAccessible(page, 'cloud execution');
    await screenshotAtSizes(page, 'cloud-execution');
  });

  it('says what is missing from a link that names no scenario', async () => {
    await page.goto(`/remote-recorder/execute?project_id=${ada.projectId}`);
    const alert = page.getByRole('alert').filter({ hasText: 'feature_file' });
    await alert.waitFor();
    expect(await alert.innerText()).toBe(
      'This link does not say what to run: it needs project_id, env_name, feature_file and scenario_name.',
    );
    await expectAccessible(page, 'cloud execution link without a scenario');
    await screenshotAtSizes(page, 'cloud-execution-incomplete');
  });

  it('still records on /remote-recorder/record', async () => {
    await page.goto(`/remote-recorder/record?project_id=${ada.projectId}&env_name=default`);
    await page.getByRole('heading', { name: 'Recording in Cloud' }).waitFor();
  });
});
