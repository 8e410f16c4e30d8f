import { adminCalls, authCalls, type SsoFailure } from '@rehearse/contract';
import { launchBrowser } from '@rehearse/runner/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, TEST_OIDC_CLIENT, type TestPerson } from '../testing/oidc-provider.js';
import { freePort } from '../testing/ports.js';
import { failure, signUp, startTestApp, TEST_PASSWORD, type TestApp } from '../testing/test-app.js';

/** People the identity provider knows, by the login typed on its (development) sign-in page. */
const PEOPLE: Record<string, TestPerson> = {
  ana: { email: 'Ana.Lopez@acme.test', email_verified: true, given_name: 'Ana', family_name: 'Lopez' },
  sam: { email: 'sam@acme.test', email_verified: true, given_name: 'Sam', family_name: 'Password' },
  eve: { email: 'eve@acme.test', email_verified: false, given_name: 'Eve', family_name: 'Unverified' },
  ivy: { email: 'ivy@elsewhere.test', email_verified: true, given_name: 'Ivy', family_name: 'Uninvited' },
};

/**
 * Single sign-on end to end against a real OIDC provider on loopback (`oidc-provider`, with its
 * development sign-in pages), driven in Chromium as a person would: our start, the provider's
 * sign-in and consent, our callback, the web app's landing URL with the session in its fragment.
 */
