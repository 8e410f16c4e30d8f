import { runnerCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onePassedScenarioReport } from '../../server/src/testing/report-fixture.js';
import { expectAccessible, expectToast, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/** Settings → Retention in Chromium: what the project stores, a dry run as limits are typed, and saving. */
describe('run retention settings in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    for (const name of ['January', 'February', 'Today']) {
      await ada.api.call(runnerCalls.uploadRun, {
        body: { projectId: ada.projectId, uploadKey: `retention-${name}`, report: { ...onePassedScenarioReport('checkout', name), name } },
      });
    }
    await h.test.database.execute(`update runs set publish_time = now() - interval '40 days' where name in ('January', 'February')`);
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows what the project stores and counts what typed limits would delete before anything is saved', async () => {
    await page.goto(`/${ada.projectId}/settings/retention`);
    await page.getByRole('heading', { name: 'Retention', level: 2 }).waitFor();
    await expect
      .poll(() => page.getByTestId('retention-stored').innerText())
      .toBe('Stored now: 3 runs, 3 scenarios, 0 B of screenshots, traces and reports.');
    const preview = page.getByTestId('retention-preview');
    await expect.poll(() => preview.innerText()).toBe('With these limits, the next cleanup deletes nothing.');

    const days = page.getByLabel('Keep runs for (days)');
    await days.fill('0');
    await page.getByText('Keep runs for a whole number of days from 1 to 3650, or leave it empty to keep them however old.').waitFor();
    expect(await page.getByRole('button', { name: 'Save retention' }).isDisabled()).toBe(true);

    await days.fill('30');
    await expect
      .poll(() => preview.innerText())
      .toBe('With these limits, the next cleanup deletes 2 runs (2 scenarios, 0 B of artifacts only they use).');
    await page.getByLabel('Keep the newest runs').fill('2');
    await expect
      .poll(() => preview.innerText())
      .toBe('With these limits, the next cleanup deletes 2 runs (2 scenarios, 0 B of artifacts only they use).');
    await page.getByLabel('Keep the newest runs').fill('');
    await expectAccessible(page, 'retention settings');
    await screenshotAtSizes(page, 'retention-settings');
    // Nothing was saved or deleted by trying.
    expect((await h.test.database.rows(`select * from project_retention`)).length).toBe(0);
    expect((await h.test.database.rows(`select id from runs`)).length).toBe(3);
  });

  it('saves the limits for the hourly cleanup, which then deletes what the dry run said', async () => {
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expectToast(page, 'Retention saved. The next cleanup runs within the hour.');
    await page.reload();
    await expect.poll(() => page.getByLabel('Keep runs for (days)').inputValue()).toBe('30');
    expect(await page.getByLabel('Keep the newest runs').inputValue()).toBe('');

    await h.test.services.housekeeping.sweep();
    await page.reload();
    await expect
      .poll(() => page.getByTestId('retention-stored').innerText())
      .toBe('Stored now: 1 run, 1 scenario, 0 B of screenshots, traces and reports.');
    await expect.poll(() => page.getByTestId('retention-preview').innerText()).toBe('With these limits, the next cleanup deletes nothing.');
  });
});
