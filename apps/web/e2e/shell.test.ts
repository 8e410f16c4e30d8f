import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, createApiClient } from '@rehearse/api-client';
import { authCalls, Messages } from '@rehearse/contract';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../server/src/testing/test-app.js';
import { StorageKeys } from '../src/lib/storage-keys';
import { Strings } from '../src/lib/strings';
import { LoginPageModel } from './pages/login.page';
import { ShellPageModel } from './pages/shell.page';
import { CHROMIUM } from './support/harness';

/**
 * The shell in a real Chromium against the real server (fresh PGlite), serving the built app.
 * Build first: `npm run build --workspace apps/web`.
 */
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const PASSWORD = 'correct horse battery';
const DASHBOARD = /^\/[0-9a-f-]{36}\/dashboard$/;

describe('web shell in Chromium', () => {
  let test: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let login: LoginPageModel;
  let shell: ShellPageModel;
  const email = `ada-${Date.now()}@acme.test`;

  const pathname = () => new URL(page.url()).pathname;
  const apiAs = (token: string | null) => createApiClient({ baseUrl: base, getToken: () => token });

  beforeAll(async () => {
    if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
      throw new Error(`No web build at ${WEB_DIST}; run "npm run build --workspace apps/web" first.`);
    }
    test = await startTestApp('pglite', { WEB_DIST_DIR: WEB_DIST });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    context = await browser.newContext({ baseURL: base, viewport: { width: 1500, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    login = new LoginPageModel(page);
    shell = new ShellPageModel(page);
  });

  afterAll(async () => {
    await browser?.close();
    await test?.close();
  });

  it('sends a signed-out visitor of a guarded route to /login with a callbackUrl', async () => {
    await page.goto('/00000000-0000-4000-8000-000000000000/features');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe('/00000000-0000-4000-8000-000000000000/features');
  });

  it("shows the server's error for a wrong password and stays on the sign-in page", async () => {
    await login.signIn('nobody@acme.test', 'wrong password');
    await expect.poll(() => login.formAlert().textContent()).toBe(Messages.invalidCredentials);
    // A 401 without a session is a form error, never the Session Expired dialog.
    expect(await shell.sessionExpiredDialog().count()).toBe(0);
    expect(pathname()).toBe('/login');
  });

  it('validates sign-up with the contract rules before calling the server', async () => {
    await page.getByRole('tab', { name: Strings.signUpTab }).click();
    await login.submit(Strings.signUpSubmit);
    await expect.poll(() => page.getByText(Messages.firstNameEmpty).count()).toBe(1);
    expect(await page.getByText(Messages.passwordTooShort).count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstname');
  });

  it('signs up and lands on the dashboard of the Default project, with the licence days left', async () => {
    await login.signUp({ firstname: 'Ada', lastname: 'Lovelace', email, password: PASSWORD });
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    await expect.poll(() => shell.heading().textContent()).toBe(Messages.defaultProjectName);

    const token = await shell.token();
    expect(token).toBeTruthy();
    const { projects } = await apiAs(token).call(authCalls.getProjects);
    expect(projects.map((p) => p.name)).toEqual([Messages.defaultProjectName]);
    // The callbackUrl was the features page of a project that is not hers: the guard sent her on to her own.
    expect(pathname()).toBe(`/${projects[0]!.id}/dashboard`);
    // A new trial: the API says 13 whole days, the UI shows 14 (days left plus one).
    expect(projects[0]!.time_left.days).toBe(13);
    expect(await shell.licenceCountdown().textContent()).toBe(Strings.licenceDaysLeft(14));
    await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('Ada Lovelace');
  });

  it('opens above 1445 px, toggles with Ctrl+B and the collapse button, auto-collapses below 1260 px', async () => {
    await page.reload();
    await expect.poll(() => shell.sidebar().getAttribute('data-state')).toBe('open');
    await expect.poll(() => shell.sidebarWidth()).toBe(300);

    await page.keyboard.press('Control+b');
    await expect.poll(() => shell.sidebarWidth()).toBe(83);
    // Collapsed, the items keep their names for assistive technology.
    expect(await shell.navLink(Strings.navCodeReview).count()).toBe(1);

    await page.getByRole('button', { name: Strings.expandSidebar }).click();
    await expect.poll(() => shell.sidebarWidth()).toBe(300);

    await page.setViewportSize({ width: 1200, height: 900 });
    await expect.poll(() => shell.sidebar().getAttribute('data-state')).toBe('collapsed');
    await page.setViewportSize({ width: 1500, height: 900 });
  });

  it('switches project from the top bar, saves it as last active, and home goes back to it', async () => {
    const token = await shell.token();
    const created = await apiAs(token).call(authCalls.createProject, { body: { name: 'Checkout flows' } });
    const otherId = created.project.id;
    const { projects } = await apiAs(token).call(authCalls.getProjects);
    const defaultId = projects.find((p) => p.name === Messages.defaultProjectName)!.id;
    // Creating made the new project the last active one; point it back so the switch is what we see.
    await apiAs(token).call(authCalls.updateLastActiveProjectId, { body: { project_id: defaultId } });

    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${defaultId}/dashboard`);
    await shell.chooseProject('Checkout flows');
    await page.waitForURL((url) => url.pathname === `/${otherId}/dashboard`);
    await expect.poll(() => shell.heading().textContent()).toBe('Checkout flows');
    await expect.poll(async () => (await apiAs(token).call(authCalls.getLastActiveProject)).project_id).toBe(otherId);

    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${otherId}/dashboard`);
  });

  it('sends an unknown project id to the first project dashboard', async () => {
    await page.goto('/11111111-1111-4111-8111-111111111111/dashboard');
    await page.waitForURL((url) => DASHBOARD.test(url.pathname) && !url.pathname.startsWith('/1111'));
  });

  it('shows the not-found page for unknown paths, and GO BACK goes to the root', async () => {
    await page.goto('/this/page/does-not-exist');
    await expect.poll(() => shell.heading().textContent()).toBe('Page Not Found!');
    expect(await page.getByText("Sorry, we couldn't find the page you were looking for.").count()).toBe(1);
    await page.getByRole('button', { name: 'GO BACK' }).click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
  });

  it('covers the app with "Window Too Small" under 1024×660 and removes it when the window grows', async () => {
    const overlay = page.getByRole('alert').filter({ hasText: 'Window Too Small' });
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect.poll(() => overlay.isVisible()).toBe(true);
    await page.setViewportSize({ width: 1500, height: 640 });
    await expect.poll(() => overlay.isVisible()).toBe(true);
    await page.setViewportSize({ width: 1500, height: 900 });
    await expect.poll(() => overlay.count()).toBe(0);
  });

  it('stops spinners for a user who asked for less motion, and keeps them turning for everyone else', async () => {
    // Every spinner of the app is an icon with Tailwind's `animate-spin` (an infinite rotation): one
    // is added to the sign-in page and asked how its animation stands once it has started, or once
    // it has finished. Promises, not frames or a clock: the rotation runs on the compositor, which
    // reports its start a varying number of frames later on a busy machine (two frames were not
    // enough under a full suite). The wait for an end is bounded, since an infinite turn never ends.
    const spinnerState = async (reducedMotion: 'reduce' | 'no-preference', until: 'ready' | 'finished') => {
      const side = await browser.newContext({ baseURL: base, viewport: { width: 1500, height: 900 }, reducedMotion });
      try {
        const sidePage = await side.newPage();
        await sidePage.goto('/login');
        await sidePage.getByLabel(Strings.fieldEmail, { exact: true }).waitFor();
        return await sidePage.evaluate(async (until) => {
          const spinner = document.body.appendChild(document.createElement('div'));
          spinner.className = 'animate-spin';
          const reached = Promise.all(spinner.getAnimations().map((animation) => animation[until]));
          await Promise.race([reached, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          return spinner.getAnimations().map((animation) => animation.playState);
        }, until);
      } finally {
        await side.close();
      }
    };
    expect(await spinnerState('no-preference', 'ready')).toEqual(['running']);
    // Ran its one 1 ms turn and is gone: an animation that has finished and holds no fill is not
    // listed. Without the reduced-motion rule the turn never ends, and reads ['running'] after the bound.
    expect(await spinnerState('reduce', 'finished')).toEqual([]);
  });

  it('shows Session Expired when the session is revoked elsewhere; Reload leads to sign-in and back', async () => {
    await page.goto('/');
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    await shell.navLink(Strings.navSettings).click();
    await page.waitForURL((url) => url.pathname.endsWith('/settings/members'));
    const here = pathname();

    // Another client logs this very session out.
    await apiAs(await shell.token()).call(authCalls.logout);
    await page.reload();

    const dialog = shell.sessionExpiredDialog();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByText(Messages.sessionExpired).count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: Strings.sessionExpiredReload }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(here);
    expect(await page.evaluate((key) => localStorage.getItem(key), StorageKeys.token)).toBeNull();

    await login.signIn(email, PASSWORD);
    await page.waitForURL((url) => url.pathname === here);
  });

  it('sends a signed-in user who opens /login home', async () => {
    await page.goto('/login');
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
  });

  it('keeps the user menu open while a fresh load’s projects arrive and the layout re-renders with them', async () => {
    const projects = '**/api/auth/getProjects';
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(projects, async (route) => {
      await held;
      await route.continue();
    });
    // No cached projects: the sidebar shows while the list is on its way.
    await page.evaluate((key) => localStorage.removeItem(key), StorageKeys.queryCache);
    await page.reload();
    await shell.userMenuButton().click();
    await shell.userMenuItem(Strings.userMenuGetStarted).waitFor();
    release();
    await page.getByRole('button', { name: new RegExp(`^${Strings.projectSelectorLabel}:`) }).waitFor();
    expect(await shell.userMenuItem(Strings.userMenuGetStarted).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.unroute(projects);
  });

  it('logs out from the user menu: the token is gone here and refused by the server', async () => {
    const token = await shell.token();
    await shell.logout();
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    expect(await shell.token()).toBeNull();
    const refused = await apiAs(token)
      .call(authCalls.me)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).httpStatus).toBe(401);
    expect(await shell.sessionExpiredDialog().isVisible()).toBe(false);
  });
});
