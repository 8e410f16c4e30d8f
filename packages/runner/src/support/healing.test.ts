import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunReport } from '@rehearse/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../browser.js';
import { runCli } from '../cli/index.js';
import { startShops } from '../testing/healing-suite.js';
import { makeWorkspace } from '../testing/shop-workspace.js';
import type { Element, ElementFingerprint } from './elements.js';
import { ASSERTION_THRESHOLD, fingerprintOf, healElement, HEAL_THRESHOLD, scoreFingerprint } from './healing.js';

const BUTTON: ElementFingerprint = {
  tag: 'button',
  role: 'button',
  name: 'Add to cart',
  text: 'Add to cart',
  attributes: { id: 'buy', class: 'btn btn-primary', type: 'submit' },
  ancestors: ['main', 'form'],
  index: 0,
  rect: { x: 100, y: 300, width: 90, height: 32 },
};

describe('fingerprint scoring', () => {
  it('scores the same element 1 and a renamed, reworded one above the threshold', () => {
    expect(scoreFingerprint(BUTTON, BUTTON)).toBe(1);
    const renamed = {
      ...BUTTON,
      name: 'Add to bag',
      text: 'Add to bag',
      attributes: { id: 'add', class: 'button primary', type: 'submit' },
      ancestors: ['main', 'div', 'form'],
    };
    expect(scoreFingerprint(BUTTON, renamed)).toBeGreaterThan(HEAL_THRESHOLD);
  });

  it('scores an unrelated element of the same kind below the threshold', () => {
    const other = {
      ...BUTTON,
      name: 'Sign out',
      text: 'Sign out',
      attributes: { type: 'button' },
      ancestors: ['banner', 'div'],
      rect: { x: 900, y: 10, width: 60, height: 20 },
    };
    expect(scoreFingerprint(BUTTON, other)).toBeLessThan(HEAL_THRESHOLD);
  });
});

describe('healing in a page', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser({ browser: 'chromium', headless: true });
    page = await browser.newPage();
  });
  afterAll(async () => browser?.close());

  async function recorded(html: string, selector: string): Promise<Element> {
    await page.setContent(html);
    return { name: 'Target', locators: [{ kind: 'css', value: selector }], fingerprint: await fingerprintOf(page, page.locator(selector)) };
  }

  it('finds a renamed, reworded, wrapped button and proposes candidates that find it alone', async () => {
    const element = await recorded(
      '<main><form><input id="q" aria-label="Query"><button id="go" class="btn">Search now</button></form></main>',
      '#go',
    );
    await page.setContent(
      '<main><form><input id="q" aria-label="Query"><div class="wrap"><button id="submit-search" class="button">Search</button></div></form></main>',
    );
    const attempt = await healElement(page, element, 'any', false);
    expect(attempt.healed?.locators[0]).toEqual({ kind: 'role', role: 'button', name: 'Search', exact: true });
    expect(await attempt.healed!.locator.getAttribute('id')).toBe('submit-search');
  });

  it('does not heal when two elements match almost equally', async () => {
    const element = await recorded('<main><button id="a">Remove</button></main>', '#a');
    await page.setContent('<main><button>Remove</button><button>Remove</button></main>');
    const attempt = await healElement(page, element, 'any', false);
    expect(attempt.healed).toBeUndefined();
    expect(attempt.reason).toMatch(/two elements match almost equally/);
  });

  it('asks more of an assertion than of an action', async () => {
    const element = await recorded('<main><p id="total" data-testid="total">Total: $10</p><button>Pay</button></main>', '#total');
    // Only a faint likeness is left: enough to act on, not enough for a check to pass on.
    await page.setContent('<main><p class="total-line">Total: $12</p><button>Pay</button></main>');
    const asAction = await healElement(page, element, 'any', false);
    const asAssertion = await healElement(page, element, 'any', true);
    expect(asAction.confidence).toBeGreaterThanOrEqual(HEAL_THRESHOLD);
    expect(asAction.confidence).toBeLessThan(ASSERTION_THRESHOLD);
    expect(asAction.healed).toBeDefined();
    expect(asAssertion.healed).toBeUndefined();
  });

  it('only heals a fill to something that takes text', async () => {
    const element = await recorded('<main><label>Email <input id="email"></label><button>Email us</button></main>', '#email');
    await page.setContent('<main><button>Email us</button><label>Email address <input id="mail"></label></main>');
    const attempt = await healElement(page, element, 'fill', false);
    expect(await attempt.healed!.locator.getAttribute('id')).toBe('mail');
  });

  it('tells look-alike rows apart by the row’s text, after the rows were reordered and rebuilt', async () => {
    const row = (title: string) => `<li><div class="view"><input class="toggle" type="checkbox"><label>${title}</label></div></li>`;
    const element = await recorded(
      `<main><ul class="todo-list">${row('buy milk')}${row('feed the cat')}</ul></main>`,
      'li:nth-of-type(2) input',
    );
    expect(element.fingerprint!.container).toEqual({ tag: 'li', text: 'feed the cat' });
    const rebuilt = (title: string, id: number) =>
      `<li id="item-${id}" class="item"><div class="row"><span class="cell"><input class="item-toggle" type="checkbox"></span><span class="cell"><label>${title}</label></span></div></li>`;
    await page.setContent(
      `<main><ul id="items">${rebuilt('feed the cat', 2)}${rebuilt('water the plants', 3)}${rebuilt('buy milk', 1)}</ul></main>`,
    );
    const attempt = await healElement(page, element, 'check', false);
    expect(attempt.reason).toBe('healed');
    expect(await attempt.healed!.locator.locator('xpath=ancestor::li').getAttribute('id')).toBe('item-2');
  });

  it('heals a row’s unnamed edit box to the edit box showing that row’s text, never to the named field beside it', async () => {
    const element = await recorded(
      '<main><input class="new-todo" placeholder="What needs to be done?"><ul><li class="editing"><div class="view" style="display:none"><label>feed the cat</label></div><input class="edit" value="feed the cat"></li></ul></main>',
      'input.edit',
    );
    expect(element.fingerprint!.name).toBeUndefined();
    expect(element.fingerprint!.container).toEqual({ tag: 'li', text: 'feed the cat' });
    // Version 2: the edit box replaces the row's content, so the row shows its text only in the box.
    await page.setContent(
      '<div id="root"><form><input id="todo-input" placeholder="What needs to be done?"></form><ul id="items"><li id="item-2" class="item is-editing"><div class="item-edit"><input id="edit-2" class="item-edit-input" value="feed the cat"></div></li></ul></div>',
    );
    const attempt = await healElement(page, element, 'fill', false);
    expect(attempt.reason).toBe('healed');
    expect(await attempt.healed!.locator.getAttribute('id')).toBe('edit-2');
  });
});