describe('single sign-on with an OIDC provider', () => {
  let test: TestApp;
  let publicUrl: string;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let browser: Browser;

  beforeAll(async () => {
    const appPort = await freePort();
    publicUrl = `http://127.0.0.1:${appPort}`;
    provider = await startOidcProvider(publicUrl, PEOPLE);
    test = await startTestApp('pglite', {
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_OIDC_CLIENT.secret,
      OIDC_NAME: 'Acme ID',
    });
    await test.app.listen({ host: '127.0.0.1', port: appPort });
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await test?.close();
    provider?.close();
  });

  /** Signs in at the provider as `login` and answers where our callback sent the browser. */
  async function signInAs(login: string, callbackUrl = '/projects'): Promise<URL> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${publicUrl}/api/auth/sso/start?callbackUrl=${encodeURIComponent(callbackUrl)}`);
      await page.locator('input[name=login]').fill(login);
      await page.locator('input[name=password]').fill('anything');
      await page.locator('button[type=submit]').click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.origin === publicUrl && !url.pathname.startsWith('/api/'));
      return new URL(page.url());
    } finally {
      await context.close();
    }
  }
  const tokenOf = (landed: URL) => new URLSearchParams(landed.hash.slice(1)).get('token');

  it('says whether it is offered and what its button is called', async () => {
    expect(await test.client().call(authCalls.ssoConfig)).toEqual({ status: true, enabled: true, name: 'Acme ID' });
  });

  it('makes an account for a verified email the sign-up policy admits, and lands on /sso with its session', async () => {
    const landed = await signInAs('ana', '/projects');
    expect(landed.pathname).toBe('/sso');
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect(fragment.get('callbackUrl')).toBe('/projects');
    const { user } = await test.client(fragment.get('token')).call(authCalls.me);
    expect(user).toMatchObject({ email: 'ana.lopez@acme.test', givenName: 'Ana', familyName: 'Lopez' });
    // A Default project, as a sign-up gets.
    expect((await test.client(fragment.get('token')).call(authCalls.getProjects)).projects).toHaveLength(1);
    // Signing in again finds the same account.
    const again = await signInAs('ana');
    expect((await test.client(tokenOf(again)).call(authCalls.me)).user.userId).toBe(user.userId);
  });

  it('links to the account that already has the email, which keeps its password', async () => {
    const sam = await signUp(test, { email: 'sam@acme.test' });
    const landed = await signInAs('sam');
    expect((await test.client(tokenOf(landed)).call(authCalls.me)).user.userId).toBe(sam.user.id);
    expect((await test.client().call(authCalls.login, { body: { email: 'sam@acme.test', password: TEST_PASSWORD } })).status).toBe(true);
  });

  it('refuses an email its provider did not verify, and an email the sign-up policy does not admit, making nothing', async () => {
    const failureOf = (landed: URL) => [landed.pathname, landed.searchParams.get('sso') as SsoFailure | null];
    expect(failureOf(await signInAs('eve'))).toEqual(['/login', 'unverified']);
    const [admin] = await test.database.rows<{ id: string }>(`select id from users where instance_admin limit 1`);
    expect(admin).toBeDefined();
    const adminToken = (await signInAs('ana').then(tokenOf))!;
    await test.client(adminToken).call(adminCalls.updateSettings, { body: { signup: { kind: 'invite' } } });
    expect(failureOf(await signInAs('ivy'))).toEqual(['/login', 'invite']);
    const made = await test.database.rows(`select email from users where email in ('eve@acme.test', 'ivy@elsewhere.test')`);
    expect(made).toEqual([]);
  });

  it('refuses a callback without its attempt, and one whose state was changed', async () => {
    const bare = await test.app.inject({ method: 'GET', url: '/api/auth/sso/callback?code=stolen&state=guess' });
    expect([bare.statusCode, bare.headers.location]).toEqual([302, '/login?sso=expired']);
    const start = await test.app.inject({ method: 'GET', url: '/api/auth/sso/start' });
    expect(start.statusCode).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax; Max-Age=600/);
    const forged = await test.app.inject({ method: 'GET', url: '/api/auth/sso/callback?code=stolen&state=guess', headers: { cookie } });
    expect([forged.statusCode, forged.headers.location]).toEqual([302, '/login?sso=failed']);
    const tampered = await test.app.inject({
      method: 'GET',
      url: '/api/auth/sso/callback?code=stolen&state=guess',
      headers: { cookie: cookie.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')) },
    });
    expect([tampered.statusCode, tampered.headers.location]).toEqual([302, '/login?sso=expired']);
  });
});

describe('single sign-on configured by an administrator', () => {
  let test: TestApp;
  let publicUrl: string;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;

  beforeAll(async () => {
    const appPort = await freePort();
    publicUrl = `http://127.0.0.1:${appPort}`;
    provider = await startOidcProvider(publicUrl, PEOPLE);
    test = await startTestApp('pglite', { PUBLIC_URL: publicUrl });
    await test.app.listen({ host: '127.0.0.1', port: appPort });
  });
  afterAll(async () => {
    await test?.close();
    provider?.close();
  });

  it('is off until saved, checks the provider before saving, never answers its secret, and applies without a restart', async () => {
    const admin = await signUp(test, { email: 'sso-admin@acme.test' });
    expect((await admin.api.call(adminCalls.getSingleSignOn)).sso).toEqual({
      source: 'none',
      issuer: null,
      clientId: null,
      name: null,
      clientSecretSet: false,
      redirectUri: `${publicUrl}/api/auth/sso/callback`,
    });
    expect((await test.client().call(authCalls.ssoConfig)).enabled).toBe(false);
    const body = { issuer: provider.issuer, clientId: TEST_OIDC_CLIENT.id, clientSecret: TEST_OIDC_CLIENT.secret, name: 'Acme ID' };

    const insecure = await failure(admin.api.call(adminCalls.updateSingleSignOn, { body: { ...body, issuer: 'http://id.acme.test' } }));
    expect([insecure.httpStatus, insecure.message]).toEqual([
      400,
      "Enter the identity provider's issuer URL: https://, or http:// on this machine only.",
    ]);
    const closed = await freePort();
    const unreachable = await failure(
      admin.api.call(adminCalls.updateSingleSignOn, { body: { ...body, issuer: `http://127.0.0.1:${closed}` } }),
    );
    expect(unreachable.httpStatus).toBe(400);
    expect(unreachable.message).toMatch(
      /^Rehearse could not read the OpenID configuration at this issuer \(.+\)\. Check the URL, and that this server can reach it\.$/,
    );
    const noSecret = await failure(admin.api.call(adminCalls.updateSingleSignOn, { body: { ...body, clientSecret: undefined } }));
    expect([noSecret.httpStatus, noSecret.message]).toEqual([400, 'Enter the client secret your identity provider gave Rehearse.']);
    expect((await admin.api.call(adminCalls.getSingleSignOn)).sso.source).toBe('none');

    const saved = await admin.api.call(adminCalls.updateSingleSignOn, { body });
    expect(saved.sso).toMatchObject({
      source: 'saved',
      issuer: provider.issuer,
      clientId: 'rehearse',
      name: 'Acme ID',
      clientSecretSet: true,
    });
    expect(JSON.stringify(saved)).not.toContain(TEST_OIDC_CLIENT.secret);
    const [stored] = await test.database.rows<{ value: string }>(`select value::text as value from instance_settings where key = 'sso'`);
    expect(stored!.value).not.toContain(TEST_OIDC_CLIENT.secret);
    expect(await test.client().call(authCalls.ssoConfig)).toEqual({ status: true, enabled: true, name: 'Acme ID' });

    // A browser now signs in through it; a later change without the secret keeps the saved one.
    const browser = await launchBrowser({ browser: 'chromium', headless: true });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${publicUrl}/api/auth/sso/start`);
      await page.locator('input[name=login]').fill('ana');
      await page.locator('input[name=password]').fill('x');
      await page.locator('button[type=submit]').click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.origin === publicUrl && url.pathname === '/sso');
    } finally {
      await browser.close();
    }
    const renamed = await admin.api.call(adminCalls.updateSingleSignOn, { body: { ...body, clientSecret: undefined, name: 'Acme SSO' } });
    expect(renamed.sso).toMatchObject({ name: 'Acme SSO', clientSecretSet: true });

    expect((await admin.api.call(adminCalls.clearSingleSignOn)).sso.source).toBe('none');
    expect((await test.client().call(authCalls.ssoConfig)).enabled).toBe(false);
    const { activity } = await admin.api.call(adminCalls.listActivity, { query: { limit: 10 } });
    expect(JSON.stringify(activity)).not.toContain(TEST_OIDC_CLIENT.secret);
  });
});
