import { authCalls } from '@rehearse/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/mail/totp';
import { AdminPageModel } from './pages/admin.page';
import {
  DASHBOARD,
  expectAccessible,
  expectToast,
  PASSWORD,
  screenshotAtSizes,
  startHarness,
  type Account,
  type Harness,
} from './support/harness';

/**
 * Two-factor sign-in in Chromium: a user turns it on from the user menu (QR code, key, first
 * code, recovery codes shown once), then signs in with the password and a code, and with a
 * recovery code; an instance administrator resets it for a user who lost both.
 */
describe('two-factor sign-in in Chromium', () => {
  let h: Harness;
  let root: Account;
  let tess: Account;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    root = await h.signUp('Root');
    tess = await h.signUp('Tess');
  });
  afterAll(async () => h?.close());

  async function signIn(code: (page: Page) => Promise<void>) {
    const context = await h.browser.newContext({ baseURL: h.base, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(tess.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.' })
      .waitFor();
    await code(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    await context.close();
  }

  it('turns on from the user menu with a QR code and a first code, and shows ten recovery codes once', async () => {
    const { context, page } = await h.open(tess);
    await page.goto(`/${tess.projectId}/dashboard`);
    await page.getByRole('button', { name: 'Account menu' }).first().click();
    await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/two-factor');
    expect(await page.getByTestId('two-factor-state').innerText()).toBe('Off');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('two-factor-key').innerText()).replace(/\s/g, '');
    await expectAccessible(page, 'two-factor enrolment');
    await screenshotAtSizes(page, 'two-factor-enrol');
    await page.getByLabel('Code from your app').fill('000000');
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page
      .getByText('That code is not right, or was already used. Enter the current 6-digit code, or an unused recovery code.')
      .waitFor();
    await page.getByLabel('Code from your app').fill(totpCode(secret).code);
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expectToast(page, 'Two-factor sign-in is on.');
    recoveryCodes = (await page.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts()).map((text) => text.trim());
    expect(recoveryCodes).toHaveLength(10);
    await screenshotAtSizes(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    expect(await page.getByTestId('two-factor-state').innerText()).toBe('On · 10 recovery codes left');
    await context.close();
  });

  it('signs in with the password and then a code, or a recovery code', async () => {
    await signIn(async (page) => {
      await screenshotAtSizes(page, 'login-two-factor');
      await page.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000).code);
    });
    await signIn(async (page) => page.getByLabel('Authentication code').fill(recoveryCodes[0]!));
    expect((await h.api(tess.token).call(authCalls.twoFactorStatus)).recoveryCodesLeft).toBe(9);
  });

  it('is reset by an instance administrator for a user who lost their phone', async () => {
    const { context, page } = await h.open(root);
    await page.goto(`/${root.projectId}/admin/users`);
    const admin = new AdminPageModel(page);
    const row = admin.row('Users', tess.email);
    await row.getByTestId('two-factor').waitFor();
    await row.getByRole('button', { name: `Reset two-factor sign-in for ${tess.email}` }).click();
    await expectToast(page, `${tess.email} signs in with their password alone until they turn two-factor on again.`);
    await expect.poll(() => row.getByTestId('two-factor').count()).toBe(0);
    expect((await h.api(null).call(authCalls.login, { body: { email: tess.email, password: PASSWORD } })).status).toBe(true);
    await context.close();
  });
});
