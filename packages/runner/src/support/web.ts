import { existsSync } from 'node:fs';
import path from 'node:path';
import { errors, type Locator, type Page } from 'playwright-core';
import { firstVisibleMatch, resolveElement, runCommand, whereMatches, worldOf, type CommandOptions, type StepParams } from './commands.js';
import type { ElementPhrase } from '@rehearse/contract';
import { elementByName, ROLES_FOR, type Element } from './elements.js';
import { clickable } from './own-label.js';
import { poll, sleep, untilPageChanges } from './poll.js';
import type { RehearseWorld } from './world.js';
import { REFUSAL_HEADER } from '@rehearse/egress';

/** `I open "cart.html"` and `I open "/cart.html"` both mean the page below the environment's baseUrl. */
export function resolveUrl(url: string, baseUrl: string): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(url)) return url;
  if (!baseUrl) throw new Error(`"${url}" is relative but the environment has no baseUrl`);
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(url.replace(/^\/+/, ''), base).href;
}

function includesText(actual: string, expected: string, exact: boolean | undefined): boolean {
  return exact ? actual === expected : actual.includes(expected);
}

/** Visible elements showing `text` (substring, case-insensitive, as Playwright's getByText). */
function visibleText(page: Page, text: string, exact: boolean | undefined) {
  return page.getByText(text, { exact: exact ?? false }).filter({ visible: true });
}

/** What a Playwright wait (waitForURL) answers: true when it happened, false when its time ran out. */
const happened = (wait: Promise<unknown>): Promise<boolean> =>
  wait.then(
    () => true,
    (error: unknown) => {
      if (error instanceof errors.TimeoutError) return false;
      throw error;
    },
  );

/**
 * Waits until a visible element shows `text` ('shown') or none does ('gone'), looking again as
 * soon as the page changes (see untilPageChanges): a text is seen within a round trip of its
 * arrival, where Playwright's own backoff can look up to 500 ms late.
 */
async function waitForText(
  page: Page,
  text: string,
  exact: boolean | undefined,
  until: 'shown' | 'gone',
  timeout: number,
): Promise<boolean> {
  const matches = visibleText(page, text, exact);
  const seen = await poll(
    timeout,
    async () => ((await matches.count()) > 0 === (until === 'shown') ? true : undefined),
    untilPageChanges(page),
  );
  return seen === true;
}

/** An element, or just its visible words (found like the plain-English steps find them). */
export type ElementRef = Element | ElementPhrase | string;

type Roles = ReadonlyArray<string | readonly string[]>;
const ANY_ROLE: Roles = ROLES_FOR.any;

/**
 * An element reference as an Element: words are found like the plain-English steps find them, an
 * ElementPhrase ("the 2nd …", "… in the row containing …") the same way with its order and scope.
 */
function toElement(ref: ElementRef, roles: Roles = ANY_ROLE): Element {
  if (typeof ref === 'string') return elementByName(ref, roles);
  if (!('locators' in ref)) {
    const { name, ...phrase } = ref;
    return elementByName(name, roles, phrase);
  }
  return ref;
}

const timeoutOf = (world: RehearseWorld, options: CommandOptions | undefined) => options?.timeout ?? world.settings.commandTimeoutMs;

/** A state verifyState waits for. */
export type ElementState =
  | { kind: 'checked'; checked: boolean }
  | { kind: 'enabled'; enabled: boolean }
  | { kind: 'class'; value: string }
  | { kind: 'no-class'; value: string }
  | { kind: 'focused' }
  | { kind: 'attribute'; name: string; value: string };

/** What the element should do, as the words after "should": "be checked", "not have the class "done"". */
function describeState(state: ElementState): string {
  switch (state.kind) {
    case 'checked':
      return state.checked ? 'be checked' : 'not be checked';
    case 'enabled':
      return state.enabled ? 'be enabled' : 'be disabled';
    case 'class':
      return `have the class "${state.value}"`;
    case 'no-class':
      return `not have the class "${state.value}"`;
    case 'focused':
      return 'be focused';
    case 'attribute':
      return `have ${state.name}="${state.value}"`;
  }
}

/** The page's Storage, as far as the storage steps use it (the runner compiles without the DOM's types). */
interface BrowserStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  clear(): void;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The message of the last dialog answered in each scenario. */
const lastDialogs = new WeakMap<RehearseWorld, string>();

