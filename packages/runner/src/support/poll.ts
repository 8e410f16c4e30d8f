import type { Page } from 'playwright-core';
import { chromiumSession, evaluateInSession } from './cdp.js';

/** The longest pauses between checks, like Playwright's own polling: quick at first, then every 500 ms. */
const DELAYS_MS = [0, 50, 100, 250, 500];
/**
 * The shortest pause after a page change: a page that changes on every frame (a script-driven
 * spinner) is then checked about 30 times a second, not 60.
 */
const MIN_PAUSE_AFTER_CHANGE_MS = 30;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What `poll` waits on between two checks: at most `ms`. */
export type Pause = (ms: number) => Promise<void>;

/**
 * Runs `check` until it returns a value other than undefined or `timeoutMs` passes; then returns
 * undefined. `check` runs at least once, and once more at the deadline. Between checks it waits
 * with `pause`, a plain timer unless told otherwise (see {@link untilPageChanges}).
 */
export async function poll<T>(
  timeoutMs: number,
  check: (attempt: number) => Promise<T | undefined>,
  pause: Pause = sleep,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const result = await check(attempt);
    if (result !== undefined) return result;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await pause(Math.min(DELAYS_MS[attempt] ?? 500, left));
  }
}

/**
 * The page side of {@link untilPageChanges}, as source text: a function handed to
 * `page.evaluate` would carry whatever helpers the TypeScript loader adds to it. One observer per
 * document counts the page's changes; a wait answers the count when the next change comes, or at
 * once when the count moved since `last` (a change while the check ran), or after `limitMs`.
 */
const pageChangeScript = (last: number | null, limitMs: number) => `new Promise((resolve) => {
  const state = window.__rehearsePageChanges ??= (() => {
    const counted = { count: 0, waiters: new Set() };
    new MutationObserver(() => {
      counted.count += 1;
      for (const wake of [...counted.waiters]) wake();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    return counted;
  })();
  const last = ${last === null ? 'null' : String(last)};
  if (last !== null && state.count !== last) return resolve(state.count);
  const done = () => { state.waiters.delete(done); clearTimeout(timer); resolve(state.count); };
  state.waiters.add(done);
  const timer = setTimeout(done, ${Math.round(limitMs)});
})`;

/**
 * Evaluates `expression` in the page's main world as `page.evaluate` does, but on Chromium
 * through the page's CDP session: a wait is not one of the user's actions, and as a Playwright
 * call it would cost a DOM snapshot before and after it in every trace being recorded (about
 * half of a polling step's snapshots) and show up in the trace viewer as an "Evaluate" the
 * scenario never asked for. A navigation rejects it either way ("context destroyed").
 */
async function evaluateQuietly(page: Page, expression: string): Promise<unknown> {
  const session = await chromiumSession(page);
  if (!session) return page.evaluate(expression);
  return evaluateInSession(session, expression, { awaitPromise: true });
}

/** The longest a check waits for the page to run what the last action queued. */
const SETTLE_LIMIT_MS = 100;
/** A frame, then a task, in the page: bounded, since a page that draws no frames must not hold the check. */
const FRAME_THEN_TASK = `new Promise((resolve) => {
  const bound = setTimeout(resolve, ${SETTLE_LIMIT_MS});
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(bound); resolve(); }, 0));
})`;

/**
 * Lets the page run what the last action queued before a check reads it. A click on a link to
 * `#/active` changes the address at once, but the app redraws in a `hashchange` task after it: a
 * check in between judged the page as it was. Under load that passed an edit the app had not saved
 * (TodoMVC's edit-not-saved shows the edit; only the redraw from its data shows it lost), 3 runs in
 * 25. Quietly, as the waits are: the check's own probe is not one of the user's actions.
 */
export async function pageSettled(page: Page): Promise<void> {
  await Promise.race([
    // A navigation under way replaced the document: the check waits for the new one itself.
    evaluateQuietly(page, FRAME_THEN_TASK).catch(() => undefined),
    // The timer here as well, as untilPageChanges has it: a page held by a dialog, a busy script or
    // its own replaced timers does not answer, and the check must still run (and may fail) on time.
    sleep(2 * SETTLE_LIMIT_MS),
  ]);
}

/**
 * A pause that ends early when the page changes: its DOM (nodes, attributes, text) or its
 * document (a navigation). What a step waits for mostly arrives as such a change, so the next
 * check follows it within a round trip instead of up to 500 ms later. Changes the DOM does not
 * show (an input's typed value, a CSS transition) still get their check when the pause runs out.
 */
export function untilPageChanges(page: Page): Pause {
  let last: number | null = null;
  return async (ms) => {
    if (ms <= 0) return;
    const started = Date.now();
    const changed = evaluateQuietly(page, pageChangeScript(last, ms)).then(
      (count) => {
        last = typeof count === 'number' ? count : null;
      },
      // A navigation destroys the page's context mid-wait: that is a change too.
      () => {
        last = null;
      },
    );
    // The timer here as well: a page held by a dialog or a busy script does not answer.
    await Promise.race([changed, sleep(ms)]);
    const waited = Date.now() - started;
    if (waited < MIN_PAUSE_AFTER_CHANGE_MS) await sleep(Math.min(MIN_PAUSE_AFTER_CHANGE_MS, ms) - waited);
  };
}
