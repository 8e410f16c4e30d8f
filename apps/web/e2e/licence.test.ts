import { Messages, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { TopBarPageModel } from './pages/topbar.page';
import { expectAccessible, screenshotAtSizes, setLicenceExpiry, startHarness, type Account, type Harness } from './support/harness';

/** The licence countdown and modal, the expired-project block, contact sales, and dialog behaviour. */
describe('licence and dialogs in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let bar: TopBarPageModel;

  const dashboard = async () => {
    await page.goto(`/${ada.projectId}/dashboard`);
    await bar.licenceButton().waitFor();
  };

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada));
    bar = new TopBarPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("titles the modal 'License Notice - {n} Days Remaining' with the days left plus one", async () => {
    await dashboard();
    expect(await page.getByTestId('licence-countdown').textContent()).toBe(Strings.licenceDaysLeft(14));
    await bar.licenceButton().click();
    await expect.poll(() => bar.licenceDialog().getByRole('heading').textContent()).toBe(Strings.licenceDaysTitle(14));
    await expectAccessible(page, 'licence dialog');
  });

  it('traps focus inside a dialog and closes it on Escape, giving focus back', async () => {
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await bar.licenceDialog().evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => bar.licenceDialog().count()).toBe(0);
    await expect.poll(() => bar.licenceButton().evaluate((button) => button === document.activeElement)).toBe(true);
  });

  it("says 'One Day Remaining' on the last day, in orange", async () => {
    await setLicenceExpiry(h.test, ada.projectId, '2 hours');
    await dashboard();
    // The reload paints the persisted cache first (spec 02 §9), then the revalidated project.
    await expect.poll(() => page.getByTestId('licence-countdown').textContent()).toBe(Strings.licenceDaysLeft(1));
    await expect.poll(() => bar.licenceButton().getAttribute('class')).toContain('orange');
    await bar.licenceButton().click();
    await expect.poll(() => bar.licenceDialog().getByRole('heading').textContent()).toBe(Strings.licenceOneDayTitle);
    await page.keyboard.press('Escape');
  });

  it('blocks recording, adding environments and generating tokens on an expired project with the licence modal', async () => {
    await setLicenceExpiry(h.test, ada.projectId, '-1 day');
    await dashboard();
    await expect.poll(() => page.getByTestId('licence-countdown').textContent()).toBe(Strings.licenceExpiredShort);

    await bar.recordButton().click();
    await expect.poll(() => bar.licenceDialog().getByRole('heading').textContent()).toBe(Strings.licenceExpiredTitle);
    expect(await bar.recorderChooser().count()).toBe(0);
    expect(await bar.licenceDialog().getByText(Messages.licenceExpired).count()).toBe(1);
    await page.keyboard.press('Escape');

    await bar.addEnvironment();
    await bar.licenceDialog().waitFor();
    expect(await bar.environmentDialog().count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto(`/${ada.projectId}/settings/access-tokens`);
    await page.getByRole('button', { name: Strings.tokenGenerate }).click();
    await bar.licenceDialog().waitFor();
    expect(await page.getByTestId('generate-token-dialog').count()).toBe(0);
  });

  it('opens the contact-sales form prefilled from the licence modal and sends it to the sales address', async () => {
    await bar.licenceDialog().getByRole('button', { name: Strings.contactSales }).click();
    const form = page.getByTestId('contact-sales-dialog');
    await form.waitFor();
    expect(await form.getByLabel(Strings.contactSalesName).inputValue()).toBe(`${ada.firstname} ${ada.lastname}`);
    expect(await form.getByLabel(Strings.contactSalesEmail).inputValue()).toBe(ada.email);
    expect(await form.getByLabel(Strings.contactSalesProject).inputValue()).toBe(ada.projectId);
    await expectAccessible(page, 'contact sales form');
    await page.evaluate(() => {
      (window as unknown as { opened: string[] }).opened = [];
      window.open = (url) => {
        (window as unknown as { opened: string[] }).opened.push(String(url));
        return null;
      };
    });
    await form.getByLabel(Strings.contactSalesCompany).fill('Acme');
    await form.getByRole('button', { name: Strings.contactSalesSend }).click();
    const [opened] = await page.evaluate(() => (window as unknown as { opened: string[] }).opened);
    const url = new URL(opened!);
    expect(url.protocol).toBe('mailto:');
    expect(url.searchParams.get('body')).toContain(ada.projectId);
    expect(url.searchParams.get('body')).toContain('Acme');
    expect(url.searchParams.get('body')).toContain(ada.email);
  });

  it('keeps a delete dialog open while it deletes, even on Escape', async () => {
    await setLicenceExpiry(h.test, ada.projectId, '20 days');
    await ada.api.call(workspaceCalls.pushEnv, {
      body: { projectId: ada.projectId, name: 'old', data: { baseUrl: 'https://old.example.com' } },
    });
    await dashboard();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/workspace/delete-env', async (route) => {
      await held;
      await route.continue();
    });
    await bar.openEnvironments();
    await bar.deleteEnvironmentButton('old').click();
    const dialog = bar.confirmDialog();
    await dialog.getByRole('button', { name: Strings.delete, exact: true }).click();
    await expect.poll(() => dialog.getByRole('button', { name: Strings.deleting }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: Strings.close }).isDisabled()).toBe(true);
    release();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.unroute('**/api/workspace/delete-env');
  });

  it('shows the licence modal before opening the code editor, and opens open_vscode for the scenario otherwise', async () => {
    await setLicenceExpiry(h.test, ada.projectId, '10 days');
    await ada.api.call(workspaceCalls.pushFile, {
      body: {
        projectId: ada.projectId,
        directory: 'features',
        file: { name: 'checkout.feature', content: 'Feature: checkout\n\n  Scenario: Pay by card\n    Given I open "/demo-shop/"\n' },
      },
    });
    await setLicenceExpiry(h.test, ada.projectId, '-1 day');
    const openEditor = async () => {
      await page.goto(`/${ada.projectId}/features?feature=checkout&scenario=Pay%20by%20card`);
      await page.getByRole('button', { name: 'Scenario actions' }).click();
      await page.getByRole('menuitem', { name: 'Open in code editor' }).click();
    };
    await openEditor();
    await expect.poll(() => bar.licenceDialog().getByRole('heading').textContent()).toBe('License has expired');
    expect(context.pages()).toHaveLength(1);
    await page.keyboard.press('Escape');

    await setLicenceExpiry(h.test, ada.projectId, '10 days');
    await page.reload();
    await page.getByRole('button', { name: 'Scenario actions' }).click();
    await page.getByRole('menuitem', { name: 'Open in code editor' }).waitFor();
    await expectAccessible(page, 'scenario actions menu with Open in code editor');
    await screenshotAtSizes(page, 'scenario-actions-code-editor');
    await page.setViewportSize({ width: 1440, height: 900 });
    const [tab] = await Promise.all([context.waitForEvent('page'), openEditor()]);
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/open-recorder/open_vscode');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      project_id: ada.projectId,
      feature_file: 'checkout.feature',
      scenario_name: 'Pay by card',
    });
    await tab.close();
    await setLicenceExpiry(h.test, ada.projectId, '-1 day');
  });
});
