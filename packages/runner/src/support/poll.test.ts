import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../browser.js';
import { poll, untilPageChanges } from './poll.js';

// Pauses here are 20 s long: each test passes only if the pause ended because of the page, long
// before its timer, and a pause that ignored the page would fail the test by its own timeout.
const LONG_MS = 20_000;
const ENDED_BY_PAGE_MS = 10_000;

describe('pauses that end when the page changes', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
    await page.setContent('<main><p>Loading…</p></main>');
  });
  afterEach(async () => {
    await context.close();
  });

  const timed = async (work: Promise<unknown>) => {
    const started = Date.now();
    await work;
    return Date.now() - started;
  };

  it('ends at the next DOM change instead of at its time limit', async () => {
    const pause = untilPageChanges(page);
    await page.evaluate('setTimeout(() => { document.querySelector("p").textContent = "Ready"; }, 300)');
    expect(await timed(pause(LONG_MS))).toBeLessThan(ENDED_BY_PAGE_MS);
  });

  it('ends at once for a change made while the caller was checking, between two pauses', async () => {
    const pause = untilPageChanges(page);
    await page.evaluate('setTimeout(() => document.body.setAttribute("data-step", "1"), 200)');
    await pause(LONG_MS); // the first change, and the page's change counter is now known
    await page.evaluate('document.body.setAttribute("data-step", "2")'); // made while nobody waits
    expect(await timed(pause(LONG_MS))).toBeLessThan(ENDED_BY_PAGE_MS);
  });

  it('ends when the page navigates away mid-pause', async () => {
    const pause = untilPageChanges(page);
    await page.evaluate('setTimeout(() => { location.href = "about:blank"; }, 300)');
    expect(await timed(pause(LONG_MS))).toBeLessThan(ENDED_BY_PAGE_MS);
  });

  it('still runs out its time on a page that does not change', async () => {
    const pause = untilPageChanges(page);
    const waited = await timed(pause(400));
    expect(waited).toBeGreaterThanOrEqual(390);
  });

  it('lets poll find a text the page adds late on the check right after the change', async () => {
    await page.evaluate('setTimeout(() => { document.querySelector("p").textContent = "Trail Backpack"; }, 700)');
    const changes = untilPageChanges(page);
    let checks = 0;
    const found = poll(
      3 * LONG_MS,
      async () => {
        checks += 1;
        return (await page.getByText('Trail Backpack').count()) > 0 ? true : undefined;
      },
      // Every pause as long as the test allows: only the page's change can end it in time.
      () => changes(LONG_MS),
    );
    expect(await timed(found)).toBeLessThan(ENDED_BY_PAGE_MS);
    expect(await found).toBe(true);
    expect(checks).toBe(2);
  });
});
