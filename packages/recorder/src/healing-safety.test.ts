import type { RecordedCommand } from '@rehearse/contract';
import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc } from '@rehearse/todomvc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordScenario, replayAll } from './testing/healing-bench.js';
import { TODOMVC_REDESIGN_TARGET, TODOMVC_SCENARIOS } from './testing/todomvc-recordings.js';

/**
 * Healing must not make a broken app pass (issue 43 item 6): recorded on TodoMVC as its authors
 * wrote it, replayed with --heal on our redesign of it (apps/todomvc/src/redesign.ts), where the
 * field, the toggle-all and the filters are healed; once the redesign ships a bug, the healed run
 * fails at the step that sees it, saying what it saw.
 */

// Adds two todos through the reworded field, ticks them all through the toggle-all's label, unticks
// one through the label over its checkbox, and checks the toggle-all through its label.
const NAMES = ['Mark all as complete'];
const options = { name: 'TodoMVC', stateScript: TODOMVC_REDESIGN_TARGET.stateScript };

let served: Awaited<ReturnType<typeof startTodoMvc>>;
const recordings: Array<{ name: string; commands: RecordedCommand[] }> = [];

beforeAll(async () => {
  served = await startTodoMvc();
  for (const scenario of TODOMVC_SCENARIOS.filter((each) => NAMES.includes(each.name)))
    recordings.push({ name: scenario.name, commands: await recordScenario(TODOMVC_REDESIGN_TARGET, served.urls.vanillajs, scenario) });
}, 60_000);
afterAll(() => served?.app.close());

/** The scenario `name` replayed with --heal on the redesign carrying `bug`, and its first failed step. */
async function healedOn(bug: string, name: string) {
  const broken = await startTodoMvc(mutation(bug));
  try {
    const [scenario] = (
      await replayAll(
        recordings.filter((each) => each.name === name),
        broken.urls.redesign,
        true,
        options,
      )
    ).scenarios;
    return { scenario: scenario!, failed: scenario!.steps.find((step) => step.failed) };
  } finally {
    await broken.app.close();
  }
}

describe('healing on a redesign that ships a bug', () => {
  it('heals the redesign as written: every recorded scenario passes', async () => {
    const { scenarios } = await replayAll(recordings, served.urls.redesign, true, options);
    expect(scenarios.map((scenario) => [scenario.name, scenario.status])).toEqual(NAMES.map((name) => [name, 'FIXED_BY_AI']));
  }, 60_000);

  it.each([
    ['counter-off-by-one', 'I press "Enter" in "What needs to be done?"', '“1 item left” should have appeared'],
    [
      'toggle-all-state',
      '"Mark all as complete" checkbox should not be checked',
      '"Mark all as complete" should not be checked but is checked',
    ],
    ['uncheck-ignored', 'I uncheck "buy some cheese" checkbox', 'Clicking the checked control did not uncheck it'],
  ])(
    'fails on the bug %s at the step that sees it, saying what it saw',
    async (bug, step, said) => {
      const { scenario, failed } = await healedOn(bug, NAMES[0]!);
      expect(scenario.status).toBe('FAILED');
      expect(failed?.text).toBe(step);
      expect(failed?.message).toContain(said);
    },
    60_000,
  );
});
