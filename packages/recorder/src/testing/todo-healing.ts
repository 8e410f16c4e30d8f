import { startTodoVersions } from '@rehearse/todo-app/testing';
import type { Page } from 'playwright-core';
import type { RecorderSession } from '../session.js';
import { pickBeneath } from './picker.js';
import type { BenchScenario, BenchTarget } from './healing-bench.js';

/**
 * The todo app as a target of the recorded healing benchmark (healing-bench.ts): version 2 is a
 * framework rewrite (other classes, wrappers, ids and order, the edit box replacing the row). The
 * state compared after each step is the todos, the route and the text in its fields.
 */

export const NEW_TODO = 'What needs to be done?';

/** Types each title into the new-todo field, with Enter after each (TodoMVC's field in every build). */
export async function add(page: Page, ...titles: string[]): Promise<void> {
  await page.getByPlaceholder(NEW_TODO).click();
  for (const title of titles) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
  }
}

const row = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });

async function tick(page: Page, title: string): Promise<void> {
  await row(page, title).getByRole('checkbox').click();
}

/** Points at the row, which shows its "×", and clicks it. */
async function remove(page: Page, title: string): Promise<void> {
  await row(page, title).hover();
  await row(page, title).getByRole('button', { name: '×' }).click();
}

async function editTo(page: Page, from: string, to: string, key = 'Enter'): Promise<void> {
  await page.getByText(from, { exact: true }).dblclick();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(to);
  await page.keyboard.press(key);
}

/**
 * An element assertion, as the panel's "Visible" button and a click on the element record it; the
 * counter lies under the filter bar, so it is picked with ArrowDown first.
 */
async function seeElement(session: RecorderSession, page: Page, text: string): Promise<void> {
  await session.assertNext('verifyVisible');
  await pickBeneath(page, page.getByText(text, { exact: true }));
}

async function seeText(session: RecorderSession, page: Page, text: string): Promise<void> {
  await page.getByText(text).first().waitFor();
  await session.assertText(text);
}

export const TODO_SCENARIOS: BenchScenario[] = [
  {
    name: 'Add a todo',
    drive: async (page, session) => {
      await add(page, 'buy milk');
      await seeElement(session, page, 'buy milk');
    },
  },
  {
    name: 'Add two todos',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await seeText(session, page, '2 items left');
    },
  },
  {
    name: 'Complete the second todo',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await tick(page, 'feed the cat');
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Complete the first todo',
    drive: async (page) => {
      await add(page, 'buy milk', 'feed the cat', 'water the plants');
      await tick(page, 'buy milk');
    },
  },
  {
    name: 'Complete and reopen a todo',
    drive: async (page) => {
      await add(page, 'buy milk');
      await tick(page, 'buy milk');
      await tick(page, 'buy milk');
    },
  },
  {
    name: 'Rename a todo',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await editTo(page, 'feed the cat', 'feed the dog');
      await seeElement(session, page, 'feed the dog');
    },
  },
  {
    name: 'Cancel an edit with Escape',
    drive: async (page) => {
      await add(page, 'buy milk');
      await editTo(page, 'buy milk', 'buy bread', 'Escape');
    },
  },
  {
    name: 'Clear a todo by editing it empty',
    drive: async (page) => {
      await add(page, 'buy milk', 'feed the cat');
      await page.getByText('buy milk', { exact: true }).dblclick();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Enter');
    },
  },
  {
    name: 'Mark all as complete',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await page.getByText('Mark all as complete').click();
      await seeText(session, page, '0 items left');
    },
  },
  {
    name: 'Show active todos',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await tick(page, 'buy milk');
      await page.getByRole('link', { name: 'Active' }).click();
      await seeElement(session, page, 'feed the cat');
    },
  },
  {
    name: 'Show completed todos',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await tick(page, 'feed the cat');
      await page.getByRole('link', { name: 'Completed' }).click();
      await seeElement(session, page, 'feed the cat');
    },
  },
  {
    name: 'Back to all todos',
    drive: async (page) => {
      await add(page, 'buy milk', 'feed the cat');
      await tick(page, 'buy milk');
      await page.getByRole('link', { name: 'Completed' }).click();
      await page.getByRole('link', { name: 'All' }).click();
    },
  },
  {
    name: 'Clear completed todos',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat', 'water the plants');
      await tick(page, 'feed the cat');
      await page.getByRole('button', { name: 'Clear completed' }).click();
      await seeText(session, page, '2 items left');
    },
  },
  {
    name: 'Complete a todo on the active list',
    drive: async (page) => {
      await add(page, 'buy milk', 'feed the cat');
      await page.getByRole('link', { name: 'Active' }).click();
      await tick(page, 'feed the cat');
    },
  },
  {
    name: 'Delete a todo',
    drive: async (page, session) => {
      await add(page, 'buy milk', 'feed the cat');
      await remove(page, 'feed the cat');
      await seeText(session, page, '1 item left');
    },
  },
  {
    name: 'Delete the first todo',
    drive: async (page) => {
      await add(page, 'buy milk', 'feed the cat', 'water the plants');
      await remove(page, 'buy milk');
    },
  },
  {
    name: 'Counter shows the todos left',
    drive: async (page, session) => {
      await add(page, 'buy milk');
      await seeElement(session, page, '1 item left');
    },
  },
];

// Runs in the page after every step (source text: it is written into the workspace's step file).
const TODO_STATE_SCRIPT = `(() => {
  const stored = localStorage.getItem('rehearse-todos-v1') ?? localStorage.getItem('rehearse-todos-v2') ?? '[]';
  const todos = JSON.parse(stored).map((t) => ({ title: t.title, completed: Boolean(t.completed) }));
  const fields = [...document.querySelectorAll('input:not([type]),input[type="text"]')].filter((e) => e.getClientRects().length > 0);
  const newTodo = fields.find((e) => e.placeholder === ${JSON.stringify(NEW_TODO)});
  const edit = fields.find((e) => e.placeholder !== ${JSON.stringify(NEW_TODO)});
  return { todos, route: location.hash.replace(/^#\\/?/, '') || 'all', newTodo: newTodo ? newTodo.value : '', editing: edit ? edit.value : null };
})()`;

/** The todo app as the recorded healing benchmark's target. */
export const TODO_TARGET: BenchTarget = {
  name: 'todo app',
  start: startTodoVersions,
  ready: (page) => page.getByPlaceholder(NEW_TODO).waitFor(),
  stateScript: TODO_STATE_SCRIPT,
  scenarios: TODO_SCENARIOS,
};
