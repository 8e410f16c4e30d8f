import { authCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/** Spec 02 §2: the last-active-project redirect honours `redirect`: 'features' goes to the features page, anything else to the dashboard. */
describe('the last-active-project redirect in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let lastActive = '';

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    // A second project made last active: the redirect must follow it, not the first project.
    lastActive = (await ada.api.call(authCalls.createProject, { body: { name: 'Checkout flows' } })).project.id;
    await ada.api.call(authCalls.updateLastActiveProjectId, { body: { project_id: lastActive } });
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("goes to the last active project's features page with ?redirect=features", async () => {
    await page.goto('/?redirect=features');
    await page.waitForURL((url) => url.pathname === `/${lastActive}/features`);
    await page.getByText('No features found.').first().waitFor();
    await expectAccessible(page, 'features page reached by ?redirect=features');
    await screenshotAtSizes(page, 'redirect-features');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('goes to its dashboard with any other redirect, or none', async () => {
    await page.goto('/?redirect=runs');
    await page.waitForURL((url) => url.pathname === `/${lastActive}/dashboard`);
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${lastActive}/dashboard`);
  });
});
