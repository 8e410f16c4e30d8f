import { authCalls, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

const shots = process.env.WEB_SCREENSHOTS === '1';

/** "How to run in CI/CD": the server's instructions for the environment the user picks. */
describe('the CI/CD instructions page in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let keyId: string;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    await ada.api.call(ws.pushEnv, { body: { projectId: ada.projectId, name: 'staging', data: { baseUrl: `${h.base}/demo-shop/` } } });
    keyId = (await ada.api.call(authCalls.createAccessKey, { body: { projectId: ada.projectId, name: 'CI key' } })).accessKey.id;
    ({ context, page } = await h.open(ada, { width: 1440, height: 900 }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.base });
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows the install-from-this-server, pull, run lines for the picked environment, copies them whole and clips none', async () => {
    await page.goto(`/${ada.projectId}/runs/instructions`);
    // One control of that name on the page (the top bar's environment selector is another).
    const picker = page.getByLabel(Strings.instructionsEnvironment);
    await picker.waitFor();
    // The page belongs to Executions (it is linked from there and its back link returns there), not to Reports.
    const nav = page.getByRole('navigation', { name: Strings.mainNavigation });
    expect(await nav.getByRole('link', { name: Strings.navExecutions }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: Strings.navReports }).getAttribute('aria-current')).toBeNull();
    expect(await page.getByRole('link', { name: Strings.instructionsBack }).getAttribute('href')).toBe(`/${ada.projectId}/executions`);
    expect(await picker.locator('option').allTextContents()).toEqual(['default', 'staging']);
    await picker.selectOption('staging');
    const shell = page.getByRole('region', { name: 'Shell' });
    await expect.poll(() => shell.locator('pre').textContent()).toContain('--env environments/staging.json');
    const text = (await shell.locator('pre').textContent())!;
    expect(text).toContain('npm install --no-save --no-audit --no-fund http://rehearse.test/downloads/rehearse-runner-latest.tgz');
    expect(text).toContain(
      `npx rehearse pull --server http://rehearse.test --project ${ada.projectId} --branch main --dir rehearse-workspace`,
    );
    expect(text).toMatch(/npx playwright-core@\d+\.\d+\.\d+ install --with-deps chromium/);

    await shell.getByRole('button', { name: Strings.copy }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);

    // Nothing clipped, at either size: every block's text fits its box (it wraps, it never scrolls away).
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      await page.setViewportSize(size);
      const overflowing = await page
        .locator('pre')
        .evaluateAll((blocks) => blocks.filter((block) => block.scrollWidth > block.clientWidth + 1).length);
      expect([size.width, overflowing]).toEqual([size.width, 0]);
      if (shots) await page.screenshot({ path: `/tmp/web-run-instructions-${size.width}.png`, fullPage: true });
    }
    await expectAccessible(page, 'CI/CD instructions');
    expect(await page.getByTestId('access-token-required').count()).toBe(0);
  });

  it('asks for an access token when the project has none, logs it, and links to generating one', async () => {
    await ada.api.call(authCalls.deleteAccessKey, { body: { id: keyId } });
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/${ada.projectId}/runs/instructions`);
    const alert = page.getByTestId('access-token-required');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Access token required: Generate an access token to use this feature');
    await expect.poll(() => logged).toContain('No Access Key found');
    await expectAccessible(page, 'CI/CD instructions without an access token');
    await screenshotAtSizes(page, 'run-instructions-token-required');
    await alert.getByRole('link', { name: 'Generate new token' }).click();
    await page.waitForURL((url) => url.pathname === `/${ada.projectId}/settings/access-tokens`);
    await page.getByRole('dialog', { name: 'Generate new token' }).waitFor();
  });

  it("asks for an access token in the scenario's Run via CI/CD dialog too", async () => {
    await ada.api.call(ws.pushFile, {
      body: {
        projectId: ada.projectId,
        directory: 'features',
        file: { name: 'checkout.feature', content: 'Feature: checkout\n\n  Scenario: Pay by card\n    Given I open "/demo-shop/"\n' },
      },
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/${ada.projectId}/features?feature=checkout&scenario=Pay%20by%20card`);
    await page.getByRole('button', { name: 'More run options' }).click();
    await page.getByRole('menuitem', { name: 'Run via CI/CD' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run via CI/CD' });
    const alert = dialog.getByTestId('access-token-required');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Access token required: Generate an access token to use this feature');
    await dialog.getByTestId('ci-instructions').waitFor();
    await expectAccessible(page, 'Run via CI/CD dialog without an access token');
    await screenshotAtSizes(page, 'scenario-ci-token-required');
  });
});
