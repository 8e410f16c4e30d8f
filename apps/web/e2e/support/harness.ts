import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { createApiClient, type ApiClient } from '@rehearse/api-client';
import { authCalls } from '@rehearse/contract';
import { findHeadlessShell } from '@rehearse/runner/browser';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../server/src/testing/test-app.js';
import { StorageKeys } from '../../src/lib/storage-keys';

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
/**
 * Headless Chromium as runs get it: the headless shell when installed (the same Blink and V8 as
 * the full browser without its UI layer, a fraction of its CPU per page), else the full browser.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? findHeadlessShell() ?? '/usr/bin/chromium';
export const PASSWORD = 'correct horse battery';
export const DASHBOARD = /^\/[0-9a-f-]{36}\/dashboard$/;

export interface Account {
  email: string;
  firstname: string;
  lastname: string;
  token: string;
  /** The Default project created at sign-up. */
  projectId: string;
  api: ApiClient;
}

/**
 * One real server (fresh PGlite, serving the built web app) and one Chromium per test file.
 * Build the app first: `npm run build --workspace apps/web`.
 */
export interface Harness {
  test: TestApp;
  base: string;
  browser: Browser;
  api(token: string | null): ApiClient;
  /** Signs a new user up through the API (fast); their Default project comes with it. */
  signUp(firstname: string, domain?: string): Promise<Account>;
  /** A new browser context signed in as `account`, with project creation's wait shortened. */
  /** `timezoneId` (an IANA zone) is the browser's own time zone, as a viewer abroad has it. */
  open(
    account: Account,
    viewport?: { width: number; height: number },
    options?: { timezoneId?: string },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

let counter = 0;

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`No web build at ${WEB_DIST}; run "npm run build --workspace apps/web" first.`);
  }
  const test = await startTestApp('pglite', { WEB_DIST_DIR: WEB_DIST, ...env });
  // A PUBLIC_URL given names the port too (single sign-on's callback must be known before listening).
  await test.app.listen({ host: '127.0.0.1', port: env.PUBLIC_URL ? Number(new URL(env.PUBLIC_URL).port) : 0 });
  const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const api = (token: string | null) => createApiClient({ baseUrl: base, getToken: () => token });

  return {
    test,
    base,
    browser,
    api,
    async signUp(firstname, domain = 'acme.test') {
      counter += 1;
      const email = `${firstname.toLowerCase()}-${Date.now()}-${counter}@${domain}`;
      const lastname = 'Tester';
      const answer = await api(null).call(authCalls.signup, { body: { email, password: PASSWORD, firstname, lastname } });
      return { email, firstname, lastname, token: answer.token, projectId: answer.project._id, api: api(answer.token) };
    },
    async open(account, viewport = { width: 1440, height: 900 }, options = {}) {
      const context = await browser.newContext({ baseURL: base, viewport, ...options });
      context.setDefaultTimeout(15_000);
      await context.addInitScript(
        ([tokenKey, token, waitKey]) => {
          // Only on the first page load of the context: later sign-outs must stick.
          if (sessionStorage.getItem('e2e-seeded')) return;
          sessionStorage.setItem('e2e-seeded', '1');
          localStorage.setItem(tokenKey!, token!);
          localStorage.setItem(waitKey!, '300');
        },
        [StorageKeys.token, account.token, StorageKeys.projectCreationWaitMs],
      );
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await test.close();
    },
  };
}

/** The two sizes every screen is looked at. */
export const SCREEN_SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/**
 * With WEB_SCREENSHOTS=1, takes the page at each size (animations settled) as
 * `/tmp/<name>-<width>.png`, and leaves it at the last size; otherwise does nothing.
 */
export async function screenshotAtSizes(
  page: Page,
  name: string,
  sizes: readonly { width: number; height: number }[] = SCREEN_SIZES,
): Promise<void> {
  if (process.env.WEB_SCREENSHOTS !== '1') return;
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settleAnimations(page);
    await page.screenshot({ path: `/tmp/${name}-${size.width}.png` });
  }
}

/** Fails with the list of serious or critical axe-core violations on the page, if any. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Let pending loads land and dialog animations finish: axe measures what is painted.
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  await page.waitForTimeout(250);
  // A dialog still fading in has opacity below 1 and axe blends its text with the page behind.
  await settleAnimations(page);
  // A toast fading in or out (3 s after it appeared, maybe mid-analysis) is half transparent and
  // axe blends its text with whatever is behind; measure the page once toasts have gone.
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 8000 })
    .catch(() => undefined);
  await settleAnimations(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((n) => `${n.target.join(' ')} [${n.failureSummary ?? ''}] ${n.html}`).join(', ')}`,
    );
  expect(serious, `axe on ${what}`).toEqual([]);
}

/**
 * Waits until every finite animation (dialogs fading in, panels sliding) has ended, so what axe
 * measures or a screenshot shows is the settled screen; on a loaded machine a fixed pause is not
 * always enough. Spinners (infinite) are not waited for.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Waits for a toast with exactly this text. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await expect.poll(() => page.locator('[data-sonner-toast]').filter({ hasText: text }).count()).toBeGreaterThan(0);
}

/** Moves a project's licence expiry to now plus a Postgres interval ('1 hour', '-1 day', '13 days 1 hour'). */
export async function setLicenceExpiry(test: TestApp, projectId: string, interval: string): Promise<void> {
  if (!/^-?[\w ]+$/.test(interval) || !/^[0-9a-f-]{36}$/.test(projectId)) throw new Error('bad test input');
  await test.database.execute(`update projects set licence_expires_at = now() + interval '${interval}' where id = '${projectId}'`);
}

/** Moves every run of a project back in time by a Postgres interval ('10 days'), as if published then. */
export async function backdateRuns(test: TestApp, projectId: string, interval: string): Promise<void> {
  if (!/^[\w ]+$/.test(interval) || !/^[0-9a-f-]{36}$/.test(projectId)) throw new Error('bad test input');
  await test.database.execute(
    `update runs set publish_time = publish_time - interval '${interval}', start_time = start_time - interval '${interval}',
       end_time = end_time - interval '${interval}' where project_id = '${projectId}'`,
  );
}
