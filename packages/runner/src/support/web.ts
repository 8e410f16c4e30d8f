import { errors, type Page } from 'playwright-core';
import { resolveElement, runCommand, worldOf, type CommandOptions, type StepParams } from './commands.js';
import { elementByName, ROLES_FOR, type Element } from './elements.js';
import { poll, sleep, untilPageChanges } from './poll.js';
import type { RehearseWorld } from './world.js';

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
async function waitForText(page: Page, text: string, exact: boolean | undefined, until: 'shown' | 'gone', timeout: number): Promise<boolean> {
  const matches = visibleText(page, text, exact);
  const seen = await poll(timeout, async () => (((await matches.count()) > 0) === (until === 'shown') ? true : undefined), untilPageChanges(page));
  return seen === true;
}

/** An element, or just its visible words (found like the plain-English steps find them). */
export type ElementRef = Element | string;

type Roles = ReadonlyArray<string | readonly string[]>;
const ANY_ROLE: Roles = [...ROLES_FOR.click, ...ROLES_FOR.fill];

function toElement(ref: ElementRef, roles: Roles = ANY_ROLE): Element {
  return typeof ref === 'string' ? elementByName(ref, roles) : ref;
}

const timeoutOf = (world: RehearseWorld, options: CommandOptions | undefined) => options?.timeout ?? world.settings.commandTimeoutMs;

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
    await runCommand(w, { type: 'navigate', value: { ...target, value: absolute, display: target.secret ? target.display : absolute }, options }, async () => {
      const response = await w.page.goto(absolute, { waitUntil: 'load', ...(options?.timeout ? { timeout: options.timeout } : {}) });
      return response ? { status: response.status(), statusText: response.statusText() } : {};
    });
  },

  async click(ref: ElementRef, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.click);
    await runCommand(w, { type: 'click_element', element, params, options }, async (target) => {
      await target!.click({ timeout: timeoutOf(w, options) });
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
  async check(ref: ElementRef, params?: StepParams, options?: CommandOptions & { checked?: boolean }, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const element = toElement(ref, ROLES_FOR.check);
    const checked = options?.checked ?? true;
    await runCommand(w, { type: checked ? 'check_element' : 'uncheck_element', element, params, options }, async (target) => {
      await target!.setChecked(checked, { timeout: timeoutOf(w, options) });
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
  async verifyValue(ref: ElementRef, expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
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

  /** Waits until the address contains `expected` (equals it with `{ exact: true }`). */
  async verifyUrl(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_page_url', text: resolved.display, options }, async () => {
      // Heard from the page's navigation events (history.pushState included) as the address commits.
      const matched = await happened(
        w.page.waitForURL((url) => includesText(url.href, resolved.value, options?.exact), { timeout: timeoutOf(w, options), waitUntil: 'commit' }),
      );
      if (!matched) throw new Error(`The URL is ${w.page.url()}, expected it to ${options?.exact ? 'be' : 'contain'} "${resolved.display}"`);
      return { expectedValue: resolved.display, value: w.page.url() };
    });
  },

  /** Waits until the title contains `expected` (equals it with `{ exact: true }`). */
  async verifyTitle(expected: string, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    const resolved = w.data.resolve(expected, params);
    await runCommand(w, { type: 'verify_page_title', text: resolved.display, options }, async () => {
      let title = '';
      const matched = await poll(timeoutOf(w, options), async () => {
        title = await w.page.title();
        return includesText(title, resolved.value, options?.exact) ? true : undefined;
      }, untilPageChanges(w.page));
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
