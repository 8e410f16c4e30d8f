import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../browser.js';
import { initialAriaSnapshot } from './initial-aria.js';

// Issue 48: the first page's ARIA snapshot is remembered per URL, viewport and HTML within a
// process (a warm runner), so a scenario starting where the last one did pays a fingerprint
// instead of a snapshot. These pin when the remembered one may stand in, in real Chromium.

const VIEWPORT = { width: 1024, height: 768 };
const PAGE = '<h1>Trailhead</h1><nav><a href="#cart">Cart (0)</a></nav><button>Add to cart</button>';

describe('the initial ARIA snapshot, remembered per page', () => {
  let browser: Browser;
  let page: Page;
  let url = 0;

  beforeAll(async () => {
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh page at a URL of its own (each test starts with nothing remembered for it). */
  async function open(html: string, viewport = VIEWPORT): Promise<Page> {
    page = await browser.newPage({ viewport });
    url += 1;
    await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: route.request().url().endsWith('/') ? html : '' }));
    await page.goto(`http://initial-aria.test/${url}/`);
    return page;
  }

  /** The snapshot as the world takes it, counting how often it was taken. */
  function counted(on: () => Page) {
    const taken = { count: 0 };
    const take = async () => {
      taken.count += 1;
      return on().locator('body').ariaSnapshot();
    };
    return { taken, take };
  }

  it('takes it once for the same URL, viewport and HTML, and answers the same snapshot again', async () => {
    await open(PAGE);
    const { taken, take } = counted(() => page);
    const first = await initialAriaSnapshot(page, VIEWPORT, take);
    const again = await initialAriaSnapshot(page, VIEWPORT, take);
    expect(first).toContain('button "Add to cart"');
    expect(again).toBe(first);
    expect(taken.count).toBe(1);
  });

  it('takes it again when one character of the page changed, and answers what the page shows now', async () => {
    const target = await open(PAGE);
    const { taken, take } = counted(() => page);
    await initialAriaSnapshot(target, VIEWPORT, take);
    // The cart counter off by one: a snapshot reused across it would show the wrong count.
    await target.evaluate("document.querySelector('a').textContent = 'Cart (1)'");
    const after = await initialAriaSnapshot(target, VIEWPORT, take);
    expect(taken.count).toBe(2);
    expect(after).toContain('link "Cart (1)"');
    expect(after).not.toContain('Cart (0)');
  });

  it('takes it again at another viewport (what is visible may differ)', async () => {
    const target = await open(PAGE);
    const { taken, take } = counted(() => page);
    await initialAriaSnapshot(target, VIEWPORT, take);
    await initialAriaSnapshot(target, { width: 500, height: 700 }, take);
    expect(taken.count).toBe(2);
  });

  it('does not remember a snapshot the page changed under', async () => {
    const target = await open(PAGE);
    const { taken, take } = counted(() => page);
    // The page changes while the snapshot is being taken (a late render), and is back as it was
    // by the next scenario: that snapshot may not describe the HTML it was keyed by.
    await initialAriaSnapshot(target, VIEWPORT, async () => {
      const snapshot = await take();
      await target.evaluate("document.body.append('a late render')");
      return snapshot;
    });
    await target.evaluate('document.body.lastChild.remove()');
    await initialAriaSnapshot(target, VIEWPORT, take);
    expect(taken.count).toBe(2);
  });
});
