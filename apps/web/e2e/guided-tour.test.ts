import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/**
 * Spec 01 §2: a first-time user's guided tour on the features page, 4 steps (features nav, code
 * output tab, Gherkin tab, tags) with Skip tour, Next and Got it; finishing removes newUser. The
 * user arrives on the dashboard with ?newUser=1 and reaches the features page through the sidebar,
 * on a project that has no scenario yet.
 */
describe('the guided tour for a first-time user in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('follows the user from the dashboard to the empty features page, points at all four targets, and ends for good', async () => {
    await page.goto(`/${ada.projectId}/dashboard?newUser=1`);
    await page.getByRole('navigation').getByRole('link', { name: 'Features' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/features'));
    const tour = page.getByTestId('guided-tour');
    await tour.waitFor();
    expect(await page.getByTestId('tour-preview').count()).toBe(1);

    const steps: [string, string][] = [
      ['Your features', 'nav a[href$="/features"]'],
      ['Code output', '[data-tour="code-tab"]'],
      ['Gherkin file', '[data-tour="gherkin-tab"]'],
      ['Tags', '[data-tour="tags"]'],
    ];
    for (const [index, [title, target]] of steps.entries()) {
      await expect.poll(() => tour.getByRole('heading').textContent()).toBe(title);
      expect(await tour.innerText()).toContain(`${index + 1} / 4`);
      // The step's target is on the page, even with no scenario yet.
      expect(await page.locator(target).first().isVisible()).toBe(true);
      if (index === 1) {
        await expectAccessible(page, 'guided tour on an empty project');
        await screenshotAtSizes(page, 'guided-tour-empty');
      }
      if (index < 3) await tour.getByRole('button', { name: 'Next' }).click();
    }
    expect(await tour.getByRole('button', { name: 'Skip tour' }).count()).toBe(0);
    await tour.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(() => tour.count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('newUser')).toBe(false);
    expect(await page.getByTestId('tour-preview').count()).toBe(0);

    // Finished means finished: the features page opens without it.
    await page.reload();
    // The page has rendered its (empty) list, beside which the tour would show.
    await page.getByRole('region', { name: 'Features' }).getByText('No features found.').waitFor();
    expect(await tour.count()).toBe(0);
  });

  it('ends with Skip tour too', async () => {
    await page.goto(`/${ada.projectId}/dashboard?newUser=1`);
    await page.getByRole('navigation').getByRole('link', { name: 'Features' }).click();
    const tour = page.getByTestId('guided-tour');
    await tour.getByRole('button', { name: 'Skip tour' }).click();
    await expect.poll(() => tour.count()).toBe(0);
    await page.reload();
    // The page has rendered its (empty) list, beside which the tour would show.
    await page.getByRole('region', { name: 'Features' }).getByText('No features found.').waitFor();
    expect(await tour.count()).toBe(0);
  });
});
