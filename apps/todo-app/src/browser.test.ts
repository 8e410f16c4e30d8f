import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_APP_PATH, TODO_APP_V2_PATH, todoAppPlugin, todoAppV2Plugin } from './index.js';

let app: FastifyInstance;
let browser: Browser;
let address: string;

beforeAll(async () => {
  app = Fastify();
  await app.register(todoAppPlugin, { prefix: TODO_APP_PATH });
  await app.register(todoAppV2Plugin, { prefix: TODO_APP_V2_PATH });
  address = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${address}${path}/`);
  return page;
}

async function add(page: Page, ...titles: string[]) {
  for (const title of titles) {
    await page.getByPlaceholder('What needs to be done?').fill(title);
    await page.getByPlaceholder('What needs to be done?').press('Enter');
  }
}

/** The visible todo titles, read by their text only: the same for both versions. */
/** The visible rows' titles. Read through expect.poll: a hash route or a reload renders after the action that caused it resolved. */
const titles = (page: Page) => page.locator('li label').filter({ visible: true }).allInnerTexts();
/** The checkbox of the row showing `title`, found through the row (what both versions share). */
const toggleOf = (page: Page, title: string) =>
  page
    .locator('li')
    .filter({ has: page.getByText(title, { exact: true }) })
    .getByRole('checkbox');

describe.each([
  ['version 1', TODO_APP_PATH],
  ['version 2', TODO_APP_V2_PATH],
])('the todo app, %s', (_name, path) => {
  it('adds, edits, filters by hash route, completes, clears and keeps todos across a reload', async () => {
    const page = await open(path);
    try {
      await add(page, 'buy some cheese', 'feed the cat', 'book a doctors appointment');
      await expect.poll(() => titles(page)).toEqual(['buy some cheese', 'feed the cat', 'book a doctors appointment']);
      await expectText(page, '3 items left');

      // Double-click edits; Enter saves, Escape cancels, blur saves, empty deletes.
      await page.getByText('feed the cat', { exact: true }).dblclick();
      await page.locator('li input:focus').fill('feed the dog');
      await page.keyboard.press('Enter');
      await page.getByText('buy some cheese', { exact: true }).dblclick();
      await page.locator('li input:focus').fill('nothing');
      await page.keyboard.press('Escape');
      await page.getByText('book a doctors appointment', { exact: true }).dblclick();
      await page.locator('li input:focus').fill('   ');
      await page.getByPlaceholder('What needs to be done?').click();
      await expect.poll(() => titles(page)).toEqual(['buy some cheese', 'feed the dog']);

      await toggleOf(page, 'feed the dog').check();
      await expectText(page, '1 item left');
      await page.getByRole('link', { name: 'Active' }).click();
      expect(page.url()).toMatch(/#\/active$/);
      await expect.poll(() => titles(page)).toEqual(['buy some cheese']);
      await page.getByRole('link', { name: 'Completed' }).click();
      await expect.poll(() => titles(page)).toEqual(['feed the dog']);
      await page.getByRole('link', { name: 'All' }).click();

      await page.reload();
      await expect.poll(() => titles(page)).toEqual(['buy some cheese', 'feed the dog']);
      expect(await toggleOf(page, 'feed the dog').isChecked()).toBe(true);

      await page.getByLabel('Mark all as complete').check();
      await expectText(page, '0 items left');
      await page.getByRole('button', { name: 'Clear completed' }).click();
      await expect.poll(() => titles(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});

async function expectText(page: Page, text: string) {
  await page.getByText(text).waitFor({ state: 'visible' });
}

describe('the two versions differ as a framework rewrite would', () => {
  it('rows carry no test ids and unlabelled checkboxes in version 1; version 2 renames, wraps and reorders', async () => {
    const v1 = await open(TODO_APP_PATH);
    const v2 = await open(TODO_APP_V2_PATH);
    try {
      await add(v1, 'feed the cat');
      await add(v2, 'feed the cat');
      const row = v1.locator('ul.todo-list > li');
      expect(await row.evaluate((li: { outerHTML: string }) => li.outerHTML)).not.toMatch(/data-testid|aria-label|\sid=/);
      expect(await v1.getByRole('checkbox', { name: 'feed the cat' }).count()).toBe(0);

      expect(await v2.locator('.todo-list, .new-todo, .toggle, .todo-count, .filters').count()).toBe(0);
      expect(await v2.locator('#root .App main.todos-shell ul#items > li#item-1 .item-row .cell input.item-toggle').count()).toBe(1);
      // The footer shows the counter first in both, but version 2's DOM puts the filters first.
      expect(await v2.locator('.todos-footer > :first-child').evaluate((node: { className: string }) => node.className)).toBe('filter-bar');
      for (const page of [v1, v2]) await expectText(page, '1 item left');
    } finally {
      await v1.context().close();
      await v2.context().close();
    }
  }, 60_000);

  it('answers a missing page with 404', async () => {
    for (const prefix of [TODO_APP_PATH, TODO_APP_V2_PATH]) {
      const response = await app.inject({ method: 'GET', url: `${prefix}/no-such-page.html` });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('Page not found');
    }
  });
});
