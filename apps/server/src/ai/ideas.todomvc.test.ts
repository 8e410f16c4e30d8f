import type { ApplicationMemory } from '@rehearse/contract';
import { startTodoMvcApp } from '@rehearse/recorder/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ideasFromMemory } from './ideas.js';
import { translateFlow } from './plain-english.js';
import { ideaStatuses, recordedMap } from './testing/idea-runs.js';

/**
 * Issue 44, "ideas that cover the app": scenario ideas for TodoMVC (markup we did not write) from
 * the page as the application map holds it, written as scenario creation writes them, run with the
 * real runner in Chromium on the app (each must pass) and on the bug each should catch (each must fail).
 */

let served: Awaited<ReturnType<typeof startTodoMvcApp>>;
/** The map's page right after opening, and after a recording that added two todos and completed one. */
const maps: { empty?: ApplicationMemory['paths']; used?: ApplicationMemory['paths'] } = {};

const todoMvcMap = (drive?: (page: Page) => Promise<void>) =>
  recordedMap(served.baseUrl, served.baseUrl, (page) => page.getByPlaceholder('What needs to be done?').waitFor(), drive);

beforeAll(async () => {
  served = await startTodoMvcApp();
  maps.empty = await todoMvcMap();
  maps.used = await todoMvcMap(async (page) => {
    for (const todo of ['feed the cat', 'buy milk']) {
      await page.getByPlaceholder('What needs to be done?').fill(todo);
      await page.keyboard.press('Enter');
    }
    await page.getByRole('listitem').filter({ hasText: 'feed the cat' }).getByRole('checkbox').check();
  });
}, 90_000);
afterAll(async () => served?.app.close());

const ideasOf = (paths: ApplicationMemory['paths'] | undefined) => ideasFromMemory({ paths: paths ?? {} }, '', [served.baseUrl]);

describe('scenario ideas for a todo app (issue 44)', () => {
  it('reads the list, its filters, its clear button, its counter and its edit hint from the page', () => {
    const names = ideasOf(maps.used).map((idea) => idea.name);
    expect(names).toEqual([
      'Add a todo',
      'Complete a todo',
      'Filter todos by state',
      'Clear completed todos',
      'Delete a todo',
      'Edit a todo',
    ]);
    // The empty page shows the box and the edit hint, nothing of a list yet.
    expect(ideasOf(maps.empty).map((idea) => idea.name)).toEqual(['Add a todo', 'Edit a todo']);
  });

  it('gives at least five distinct flows, each with an assertion, and each passes on the app', async () => {
    const ideas = ideasOf(maps.used);
    expect(new Set(ideas.map((idea) => idea.flow.join('\n'))).size).toBeGreaterThanOrEqual(5);
    for (const idea of ideas)
      expect(
        translateFlow(idea.flow).steps.some((step) => step.kind === 'outcome'),
        idea.name,
      ).toBe(true);
    const ran = await ideaStatuses(served.baseUrl, ideas);
    expect(ran).toEqual(Object.fromEntries(ideas.map((idea) => [idea.name, 'PASSED'])));
  }, 180_000);

  // Each idea against the bug a user of it would meet first (apps/todomvc/src/mutations.ts).
  const CATCHES: Record<string, string> = {
    'Add a todo': 'counter-plural',
    'Complete a todo': 'complete-wrong-row',
    'Filter todos by state': 'active-filter-shows-all',
    'Clear completed todos': 'clear-completed-removes-active',
    'Delete a todo': 'delete-other-row',
    'Edit a todo': 'edit-not-saved',
  };
  it('fails each idea on the bug it should catch', async () => {
    const ideas = ideasOf(maps.used);
    const missed: string[] = [];
    for (const [name, bug] of Object.entries(CATCHES)) {
      const mutant = await startTodoMvcApp(bug);
      try {
        const ran = await ideaStatuses(
          mutant.baseUrl,
          ideas.filter((idea) => idea.name === name),
        );
        if (!ran[name]?.startsWith('FAILED: ')) missed.push(`${name} on ${bug}: ${ran[name] ?? 'not run'}`);
      } finally {
        await mutant.app.close();
      }
    }
    expect(missed).toEqual([]);
  }, 300_000);
});
