import { authCalls } from '@rehearse/contract';
import { StorageKeys } from '../src/lib/storage-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, TEST_OIDC_CLIENT } from '../../server/src/testing/oidc-provider';
import { freePort } from '../../server/src/testing/ports';
import { DASHBOARD, expectAccessible, screenshotAtSizes, startHarness, type Harness } from './support/harness';

/**
 * Single sign-on in Chromium, as a person meets it: the sign-in page offers "Sign in with Acme ID",
 * the team's provider (a real OIDC provider on loopback) asks who they are, and they land in
 * Rehearse signed in; a person the provider did not verify is told why on the sign-in page.
 */
describe('single sign-on in Chromium', () => {
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;

  beforeAll(async () => {
    const publicUrl = `http://127.0.0.1:${await freePort()}`;
    provider = await startOidcProvider(publicUrl, {
      nora: { email: 'nora@acme.test', email_verified: true, given_name: 'Nora', family_name: 'Single' },
      vic: { email: 'vic@acme.test', email_verified: false, given_name: 'Vic', family_name: 'Unverified' },
    });
    h = await startHarness({
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_OIDC_CLIENT.secret,
      OIDC_NAME: 'Acme ID',
    });
  });
  afterAll(async () => {
    await h?.close();
    provider?.close();
  });

  async function openSignIn() {
    const context = await h.browser.newContext({ baseURL: h.base, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto('/login');
    const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    return { context, page, button };
  }

  it('signs a new person in through their provider and lands them on their dashboard', async () => {
    const { context, page, button } = await openSignIn();
    await expectAccessible(page, 'sign-in page with single sign-on');
    await screenshotAtSizes(page, 'login-sso');
    await button.click();
    await page.locator('input[name=login]').fill('nora');
    await page.locator('input[name=password]').fill('whatever the provider asks');
    await page.locator('button[type=submit]').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    // The token left the address bar with the fragment.
    expect(new URL(page.url()).hash).toBe('');
    const token = await page.evaluate((key) => localStorage.getItem(key), StorageKeys.token);
    expect((await h.api(token).call(authCalls.me)).user.email).toBe('nora@acme.test');
    await screenshotAtSizes(page, 'sso-dashboard');
    await context.close();
  });

  it('tells a person whose email the provider did not verify why they are not signed in', async () => {
    const { context, page, button } = await openSignIn();
    await button.click();
    await page.locator('input[name=login]').fill('vic');
    await page.locator('input[name=password]').fill('x');
    await page.locator('button[type=submit]').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Your identity provider did not confirm your email address, so it cannot be matched to an account here.' })
      .waitFor();
    await screenshotAtSizes(page, 'login-sso-refused');
    await context.close();
  });

  it('is configured on Administration → Sign-up: from the variables, then saved with a new name, checked against the provider', async () => {
    // Nora came in through the provider first, so she is the instance administrator; a session of hers, as that sign-in made.
    const [nora] = await h.test.database.rows<{ id: string }>(`select id from users where email = 'nora@acme.test' and instance_admin`);
    expect(nora).toBeDefined();
    const { token } = await h.test.services.sessions.signInWithIdentity({ email: 'nora@acme.test', firstName: 'Nora', lastName: 'Single' });
    const projects = await h.api(token).call(authCalls.getProjects);
    const { context, page } = await h.open({
      email: 'nora@acme.test',
      firstname: 'Nora',
      lastname: 'Single',
      token,
      projectId: projects.projects[0]!.id,
      api: h.api(token),
    });
    await page.goto(`/${projects.projects[0]!.id}/admin/sign-up`);
    const section = page.getByRole('form', { name: 'Single sign-on' });
    await section.waitFor();
    expect(await section.getByTestId('sso-source').innerText()).toBe('From the OIDC_* variables');
    expect(await section.getByLabel('Client ID').inputValue()).toBe('rehearse');
    await section.getByText('A secret is kept. Leave this empty to keep it.').waitFor();
    await section.getByLabel('Issuer URL').fill('http://id.acme.test');
    await section.getByRole('button', { name: 'Save single sign-on' }).click();
    await section.getByText("Enter the identity provider's issuer URL: https://, or http:// on this machine only.").waitFor();
    await section.getByLabel('Issuer URL').fill(provider.issuer);
    await section.getByLabel('Button name').fill('Acme Login');
    await section.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => section.getByTestId('sso-source').innerText()).toBe('Saved here');
    await expectAccessible(page, 'single sign-on settings');
    await screenshotAtSizes(page, 'admin-sso');
    expect((await h.api(null).call(authCalls.ssoConfig)).name).toBe('Acme Login');
    await context.close();
  });
});
