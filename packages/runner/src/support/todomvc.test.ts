import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc, type Mutation } from '@rehearse/todomvc/testing';
import { describe, expect, it } from 'vitest';
import { runTodoWorkspace } from '../testing/todo-suite.js';
import { TODOMVC_FEATURE, TODOMVC_FIRST_TODO_FEATURE } from '../testing/todomvc-suite.js';

/**
 * The built-in-step suite for TodoMVC (an app whose markup nobody here designed) passes on the app
 * as its authors wrote it, and fails on a copy with a bug, saying what it saw. The whole table of
 * 34 bugs is the mutation bench's (bench/mutations.ts).
 */

/** The suite on the app with `bug` (no trace: the tests read outcomes, and a trace is a quarter of a scenario's CPU). */
async function runSuite(bug: Mutation | undefined, scenario?: string) {
  const served = await startTodoMvc(bug);
  try {
    const { code, report } = await runTodoWorkspace(
      served.urls.vanillajs,
      { 'todomvc.feature': TODOMVC_FEATURE, 'first-todo.feature': TODOMVC_FIRST_TODO_FEATURE },
      { config: { screenshots: 'on-failure', trace: 'off', commandTimeoutMs: 1_500 }, args: scenario ? ['--scenario', scenario] : [] },
    );
    return { code, report: report! };
  } finally {
    await served.app.close();
  }
}

describe('the TodoMVC suite in built-in steps', () => {
  it('passes every scenario on the app as written', async () => {
    const { code, report } = await runSuite(undefined);
    expect(report.testCases.filter((testCase) => testCase.result.status !== 'PASSED').map((testCase) => testCase.scenarioName)).toEqual([]);
    expect(report.testCases.length).toBeGreaterThanOrEqual(18);
    expect(code).toBe(0);
  }, 120_000);

  it.each([
    // The page shows the right row ticked until it draws the list again from storage: after a reload.
    ['complete-wrong-row', 'Completed todos stay completed after a reload', '"buy some cheese" should be checked but is not checked'],
    ['counter-off-by-one', 'The counter counts what is left, in words', 'The page does not show "1 item left" (waited 1500 ms)'],
    [
      'delete-other-row',
      'A todo is deleted with the button of its row, and stays deleted',
      'The "todo" items are "feed the cat", "book a doctors appointment"; expected "buy some cheese", "book a doctors appointment"',
    ],
    [
      'filters-ignore-address',
      'The Active filter shows only what is left',
      'The "todo" items are "buy some cheese", "feed the cat", "book a doctors appointment"; expected "buy some cheese", "book a doctors appointment"',
    ],
  ])(
    'fails on the bug %s, in the scenario that checks it, saying what it saw',
    async (id, scenario, said) => {
      const { code, report } = await runSuite(mutation(id), scenario);
      const [testCase] = report.testCases;
      expect(testCase!.result.status).toBe('FAILED');
      expect(testCase!.result.message).toContain(said);
      expect(code).toBe(1);
    },
    60_000,
  );
});
