import { workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GETTING_STARTED_VIDEO_SECONDS } from '../src/lib/getting-started';
import { Strings } from '../src/lib/strings';
import { ShellPageModel } from './pages/shell.page';
import { expectAccessible, startHarness, type Account, type Harness } from './support/harness';

/** Get Started (/onboarding): the four steps, ticked from the project's real data. */
describe('Get Started page in Chromium', () => {
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

  it('is reached from the user menu and ticks only what the project has done', async () => {
    await page.goto(`/${ada.projectId}/dashboard`);
    await new ShellPageModel(page).openGetStarted();
    await page.waitForURL('**/onboarding');
    await expect.poll(() => page.getByLabel(Strings.onboardingToDo).count()).toBe(3);
    expect(await page.getByLabel(Strings.onboardingDone).count()).toBe(1);
    await expectAccessible(page, 'onboarding');
  });

  it('plays the 3:59 Getting Started video recorded from the product', async () => {
    await page.goto('/onboarding');
    const video = page.getByTestId('getting-started-video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(Math.round(duration)).toBe(GETTING_STARTED_VIDEO_SECONDS);
    // It really decodes: a frame a minute in has a picture.
    await video.evaluate(
      (v: HTMLVideoElement) =>
        new Promise((resolve) => {
          v.addEventListener('seeked', resolve, { once: true });
          v.currentTime = 60;
        }),
    );
    expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(1280);
  });

  it('ticks the scenario step once the project has a scenario, and links to the features page', async () => {
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: 'Scenario: Pay\n  Given I open "/"\n' },
    });
    await page.goto('/onboarding');
    await expect.poll(() => page.getByText(Strings.onboardingScenarioDone(1)).count()).toBe(1);
    expect(await page.getByLabel(Strings.onboardingDone).count()).toBe(2);
    await page.getByRole('link', { name: Strings.onboardingScenarioAction }).click();
    await page.waitForURL(`**/${ada.projectId}/features`);
  });
});
