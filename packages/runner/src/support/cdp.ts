import type { CDPSession, Page } from 'playwright-core';

const sessions = new WeakMap<Page, Promise<CDPSession | undefined>>();

/**
 * The page's own CDP session on Chromium (undefined on other browsers, or when the page or its
 * browser does not allow one), opened once per page and shared by everything the runner asks
 * Chromium directly: screenshots with PNG encoding tuned for speed, and the waits between a step's
 * checks. Those go around Playwright on purpose: a traced Playwright call records a DOM snapshot
 * before and after itself, and a step that polls would fill the user's trace with its own probes.
 */
export function chromiumSession(page: Page): Promise<CDPSession | undefined> {
  let session = sessions.get(page);
  if (!session) {
    const browserName = page.context().browser()?.browserType().name();
    session =
      browserName === 'chromium'
        ? page
            .context()
            .newCDPSession(page)
            .catch(() => undefined)
        : Promise.resolve(undefined);
    sessions.set(page, session);
  }
  return session;
}