describe('rehearse run --heal', () => {
  let shops: Awaited<ReturnType<typeof startShops>>;
  let ws: string;
  beforeAll(async () => {
    shops = await startShops();
  });
  afterAll(async () => {
    await shops?.app.close();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it('never heals a text assertion, and does not heal a failure the server caused', { timeout: 120_000 }, async () => {
    ws = makeWorkspace({
      baseUrl: shops.v2,
      config: { commandTimeoutMs: 1_500, screenshots: 'on-failure' },
      feature: `Feature: Guarded

  Scenario: A changed text is a failure
    Given I open "product.html?id=trail-backpack"
    Then I should see "Add to cart"

  Scenario: The server failed
    Given I open "login.html"
    When the server fails and I press sign in
`,
      steps: `import { When } from '@cucumber/cucumber';
import { context, locatorsFile } from '@rehearse/runner';

const elements = locatorsFile(import.meta.url, 'locators/login.json');

When('the server fails and I press sign in', async function () {
  await this.page.route('**/boom', (route) => route.fulfill({ status: 503, body: 'down' }));
  await this.page.evaluate(() => fetch('boom'));
  await context.web.click(elements.sign_in, {}, {}, this);
});
`,
    });
    mkdirSync(path.join(ws, 'features/step_definitions/locators'), { recursive: true });
    const fingerprint = {
      ...BUTTON,
      name: 'Sign in',
      text: 'Sign in',
      attributes: { type: 'submit', class: 'btn btn-primary btn-block' },
      ancestors: ['main', 'div', 'form'],
    };
    writeFileSync(
      path.join(ws, 'features/step_definitions/locators/login.json'),
      JSON.stringify({ sign_in: { name: 'Sign in', locators: [{ kind: 'css', value: '#login-form button' }], fingerprint } }),
    );
    const output: string[] = [];
    const code = await runCli(['run', '--heal', '--headless', '--out', 'out'], {
      cwd: ws,
      env: process.env,
      stdout: { write: (t: string) => output.push(t) },
      stderr: { write: (t: string) => output.push(t) },
      fetch,
    });
    expect(code, output.join('')).toBe(1);
    const report = JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')) as RunReport;
    const [text, server] = report.testCases;
    expect(text!.result.status).toBe('FAILED');
    expect(text!.steps.flatMap((s) => s.commands).some((c) => c.healing)).toBe(false);
    expect(server!.result.status).toBe('FAILED');
    const healing = server!.steps.flatMap((s) => s.commands).find((c) => c.healing)?.healing;
    expect(healing).toMatchObject({
      classification: 'server',
      healed: false,
      source: { file: 'features/step_definitions/locators/login.json', key: 'sign_in' },
    });
    expect(server!.retrainStats).toEqual({ result: 'failed' });
  });
});
