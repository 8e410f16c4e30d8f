import { workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopBarPageModel } from './pages/topbar.page';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/**
 * Spec 01 §4 "In the cloud": the user's concurrent sessions and the environment's reachability
 * are checked before the recorder tab opens; Start is disabled while checking, a failure shows
 * the spec 02 §8 words, and the button then reads 'Retry starting'.
 */
describe('starting the cloud recorder from the chooser in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let bar: TopBarPageModel;
  const tabs: Page[] = [];

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    // Nothing listens on port 9 (discard): the cloud cannot reach it.
    await ada.api.call(workspaceCalls.pushEnv, {
      body: { projectId: ada.projectId, name: 'offline', data: { baseUrl: 'http://127.0.0.1:9/' } },
    });
    await ada.api.call(workspaceCalls.pushEnv, {
      body: { projectId: ada.projectId, name: 'trail', data: { baseUrl: `${h.base}/demo-shop/` } },
    });
    ({ context, page } = await h.open(ada));
    // The recorder tab is not what this file tests: it never starts a session here.
    await context.route('**/api/guac/create-connection', (route) => route.fulfill({ status: 503, json: { status: false, error: 'busy' } }));
    page.on('popup', (tab) => tabs.push(tab));
    bar = new TopBarPageModel(page);
    await page.goto(`/${ada.projectId}/dashboard`);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  const chooser = () => bar.recorderChooser();
  const startButton = () => chooser().getByRole('button', { name: /^(Start recording|Retry starting|Checking the cloud recorder…)$/ });

  async function openCloudChooser(env: string): Promise<void> {
    await bar.chooseEnvironment(env);
    await expect.poll(() => bar.currentEnvironment().textContent()).toBe(env);
    await expect.poll(() => bar.recordButton().isEnabled()).toBe(true);
    await bar.recordButton().click();
    await chooser().waitFor();
    await chooser().getByLabel('In the cloud').check();
  }

  it('disables Start while checking, says the environment is not reachable, and offers Retry starting', async () => {
    await openCloudChooser('offline');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue().catch(() => undefined);
    };
    await page.route('**/api/guac/check-environment-is-reachable', hold);
    await startButton().click();
    await expect.poll(() => startButton().textContent()).toBe('Checking the cloud recorder…');
    expect(await startButton().isDisabled()).toBe(true);
    expect(await chooser().locator('svg.animate-spin').count()).toBe(1);
    await screenshotAtSizes(page, 'cloud-start-checking');
    release();
    const alert = chooser().getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    await page.unroute('**/api/guac/check-environment-is-reachable', hold);
    expect(await alert.innerText()).toContain('Your environment is not reachable from the cloud');
    expect(await alert.innerText()).toContain(
      'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
    );
    expect(await startButton().textContent()).toBe('Retry starting');
    expect(await startButton().isEnabled()).toBe(true);
    expect(tabs).toEqual([]);
    await expectAccessible(page, 'cloud start refused: environment not reachable');
    await screenshotAtSizes(page, 'cloud-start-unreachable');
    await chooser().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => chooser().count()).toBe(0);
  });

  it('stops at the concurrent-session limit before probing the environment', async () => {
    await openCloudChooser('trail');
    const probed: string[] = [];
    const sessions = (route: Route) => route.fulfill({ json: { status: true, activeSessions: 2 } });
    const probe = async (route: Route) => {
      probed.push(route.request().url());
      await route.continue();
    };
    await page.route('**/api/guac/concurrent-sessions-for-user*', sessions);
    await page.route('**/api/guac/check-environment-is-reachable', probe);
    try {
      await startButton().click();
      const alert = chooser().getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain('You have reached the maximum number of sessions');
      expect(await alert.innerText()).toContain(
        'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
      );
      expect(await startButton().textContent()).toBe('Retry starting');
      // "Please end ongoing sessions": the user's own open sessions are listed right here, each
      // with End (none on the server here: the count above is the route's, so it says so).
      const open = chooser().getByRole('region', { name: 'Your open sessions' });
      await open.getByText('None of your sessions is open any more: try again.').waitFor();
      expect(probed).toEqual([]);
      expect(tabs).toEqual([]);
      await expectAccessible(page, 'cloud start refused: session limit');
      await screenshotAtSizes(page, 'cloud-start-limit');
    } finally {
      await page.unroute('**/api/guac/concurrent-sessions-for-user*', sessions);
      await page.unroute('**/api/guac/check-environment-is-reachable', probe);
    }

    // A session ended elsewhere: Retry starting checks again and opens the recorder tab.
    const [tab] = await Promise.all([page.waitForEvent('popup'), startButton().click()]);
    await tab.waitForURL(/\/remote-recorder\//);
    const url = new URL(tab.url());
    await tab.close();
    expect(url.pathname).toBe('/remote-recorder/record');
    expect(url.searchParams.get('project_id')).toBe(ada.projectId);
    expect(url.searchParams.get('env_name')).toBe('trail');
    await expect.poll(() => chooser().count()).toBe(0);
  });
});