const cssString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const LISTS = ':is(ul, ol, [role=list], [role=listbox], [role=tree], table, [role=table], [role=grid])';
const ITEMS = ':is(li, [role=listitem], [role=option], [role=treeitem], tr, [role=row])';

/**
 * The visible items a word names, the first way that finds any: elements with that test id; the
 * items of a list whose label, id, class or test id contains the word ("todo" finds the rows of
 * `ul.todo-list`); elements of that ARIA role ("checkbox"). None at all is zero items.
 */
async function itemsOf(page: Page, word: string): Promise<Locator> {
  const w = cssString(word);
  const list = `${LISTS}:is([aria-label*=${w} i], [id*=${w} i], [class*=${w} i], [data-testid*=${w} i])`;
  const ways: Locator[] = [page.getByTestId(word), page.locator(`${list} > ${ITEMS}, ${list} > tbody > ${ITEMS}`)];
  if (/^[a-z]+$/.test(word)) ways.push(page.getByRole(word as Parameters<Page['getByRole']>[0]));
  for (const way of ways) {
    const visible = way.filter({ visible: true });
    if ((await visible.count()) > 0) return visible;
  }
  return ways[0]!.filter({ visible: true });
}

/** Each item's first line of visible text, whitespace collapsed. */
async function itemTexts(items: Locator): Promise<string[]> {
  const texts = await items.allInnerTexts();
  return texts.map((text) => collapse(text.split('\n').find((line) => line.trim() !== '') ?? ''));
}

/**
 * Browser commands for step definitions. Each call is one command in the report: element
 * arguments are resolved through their locator candidates, string arguments through `{{…}}`
 * test data and `params`, and `world` (pass `this`) defaults to the running scenario's.
 */
