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

/**
 * An expression's value (returned by value) from the page's main world through its CDP session:
 * the one way the runner evaluates around Playwright. Rejects with the page's exception text, or
 * the session's error (a navigation destroyed the context, the page closed).
 */
export async function evaluateInSession(
  session: CDPSession,
  expression: string,
  options: { awaitPromise?: boolean } = {},
): Promise<unknown> {
  const answer = await session.send('Runtime.evaluate', { expression, returnByValue: true, ...options });
  if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.text);
  return answer.result.value;
}

/** How long a command's title waits for a new document to parse its head. */
const TITLE_WAIT_MS = 2_000;
/**
 * The document's title once its head is parsed. A command that navigates (a link clicked) ends
 * when the new document commits; on a busy machine its `<title>` may not be parsed yet, and the
 * record said '' where a moment later the page had its title (a CI run saw it). So a document
 * still loading with no title is waited for until DOMContentLoaded, at most TITLE_WAIT_MS; any
 * other is read at once.
 */
const TITLE_ONCE_PARSED = `document.title || document.readyState !== 'loading' ? document.title : new Promise((resolve) => {
  const done = () => resolve(document.title);
  document.addEventListener('DOMContentLoaded', done, { once: true });
  setTimeout(done, ${TITLE_WAIT_MS});
})`;

/**
 * The page's title for a command's record. On Chromium it is read through the page's CDP session:
 * every command asks, and `page.title()` is a whole Playwright call (a captured stack trace, the
 * call's instrumentation, an evaluation in its utility world) for one string; it also stays out
 * of the user's trace. A document that has not parsed its head yet is waited for (see
 * TITLE_ONCE_PARSED); one replaced meanwhile, or any failure, answers ''.
 */
export async function pageTitle(page: Page): Promise<string> {
  const session = await chromiumSession(page);
  if (!session) return page.title().catch(() => '');
  const value = await evaluateInSession(session, TITLE_ONCE_PARSED, { awaitPromise: true }).catch(() => '');
  return typeof value === 'string' ? value : '';
}
