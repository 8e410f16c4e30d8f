import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { expectAccessible, startHarness, type Account, type Harness } from './support/harness';
import { seedMemory } from './support/reports-seed';

const shots = process.env.WEB_SCREENSHOTS === '1';

/** The application map on routes taken from uploaded runs. */
describe('application map in Chromium', () => {
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

  it('says No memory available before any run visited a page', async () => {
    await page.goto(`/${ada.projectId}/memory`);
    await expect.poll(() => page.getByText('No memory available').count()).toBe(1);
    expect(await page.getByRole('link', { name: Strings.memoryBack }).getAttribute('href')).toBe(`/${ada.projectId}/dashboard`);
  });

  it('draws the routes, zooms within 50-200 % in 10 % steps, and opens a route’s panel', async () => {
    await seedMemory(ada.api, ada.projectId, ['/', '/shop', '/shop/cart', '/account'], 'memory-flow');
    // A run that only opened /shop/help: no navigation reaches it, so it hangs under /shop by its path.
    await seedMemory(ada.api, ada.projectId, ['/shop/help'], 'memory-help');
    await page.reload();
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(5);
    // The run went / → /shop → /shop/cart → /account.
    expect(await page.locator('.react-flow__edge.memory-edge-navigation').count()).toBe(3);
    const path = page.locator('.react-flow__edge.memory-edge-path');
    expect(await path.count()).toBe(1);
    expect(await path.getAttribute('data-id')).toBe('path:/shop->/shop/help');
    const zoom = () => page.getByTestId('memory-zoom').textContent();
    const start = Number((await zoom())!.replace('%', ''));
    await page.getByRole('button', { name: Strings.memoryZoomIn }).click();
    await expect.poll(zoom).toBe(`${Math.round(Math.min(200, start + 10))}%`);
    for (let i = 0; i < 25; i += 1) await page.getByRole('button', { name: Strings.memoryZoomOut }).click({ force: true });
    await expect.poll(zoom).toBe('50%');
    expect(await page.getByRole('button', { name: Strings.memoryZoomOut }).isDisabled()).toBe(true);

    await page.locator('.react-flow__node').filter({ hasText: '/shop/cart' }).click();
    const panel = page.getByTestId('memory-panel');
    await expect.poll(() => panel.getByRole('tab', { selected: true }).textContent()).toBe(Strings.memoryTabAria);
    expect(await panel.innerText()).toContain('heading "Page 3"');
    await panel.getByRole('tab', { name: Strings.memoryTabSteps }).click();
    expect(await panel.innerText()).toContain('I visit /shop/cart');
    await expectAccessible(page, 'application map');
    if (shots) {
      for (const size of [
        { width: 1440, height: 900 },
        { width: 1024, height: 700 },
      ]) {
        await page.setViewportSize(size);
        await page.waitForTimeout(300);
        await page.screenshot({ path: `/tmp/reports-memory-${size.width}.png` });
      }
    }
  });

  it('joins a two-page flow with a navigation arrow and gives each page its ARIA snapshot', async () => {
    const grace = await h.signUp('Grace');
    const { context: graceContext, page: gracePage } = await h.open(grace);
    try {
      await seedMemory(grace.api, grace.projectId, ['/demo-shop/index.html', '/demo-shop/login.html']);
      await gracePage.goto(`/${grace.projectId}/memory`);
      await expect.poll(() => gracePage.locator('.react-flow__node').count()).toBe(2);
      const navigation = gracePage.locator('.react-flow__edge.memory-edge-navigation');
      expect(await navigation.count()).toBe(1);
      expect(await gracePage.locator('.react-flow__edge.memory-edge-path').count()).toBe(0);
      expect(await navigation.getAttribute('data-id')).toBe('nav:/demo-shop/index.html->/demo-shop/login.html');
      expect(await gracePage.getByRole('group', { name: 'Legend' }).innerText()).toContain('Page led to page');

      await gracePage.locator('.react-flow__node').filter({ hasText: '/demo-shop/index.html' }).click();
      const panel = gracePage.getByTestId('memory-panel');
      await expect.poll(() => panel.getByRole('tab', { selected: true }).textContent()).toBe('Aria snapshot');
      expect(await panel.innerText()).toContain('heading "Page 1"');
      expect(await panel.getByTestId('memory-neighbours').innerText()).toMatch(/Leads to\s+\/demo-shop\/login\.html/);
      await panel.getByRole('button', { name: '/demo-shop/login.html' }).click();
      await expect.poll(() => gracePage.getByTestId('memory-panel').getAttribute('aria-label')).toBe('/demo-shop/login.html');
      expect(await panel.innerText()).toContain('heading "Page 2"');
      expect(await panel.getByTestId('memory-neighbours').innerText()).toMatch(/Reached from\s+\/demo-shop\/index\.html/);
      await expectAccessible(gracePage, 'application map with a navigation');
      if (shots) {
        for (const size of [
          { width: 1440, height: 900 },
          { width: 1024, height: 700 },
        ]) {
          await gracePage.setViewportSize(size);
          await gracePage.waitForTimeout(300);
          await gracePage.screenshot({ path: `/tmp/memory-flow-${size.width}.png` });
        }
      }
    } finally {
      await graceContext.close();
    }
  });
});