export const web = {
  /** Opens a URL; relative ones resolve against the environment's baseUrl. */
  async navigate(url: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const target = w.data.resolve(url, params);
    const absolute = resolveUrl(target.value, w.settings.env.baseUrl);
    await runCommand(
      w,
      { type: 'navigate', value: { ...target, value: absolute, display: target.secret ? target.display : absolute }, options },
      async () => {
        const response = await w.page.goto(absolute, { waitUntil: 'load', ...(options?.timeout ? { timeout: options.timeout } : {}) });
        // The job's egress proxy answered itself (a refused address): say so, in its words.
        if (response?.headers()[REFUSAL_HEADER]) throw new Error(await response.text());
        if (response && response.status() >= 400) {
          throw new Error(
            `Opening ${target.secret ? target.display : absolute} answered HTTP ${response.status()} ${response.statusText()}`.trim(),
          );
        }
        return response ? { status: response.status(), statusText: response.statusText() } : {};
      },
    );
  },

  /** Reloads the current page; fails on an HTTP error status like navigate. */
  async reload(options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'reload_page', options }, async () => {
      const response = await w.page.reload({ waitUntil: 'load' });
      if (response && response.status() >= 400)
        throw new Error(`Reloading ${w.page.url()} answered HTTP ${response.status()} ${response.statusText()}`.trim());
    });
  },

  /** Goes back (`'back'`) or forward in the history; fails when there is no page that way. */
  async history(direction: 'back' | 'forward', options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: direction === 'back' ? 'go_back' : 'go_forward', options }, async () => {
      const before = w.page.url();
      const response = direction === 'back' ? await w.page.goBack({ waitUntil: 'load' }) : await w.page.goForward({ waitUntil: 'load' });
      // A same-document move (a hash route) has no response but changes the address.
      if (!response && w.page.url() === before) throw new Error(`There is no page to go ${direction} to from ${before}`);
    });
  },

  /** Continues in the newest other tab of the scenario, waiting for one to open. */
  async switchToNewTab(options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'switch_tab', options }, async () => {
      const current = w.page;
      const others = () => w.browserContext.pages().filter((page) => page !== current && !page.isClosed());
      let next = others().at(-1);
      if (!next) {
        next = await w.browserContext.waitForEvent('page', { timeout: timeoutOf(w, options) }).catch(() => undefined);
        if (!next) throw new Error(`No new tab opened within ${timeoutOf(w, options)} ms`);
      }
      await next.waitForLoadState('load');
      w.usePage(next);
      return { url: next.url() };
    });
  },

  /** Answers the next alert, confirm or prompt the page shows: OK (`accept`) or Cancel. */
  async answerNextDialog(answer: 'accept' | 'dismiss', options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: answer === 'accept' ? 'accept_dialog' : 'dismiss_dialog', options }, async () => {
      const page = w.page;
      page.once('dialog', (dialog) => {
        lastDialogs.set(w, dialog.message());
        void (answer === 'accept' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
      });
    });
  },

  /** Waits until the last dialog answered with answerNextDialog had the message `expected`. */
  async verifyDialog(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_dialog', text: resolved.display, options }, async () => {
      const said = await poll(timeoutOf(w, options), async () => (lastDialogs.get(w) === resolved.value ? true : undefined));
      const actual = lastDialogs.get(w);
      if (!said)
        throw new Error(
          actual === undefined
            ? `No dialog was shown (expected "${resolved.display}")`
            : `The dialog said "${actual}", expected "${resolved.display}"`,
        );
      return { expectedValue: resolved.display, value: actual ?? '' };
    });
  },

  async click(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.click);
    await runCommand(w, { type: 'click_element', element, params, options }, async (target) => {
      await (await clickable(target!)).click({ timeout: timeoutOf(w, options) });
    });
  },

  async doubleClick(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'double_click_element', element: toElement(ref, ROLES_FOR.click), params, options }, async (target) => {
      await target!.dblclick({ timeout: timeoutOf(w, options) });
    });
  },

  async rightClick(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'right_click_element', element: toElement(ref, ROLES_FOR.click), params, options }, async (target) => {
      await target!.click({ button: 'right', timeout: timeoutOf(w, options) });
    });
  },

  async scrollTo(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'scroll_to_element', element: toElement(ref), params, options }, async (target) => {
      await target!.scrollIntoViewIfNeeded({ timeout: timeoutOf(w, options) });
    });
  },

  /** Types `text` key by key (a key event per character) at the end of a field's value. */
  async type(ref: ElementRef, text: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(text, params);
    await runCommand(
      w,
      { type: 'type_text', element: toElement(ref, ROLES_FOR.fill), params, value: resolved, options },
      async (target) => {
        await target!.pressSequentially(resolved.value, { timeout: timeoutOf(w, options) });
      },
    );
  },

  /** Chooses a file for a file field; `file` is relative to the working directory (the workspace). */
  async upload(ref: ElementRef, file: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(file, params);
    await runCommand(w, { type: 'upload_file', element: toElement(ref, []), params, value: resolved, options }, async (target) => {
      // Only the workspace's own files: a plain-English step must not hand the runner's files to a site.
      const root = path.resolve(w.settings.workspaceDir ?? process.cwd());
      const filePath = path.resolve(root, resolved.value);
      if (path.relative(root, filePath).startsWith('..') || path.isAbsolute(path.relative(root, filePath))) {
        throw new Error(`"${resolved.display}" is outside the workspace: name a file below it`);
      }
      if (!existsSync(filePath)) throw new Error(`There is no file "${resolved.display}" in the workspace`);
      await target!.setInputFiles(filePath, { timeout: timeoutOf(w, options) });
    });
  },

  /** Drags one element onto another. */
  async dragTo(ref: ElementRef, to: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const destination = toElement(to);
    await runCommand(w, { type: 'drag_element', element: toElement(ref), params, text: destination.name, options }, async (target) => {
      const log: string[] = [];
      const drop = await resolveElement(w.page, destination, timeoutOf(w, options), log, (text) => w.data.resolve(text, params).value);
      await target!.dragTo(drop, { timeout: timeoutOf(w, options) });
    });
  },

  async fill(ref: ElementRef, value: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.fill);
    const resolved = w.data.resolve(value, params);
    if (options?.mask && !resolved.secret) {
      w.data.remember(resolved.value);
      Object.assign(resolved, { secret: true, display: 'mask:****' });
    }
    await runCommand(w, { type: 'fill_element', element, params, value: resolved, options }, async (target) => {
      await target!.fill(resolved.value, { timeout: timeoutOf(w, options) });
      if (resolved.secret) w.maskedElements.push(target!);
    });
  },

  /** Selects an option of a `<select>` by its value or its label. */
  async select(ref: ElementRef, value: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.select);
    const resolved = w.data.resolve(value, params);
    await runCommand(w, { type: 'select_combobox', element, params, value: resolved, options }, async (target) => {
      await target!.selectOption(resolved.value, { timeout: timeoutOf(w, options) });
    });
  },

  /** Checks a checkbox, radio or switch; `{ checked: false }` unchecks it. */
  async check(
    ref: ElementRef,
    params?: StepParams,
    options?: CommandOptions & { checked?: boolean },
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.check);
    const checked = options?.checked ?? true;
    await runCommand(w, { type: checked ? 'check_element' : 'uncheck_element', element, params, options }, async (target) => {
      const timeout = timeoutOf(w, options);
      if ((await target!.isChecked({ timeout })) === checked) return;
      await (await clickable(target!)).click({ timeout });
      // Not Playwright's setChecked: an app may take the control away in answer (a completed todo
      // leaves the "Active" list), and then the click was the whole action, not a failure.
      const settled = await poll(timeout, async () => {
        if (!(await target!.isVisible())) return true;
        return (await target!.isChecked({ timeout }).catch(() => !checked)) === checked ? true : undefined;
      });
      if (!settled)
        throw new Error(`Clicking the ${checked ? 'unchecked' : 'checked'} control did not ${checked ? 'check' : 'uncheck'} it`);
    });
  },

  /** Presses a key (`Enter`, `Control+A`, …) on an element, or on the page when `element` is null. */
  async press(ref: ElementRef | null, key: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = ref === null ? undefined : toElement(ref);
    const resolved = w.data.resolve(key, params);
    await runCommand(w, { type: 'press_key', ...(element ? { element } : {}), params, value: resolved, options }, async (target) => {
      if (target) await target.press(resolved.value, { timeout: timeoutOf(w, options) });
      else await w.page.keyboard.press(resolved.value);
    });
  },

  async hover(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref);
    await runCommand(w, { type: 'hover_element', element, params, options }, async (target) => {
      await target!.hover({ timeout: timeoutOf(w, options) });
    });
  },

  /** Puts the keyboard focus on the element. */
  async focus(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'focus_element', element: toElement(ref), params, options }, async (target) => {
      await target!.focus({ timeout: timeoutOf(w, options) });
    });
  },

  /** Moves the focus out of the element: its blur (and, for a changed field, change) events fire. */
  async blur(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'blur_element', element: toElement(ref), params, options }, async (target) => {
      await target!.blur({ timeout: timeoutOf(w, options) });
    });
  },

  /** Writes an item of the page's local or session storage. */
  async setStorage(
    storage: 'local' | 'session',
    key: string,
    value: string,
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const item = w.data.resolve(key, params);
    const resolved = w.data.resolve(value, params);
    await runCommand(w, { type: `set_${storage}_storage`, text: item.display, value: resolved, options }, async () => {
      await w.page.evaluate(
        ([which, name, text]) => (globalThis as unknown as Record<string, BrowserStorage>)[`${which}Storage`]!.setItem(name, text),
        [storage, item.value, resolved.value] as const,
      );
    });
  },

  /** Waits until the item of the page's local or session storage is (or, with `contains`, holds) `expected`. */
  async verifyStorage(
    storage: 'local' | 'session',
    key: string,
    expected: string,
    how: 'is' | 'contains',
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const item = w.data.resolve(key, params);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: `verify_${storage}_storage`, text: item.display, value: resolved, options }, async () => {
      let actual: string | null = null;
      const matched = await poll(timeoutOf(w, options), async () => {
        actual = await w.page.evaluate(
          ([which, name]) => (globalThis as unknown as Record<string, BrowserStorage>)[`${which}Storage`]!.getItem(name),
          [storage, item.value] as const,
        );
        return actual !== null && includesText(actual, resolved.value, how === 'is') ? true : undefined;
      });
      if (!matched) {
        const held = actual === null ? 'does not exist' : `is "${(actual as string).slice(0, 200)}"`;
        throw new Error(
          `The ${storage} storage item "${item.display}" ${held}; expected it to ${how === 'is' ? 'be' : 'contain'} "${resolved.display}"`,
        );
      }
      return { expectedValue: resolved.display, value: resolved.secret ? resolved.display : (actual ?? '') };
    });
  },

  /** Empties the page's local or session storage. */
  async clearStorage(storage: 'local' | 'session', options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: `clear_${storage}_storage`, options }, async () => {
      await w.page.evaluate((which) => (globalThis as unknown as Record<string, BrowserStorage>)[`${which}Storage`]!.clear(), storage);
    });
  },

  /** Sets a cookie for the current page's address. */
  async setCookie(name: string, value: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const cookie = w.data.resolve(name, params);
    const resolved = w.data.resolve(value, params);
    await runCommand(w, { type: 'set_cookie', text: cookie.display, value: resolved, options }, async () => {
      const url = w.page.url();
      if (!/^https?:/.test(url)) throw new Error('A cookie needs a page to belong to: open a page first');
      await w.browserContext.addCookies([{ name: cookie.value, value: resolved.value, url }]);
    });
  },

  /** Waits until the browser holds the cookie, for the current page, with exactly `expected`. */
  async verifyCookie(name: string, expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const cookie = w.data.resolve(name, params);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_cookie', text: cookie.display, value: resolved, options }, async () => {
      let actual: string | undefined;
      const matched = await poll(timeoutOf(w, options), async () => {
        actual = (await w.browserContext.cookies(w.page.url())).find((each) => each.name === cookie.value)?.value;
        return actual === resolved.value ? true : undefined;
      });
      if (!matched)
        throw new Error(
          `The cookie "${cookie.display}" ${actual === undefined ? 'is not set for this page' : `is "${resolved.secret ? '****' : actual}"`}; expected "${resolved.display}"`,
        );
      return { expectedValue: resolved.display, value: resolved.secret ? resolved.display : (actual ?? '') };
    });
  },

  /** Removes every cookie of the scenario's browser. */
  async clearCookies(options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'clear_cookies', options }, async () => {
      await w.browserContext.clearCookies();
    });
  },

  /** Waits until the page shows `text` in a visible element. */
  async verifyText(text: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(text, params);
    await runCommand(w, { type: 'verify_page_contains_text', text: resolved.display, options }, async () => {
      const timeout = timeoutOf(w, options);
      const seen = await waitForText(w.page, resolved.value, options?.exact, 'shown', timeout);
      if (!seen) throw new Error(`The page does not show "${resolved.display}" (waited ${timeout} ms)`);
    });
  },

  /** Waits until no visible element shows `text`. */
  async verifyNoText(text: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(text, params);
    await runCommand(w, { type: 'verify_page_not_contains_text', text: resolved.display, options }, async () => {
      const timeout = timeoutOf(w, options);
      const gone = await waitForText(w.page, resolved.value, options?.exact, 'gone', timeout);
      if (!gone) throw new Error(`The page still shows "${resolved.display}" (waited ${timeout} ms)`);
    });
  },

  /** Passes when the element resolves: candidates only ever match visible elements. */
  async verifyVisible(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    await runCommand(worldOf(world), { type: 'verify_element_visible', element: toElement(ref), params, options }, async () => undefined);
  },

  /**
   * Whether the element is on the page within the timeout; never fails and records no command.
   * The "Perform action only if element found" quick edit guards actions with it.
   */
  async isFound(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<boolean> {
    const w = worldOf(world);
    const log: string[] = [];
    return resolveElement(w.page, toElement(ref), timeoutOf(w, options), log, (text) => w.data.resolve(text, params).value).then(
      () => true,
      () => false,
    );
  },

  /** Waits until a field's value equals `expected`. */
  async verifyValue(
    ref: ElementRef,
    expected: string,
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.fill);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_element_value', element, params, value: resolved, options }, async (target) => {
      let actual = '';
      const matched = await poll(timeoutOf(w, options), async () => {
        actual = await target!.inputValue();
        return actual === resolved.value ? true : undefined;
      });
      const shown = resolved.secret ? resolved.display : actual;
      if (!matched) throw new Error(`"${element.name}" has the value "${shown}", expected "${resolved.display}"`);
      return { value: shown, expectedValue: resolved.display };
    });
  },

  /**
   * Waits until no locator candidate finds a visible element (hidden, or not on the page). Any
   * visible match keeps it shown: two elements under the step's words are not "hidden" because
   * neither is the one.
   */
  async verifyHidden(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref);
    await runCommand(w, { type: 'verify_element_hidden', text: element.name, options }, async () => {
      const resolveText = (text: string) => w.data.resolve(text, params).value;
      let shown: Awaited<ReturnType<typeof firstVisibleMatch>>;
      const hidden = await poll(
        timeoutOf(w, options),
        async () => {
          shown = await firstVisibleMatch(w.page, element, resolveText);
          return shown ? undefined : true;
        },
        untilPageChanges(w.page),
      );
      if (!hidden && shown) {
        const many = shown.count === 1 ? '1 visible element matches' : `${shown.count} visible elements match`;
        throw new Error(
          `"${element.name}" is still visible (waited ${timeoutOf(w, options)} ms): ${many} (${shown.description}): ${await whereMatches(shown.locator)}`,
        );
      }
    });
  },

  /** Waits until the element's visible text contains `text`. */
  async verifyTextIn(ref: ElementRef, text: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref);
    const resolved = w.data.resolve(text, params);
    await runCommand(w, { type: 'verify_element_text', element, params, text: resolved.display, options }, async (target) => {
      let actual = '';
      const seen = await poll(
        timeoutOf(w, options),
        async () => {
          actual = collapse(await target!.innerText());
          return includesText(actual, resolved.value, options?.exact) ? true : undefined;
        },
        untilPageChanges(w.page),
      );
      if (!seen)
        throw new Error(`"${element.name}" shows "${actual}", expected it to ${options?.exact ? 'be' : 'contain'} "${resolved.display}"`);
      return { value: actual, expectedValue: resolved.display };
    });
  },

  /**
   * Waits until a state of the element holds: checked, unchecked, enabled, disabled, a class, or
   * an attribute value. The failure says what the element has instead.
   */
  async verifyState(
    ref: ElementRef,
    state: ElementState,
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const checkable = state.kind === 'checked';
    const element = toElement(ref, checkable ? ROLES_FOR.check : undefined);
    const expected = 'value' in state ? w.data.resolve(state.value, params).value : '';
    const type = `verify_element_${state.kind.replace('-', '_')}`;
    await runCommand(w, { type, element, params, text: `should ${describeState(state)}`, options }, async (target) => {
      let actual = '';
      const held = await poll(
        timeoutOf(w, options),
        async () => {
          switch (state.kind) {
            case 'checked': {
              const checked = await target!.isChecked();
              actual = checked ? 'is checked' : 'is not checked';
              return checked === state.checked ? true : undefined;
            }
            case 'enabled': {
              const enabled = await target!.isEnabled();
              actual = enabled ? 'is enabled' : 'is disabled';
              return enabled === state.enabled ? true : undefined;
            }
            case 'class':
            case 'no-class': {
              const classes = (await target!.getAttribute('class')) ?? '';
              const names = classes.trim().replace(/\s+/g, ' ');
              actual = names ? `has the class${names.includes(' ') ? 'es' : ''} "${names}"` : 'has no class';
              return classes.split(/\s+/).includes(expected) === (state.kind === 'class') ? true : undefined;
            }
            case 'focused': {
              const focused = await target!.evaluate(
                (node: { ownerDocument: { activeElement: unknown } }) => node.ownerDocument.activeElement === node,
              );
              actual = 'is not focused';
              return focused ? true : undefined;
            }
            case 'attribute': {
              const value = await target!.getAttribute(state.name);
              actual = value === null ? `has no attribute "${state.name}"` : `has ${state.name}="${value}"`;
              return value === expected ? true : undefined;
            }
          }
        },
        untilPageChanges(w.page),
      );
      if (!held) throw new Error(`"${element.name}" should ${describeState(state)} but ${actual}`);
      return { value: actual };
    });
  },

  /**
   * Waits until the page shows `expected` items of the list a word names (see itemsOf); the
   * failure lists what it counted.
   */
  async verifyCount(list: string, expected: number, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(list, params);
    await runCommand(w, { type: 'verify_count', text: `${expected} "${resolved.display}" items`, options }, async () => {
      let texts: string[] = [];
      const matched = await poll(
        timeoutOf(w, options),
        async () => {
          texts = await itemTexts(await itemsOf(w.page, resolved.value));
          return texts.length === expected ? true : undefined;
        },
        untilPageChanges(w.page),
      );
      if (!matched)
        throw new Error(
          `Found ${texts.length} "${resolved.display}" items, expected ${expected}${texts.length ? ` (${texts.map((t) => `"${t}"`).join(', ')})` : ''}`,
        );
      return { value: String(texts.length), expectedValue: String(expected) };
    });
  },

  /** Waits until the list's items show exactly these texts in this order (each item's first line). */
  async verifyItems(
    list: string,
    expected: readonly string[],
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(list, params);
    const wanted = expected.map((text) => w.data.resolve(text, params).value);
    await runCommand(w, { type: 'verify_list', text: `"${resolved.display}" items: ${wanted.join(' | ')}`, options }, async () => {
      let texts: string[] = [];
      const matched = await poll(
        timeoutOf(w, options),
        async () => {
          texts = await itemTexts(await itemsOf(w.page, resolved.value));
          return texts.length === wanted.length && texts.every((text, i) => text === wanted[i]) ? true : undefined;
        },
        untilPageChanges(w.page),
      );
      if (!matched)
        throw new Error(
          `The "${resolved.display}" items are ${texts.length ? texts.map((t) => `"${t}"`).join(', ') : 'none'}; expected ${wanted.map((t) => `"${t}"`).join(', ')}`,
        );
      return { value: texts.join(' | '), expectedValue: wanted.join(' | ') };
    });
  },

  /** Keeps the element's visible text (`'text'`) or field value as `{{name}}` for later steps. */
  async remember(
    ref: ElementRef,
    what: 'text' | 'value',
    name: string,
    params?: StepParams,
    options?: CommandOptions,
    world?: RehearseWorld,
  ): Promise<void> {
    const w = worldOf(world);
    const key = name.replace(/^\{\{\s*|\s*\}\}$/g, '');
    if (!/^[\w.-]+$/.test(key)) throw new Error(`"${name}" cannot be used as {{name}}: use letters, digits, "_", "-" or "."`);
    const element = toElement(ref, what === 'value' ? ROLES_FOR.fill : undefined);
    await runCommand(w, { type: `remember_${what}`, element, params, text: key, options }, async (target) => {
      const value =
        what === 'value'
          ? await target!.inputValue({ timeout: timeoutOf(w, options) })
          : collapse(await target!.innerText({ timeout: timeoutOf(w, options) }));
      w.data.keep(key, value);
      return { value };
    });
  },

  /** Waits until the address contains `expected` (equals it with `{ exact: true }`). */
  async verifyUrl(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_page_url', text: resolved.display, options }, async () => {
      // Heard from the page's navigation events (history.pushState included) as the address commits.
      const matched = await happened(
        w.page.waitForURL((url) => includesText(url.href, resolved.value, options?.exact), {
          timeout: timeoutOf(w, options),
          waitUntil: 'commit',
        }),
      );
      if (!matched)
        throw new Error(`The URL is ${w.page.url()}, expected it to ${options?.exact ? 'be' : 'contain'} "${resolved.display}"`);
      return { expectedValue: resolved.display, value: w.page.url() };
    });
  },

  /** Waits until the address is `expected`; a relative address resolves against the environment's baseUrl. */
  async verifyUrlIs(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    const absolute = resolveUrl(resolved.value, w.settings.env.baseUrl);
    await this.verifyUrl(absolute, undefined, { ...options, exact: true }, w);
  },

  /** Waits until the title contains `expected` (equals it with `{ exact: true }`). */
  async verifyTitle(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_page_title', text: resolved.display, options }, async () => {
      let title = '';
      const matched = await poll(
        timeoutOf(w, options),
        async () => {
          title = await w.page.title();
          return includesText(title, resolved.value, options?.exact) ? true : undefined;
        },
        untilPageChanges(w.page),
      );
      if (!matched) throw new Error(`The title is "${title}", expected it to ${options?.exact ? 'be' : 'contain'} "${resolved.display}"`);
      return { expectedValue: resolved.display, value: title };
    });
  },

  /** Waits a number of milliseconds ("500"), or until the page shows a text. */
  async wait(msOrText: string | number, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(String(msOrText), params);
    if (/^\d+$/.test(resolved.value.trim())) {
      await runCommand(w, { type: 'wait', value: resolved, options }, async () => sleep(Number(resolved.value)));
      return;
    }
    await runCommand(w, { type: 'wait_for_text', text: resolved.display, options }, async () => {
      const timeout = timeoutOf(w, options);
      const seen = await waitForText(w.page, resolved.value, options?.exact, 'shown', timeout);
      if (!seen) throw new Error(`"${resolved.display}" did not appear within ${timeout} ms`);
    });
  },

  async setViewport(width: number, height: number, _params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'set_viewport', text: `${width}x${height}`, options }, async () => {
      await w.page.setViewportSize({ width, height });
    });
  },
};
