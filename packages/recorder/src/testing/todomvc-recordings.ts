import { startTodoMvc } from '@rehearse/todomvc/testing';
import type { Page } from 'playwright-core';
import type { RecorderSession } from '../session.js';
import type { BenchScenario, BenchTarget } from './healing-bench.js';
import { add, NEW_TODO } from './todo-healing.js';

/**
 * TodoMVC as its authors wrote it (apps/todomvc), recorded through the recorder as a QA engineer
 * would record what Playwright's demo suite checks: each scenario acts, then asserts with the
 * recorder's own assertions (Text, Checked, Not visible, URL, List, Class). Recorded on the vanilla JS app; the
 * Vue app is the same product from another framework's markup, which makes it the redesign of the
 * recorded healing benchmark, and each injected bug (apps/todomvc/src/mutations.ts) a broken
 * release for the mutation bench.
 */

/** Double-clicks a todo, selects its text and types `to` (nothing empties it), then presses `key`. */
async function editTo(page: Page, from: string, to: string, key = 'Enter'): Promise<void> {
  await page.getByText(from, { exact: true }).dblclick();
  await page.keyboard.press('Control+A');
  if (to) await page.keyboard.type(to);
  else await page.keyboard.press('Backspace');
  await page.keyboard.press(key);
}

const row = (page: Page, title: string) => page.locator('#todo-list li').filter({ has: page.getByText(title, { exact: true }) });

async function tick(page: Page, title: string): Promise<void> {
  await row(page, title).locator('input.toggle').click();
}

async function seeText(session: RecorderSession, page: Page, text: string): Promise<void> {
  await page.getByText(text).first().waitFor();
  await session.assertText(text);
}

/** A Checked assertion, picked by clicking the todo's own checkbox as a person does. */
async function seeChecked(session: RecorderSession, page: Page, title: string): Promise<void> {
  await session.assert('verifyChecked');
  await row(page, title).locator('input.toggle').click();
}

async function dontSee(session: RecorderSession, text: string): Promise<void> {
  await session.assert('verifyNoText', text);
}

const THREE = ['buy some cheese', 'feed the cat', 'book a doctors appointment'];

export const TODOMVC_SCENARIOS: BenchScenario[] = [
  {
    name: 'Add three todos',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await seeText(session, page, '3 items left');
      await seeText(session, page, 'book a doctors appointment');
      // List: the todos in the order they were added, picked by clicking one.
      await session.assert('verifyItems');
      await page.getByText('feed the cat', { exact: true }).click();
      // Value: the field is empty again, picked by clicking it.
      await session.assert('verifyValue');
      await page.getByPlaceholder(NEW_TODO).click();
    },
  },
  {
    name: 'A blank todo is not added',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', '   ');
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Tick one todo',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await tick(page, 'feed the cat');
      await seeChecked(session, page, 'feed the cat');
      await seeChecked(session, page, 'buy some cheese');
      // Class: the row shows it is done (struck through), picked by clicking its text.
      await session.assert('verifyClass');
      await page.getByText('feed the cat', { exact: true }).click();
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Tick and untick a todo',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await tick(page, 'buy some cheese');
      await tick(page, 'buy some cheese');
      await seeChecked(session, page, 'buy some cheese');
      await seeText(session, page, '2 items left');
    },
  },
  {
    name: 'Mark all as complete',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await page.locator('#toggle-all').click();
      await seeText(session, page, '0 items left');
      await seeChecked(session, page, 'feed the cat');
      // The toggle follows the todos: unticking one unticks it.
      await tick(page, 'buy some cheese');
      await session.assert('verifyChecked');
      await page.locator('#toggle-all').click();
    },
  },
  {
    name: 'Rename a todo',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await editTo(page, 'feed the cat', 'buy some sausages');
      await seeText(session, page, 'buy some sausages');
      await dontSee(session, 'feed the cat');
    },
  },
  {
    name: 'Escape cancels an edit',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await editTo(page, 'feed the cat', 'buy some sausages', 'Escape');
      await seeText(session, page, 'feed the cat');
      await dontSee(session, 'buy some sausages');
    },
  },
  {
    name: 'Emptying a todo while editing deletes it',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await editTo(page, 'feed the cat', '');
      await dontSee(session, 'feed the cat');
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Todos, ticks and edits are kept when the page is opened again',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await tick(page, 'buy some cheese');
      await editTo(page, 'feed the cat', 'buy some sausages');
      await row(page, 'book a doctors appointment').hover();
      await row(page, 'book a doctors appointment').locator('button.destroy').click();
      // Typed into the address bar, as a person reopens the page.
      await session.input({ kind: 'navigate', url: 'index.html' });
      await page.getByText('buy some sausages').waitFor();
      await seeChecked(session, page, 'buy some cheese');
      await seeText(session, page, 'buy some sausages');
      await dontSee(session, 'book a doctors appointment');
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Delete a todo',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await row(page, 'feed the cat').hover();
      await row(page, 'feed the cat').locator('button.destroy').click();
      await dontSee(session, 'feed the cat');
      await seeText(session, page, '2 items left');
    },
  },
  {
    name: 'Clear completed',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await tick(page, 'feed the cat');
      await seeText(session, page, 'Clear completed (1)');
      await page.getByText('Clear completed').click();
      await dontSee(session, 'feed the cat');
      await seeText(session, page, 'buy some cheese');
    },
  },
  {
    name: 'The Active filter',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await tick(page, 'feed the cat');
      await page.getByRole('link', { name: 'Active' }).click();
      await page.waitForURL(/#\/active$/);
      await session.assert('verifyUrl');
      // Class: the filter shown is the one highlighted.
      await session.assert('verifyClass');
      await page.getByRole('link', { name: 'Active' }).click();
      await dontSee(session, 'feed the cat');
      await seeText(session, page, 'book a doctors appointment');
    },
  },
  {
    name: 'The Completed filter',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, ...THREE);
      await tick(page, 'feed the cat');
      await page.getByRole('link', { name: 'Completed' }).click();
      await page.waitForURL(/#\/completed$/);
      await dontSee(session, 'buy some cheese');
      await seeText(session, page, 'feed the cat');
    },
  },
];

// Runs in the page after every step (source text: it is written into the workspace's step file).
const TODOMVC_STATE_SCRIPT = `(() => {
  const stored = JSON.parse(localStorage.getItem('todos-vanillajs') ?? '{"todos":[]}').todos ?? JSON.parse(localStorage.getItem('todos-vuejs') ?? '[]');
  const vue = localStorage.getItem('todos-vuejs');
  const list = vue ? JSON.parse(vue) : stored;
  const todos = list.map((t) => ({ title: t.title, completed: Boolean(t.completed) }));
  // A row's edit box by what it is, not by its class: the redesign renames the classes.
  const edit = [...document.querySelectorAll('li input:not([type=checkbox])')].find((e) => e.getClientRects().length > 0);
  return { todos, route: location.hash.replace(/^#\\/?/, '') || 'all', editing: edit ? edit.value : null };
})()`;

/** TodoMVC, vanilla JS (recorded) → Vue (the same markup from a framework), for the recorded healing benchmark. */
export const TODOMVC_TARGET: BenchTarget = {
  name: 'TodoMVC (vanilla JS → Vue)',
  start: async () => {
    const served = await startTodoMvc();
    return { app: served.app, v1: served.urls.vanillajs, v2: served.urls.vue };
  },
  ready: (page) => page.getByPlaceholder(NEW_TODO).waitFor(),
  stateScript: TODOMVC_STATE_SCRIPT,
  scenarios: TODOMVC_SCENARIOS,
};

/**
 * TodoMVC, vanilla JS (recorded) → our redesign of it (apps/todomvc/src/redesign.ts: new classes,
 * wording and wrappers, a toggle-all reachable only through its label, row checkboxes covered by
 * their own labels), for the recorded healing benchmark.
 */
export const TODOMVC_REDESIGN_TARGET: BenchTarget = {
  ...TODOMVC_TARGET,
  name: 'TodoMVC (vanilla JS → our redesign)',
  start: async () => {
    const served = await startTodoMvc();
    return { app: served.app, v1: served.urls.vanillajs, v2: served.urls.redesign };
  },
};
