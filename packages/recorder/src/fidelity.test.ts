import type { RecordedCommand } from '@rehearse/contract';
import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc } from '@rehearse/todomvc/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderSession } from './session.js';
import { recordScenario } from './testing/healing-bench.js';
import { replayRecording } from './testing/targets.js';
import { add } from './testing/todo-healing.js';
import { TODOMVC_TARGET } from './testing/todomvc-recordings.js';

/**
 * What the recorder writes down is what the person saw and did (issue 43 item 1), on TodoMVC as
 * its authors wrote it (apps/todomvc: unlabelled checkboxes, a list redrawn on every change).
 */

const row = (page: Page, title: string) => page.locator('#todo-list li').filter({ has: page.getByText(title, { exact: true }) });

/** Records on TodoMVC (vanilla JS), after adding two todos, what `drive` does, and answers the commands captured. */
function record(url: string, drive: (page: Page, session: RecorderSession) => Promise<void>): Promise<RecordedCommand[]> {
  return recordScenario(TODOMVC_TARGET, url, {
    name: 'fidelity',
    start: 'index.html',
    drive: async (page, session) => {
      await add(page, 'buy some cheese', 'feed the cat');
      await drive(page, session);
    },
  });
}

let served: Awaited<ReturnType<typeof startTodoMvc>>;
beforeAll(async () => {
  served = await startTodoMvc();
});
afterAll(() => served?.app.close());

describe('recording TodoMVC, an app not written for the recorder', () => {
  it('records a Checked assertion picked by clicking the checkbox as the state seen before the click, and leaves the box as it was', async () => {
    let boxAfterPick: boolean | undefined;
    const url = served.urls.vanillajs;
    const commands = await record(url, async (page, session) => {
      await row(page, 'feed the cat').locator('input.toggle').click();
      await session.assert('verifyChecked');
      await row(page, 'feed the cat').locator('input.toggle').click();
      await session.assert('verifyChecked');
      await row(page, 'buy some cheese').locator('input.toggle').click();
      boxAfterPick = await row(page, 'buy some cheese').locator('input.toggle').isChecked();
    });
    // The tick's own change (the counter going down) is the tick's effect, never the Enter's before it:
    // the page's lines are taken at the click, before the app redraws.
    const tick = commands.findIndex((command) => command.type === 'check');
    const enter = commands[tick - 1]!;
    expect(enter.type).toBe('press');
    expect(enter.effect).toMatchObject({ appeared: expect.arrayContaining(['2 items left']), disappeared: ['1 item left'] });
    expect(commands[tick]!.effect).toMatchObject({ appeared: expect.arrayContaining(['1 item left']) });
    const checks = commands.filter((command) => command.type === 'verifyChecked' || command.type === 'check' || command.type === 'uncheck');
    expect(checks.map((command) => [command.type, command.element?.name, command.value])).toEqual([
      ['check', 'feed the cat', undefined],
      ['verifyChecked', 'feed the cat', 'checked'],
      ['verifyChecked', 'buy some cheese', 'unchecked'],
    ]);
    expect(boxAfterPick).toBe(false);
    // The recording passes on the app as written, and fails where new todos start completed.
    const { result } = await replayRecording('Tick one todo', commands, url);
    expect(result.output).toContain('1 scenario: 1 passed, 0 failed');
    const broken = await startTodoMvc(mutation('add-completed'));
    try {
      const { result: onBroken } = await replayRecording('Tick one todo', commands, broken.urls.vanillajs);
      expect(onBroken.code).toBe(1);
      expect(onBroken.output).toMatch(/should be checked but is not checked|should not be checked but is checked/);
    } finally {
      await broken.app.close();
    }
  }, 120_000);

  it('binds a step that names its row to that row: the delete button of "feed the cat" is looked for inside its row only', async () => {
    const url = served.urls.vanillajs;
    const commands = await record(url, async (page) => {
      await page.keyboard.type('book a doctors appointment');
      await page.keyboard.press('Enter');
      await row(page, 'feed the cat').hover();
      await row(page, 'feed the cat').locator('button.destroy').click();
      await expect.poll(() => row(page, 'feed the cat').count()).toBe(0);
    });
    const { generated, result } = await replayRecording('Delete the cat', commands, url);
    const deleteStep = generated.scenarioText
      .split('\n')
      .find((line) => line.includes('in the item containing "feed the cat"') && /click/.test(line));
    expect(deleteStep).toBeDefined();
    const locatorFile = generated.files.find((file) => file.path.includes('/locators/'))!;
    const entries = Object.values(
      JSON.parse(locatorFile.content) as Record<string, { scope?: unknown; locators: { kind: string; value?: string }[] }>,
    );
    const scoped = entries.filter((entry) => entry.scope);
    expect(scoped.map((entry) => entry.scope)).toContainEqual({ container: 'item', text: 'feed the cat' });
    // Inside the row: no path that names a row by its position on the page.
    for (const entry of scoped)
      expect(entry.locators.filter((candidate) => /nth-of-type|nth-child/.test(candidate.value ?? ''))).toEqual([]);
    expect(result.output).toContain('1 scenario: 1 passed, 0 failed');
    // Where new todos go on top, "feed the cat" is another row by position; the step still deletes it.
    const reordered = await startTodoMvc(mutation('add-on-top'));
    try {
      const onReordered = await replayRecording('Delete the cat', commands, reordered.urls.vanillajs);
      expect(onReordered.result.output).toContain('1 scenario: 1 passed, 0 failed');
    } finally {
      await reordered.app.close();
    }
  }, 120_000);

  it('records ticking a todo that the Active list takes away at once, by the row it was in', async () => {
    const url = served.urls.vanillajs;
    const commands = await record(url, async (page) => {
      await page.getByRole('link', { name: 'Active' }).click();
      await page.waitForURL(/#\/active$/);
      await row(page, 'feed the cat').locator('input.toggle').click();
      await expect.poll(() => row(page, 'feed the cat').count()).toBe(0);
    });
    const tick = commands.find((command) => command.type === 'check');
    expect(tick?.element?.name).toBe('feed the cat');
    const { generated, result } = await replayRecording('Tick on the Active list', commands, url);
    expect(generated.scenarioText).toMatch(/I check "feed the cat"/);
    expect(result.output).toContain('1 scenario: 1 passed, 0 failed');
  }, 120_000);

  it('records Class as the class the person saw change and List as the items in order; each fails on the release that breaks it', async () => {
    const url = served.urls.vanillajs;
    const commands = await record(url, async (page, session) => {
      await row(page, 'feed the cat').locator('input.toggle').click();
      // Picked by clicking the todo's text: the class that changed is on its row.
      await session.assert('verifyClass');
      await page.getByText('feed the cat', { exact: true }).click();
      await row(page, 'feed the cat').locator('input.toggle').click();
      await session.assert('verifyClass');
      await page.getByText('feed the cat', { exact: true }).click();
      await row(page, 'feed the cat').locator('input.toggle').click();
      await session.assert('verifyItems');
      await page.getByText('buy some cheese', { exact: true }).click();
      await page.getByRole('link', { name: 'Completed' }).click();
      await page.waitForURL(/#\/completed$/);
      await session.assert('verifyClass');
      await page.getByRole('link', { name: 'Completed' }).click();
    });
    const asserted = commands.filter((command) => ['verifyClass', 'verifyNoClass', 'verifyItems'].includes(command.type));
    expect(asserted.map((command) => [command.type, command.element?.name, command.value, command.items])).toEqual([
      ['verifyClass', 'feed the cat', 'completed', undefined],
      ['verifyNoClass', 'feed the cat', 'completed', undefined],
      ['verifyItems', undefined, 'todo', ['buy some cheese', 'feed the cat']],
      ['verifyClass', 'Completed', 'selected', undefined],
    ]);
    // The picks took nothing away: the filter was not followed by the pick's click.
    expect(commands.filter((command) => command.type === 'click').map((command) => command.element?.name)).toEqual(['Completed']);

    const { generated, result } = await replayRecording('Classes and order', commands, url);
    const lines = generated.scenarioText.split('\n').map((line) => line.trim());
    expect(lines).toContain('Then "feed the cat" item should have the class "completed"');
    expect(lines).toContain('Then "feed the cat" item should not have the class "completed"');
    expect(lines).toEqual(expect.arrayContaining(['Then the "todo" items should be:', '| buy some cheese |', '| feed the cat |']));
    expect(lines).toContain('Then "Completed" link should have the class "selected"');
    expect(result.output).toContain('1 scenario: 1 passed, 0 failed');

    for (const [bug, says] of [
      ['complete-not-struck', /"feed the cat" should have the class "completed" but has no class/],
      ['add-on-top', /The "todo" items are "feed the cat", "buy some cheese"; expected "buy some cheese", "feed the cat"/],
      ['filter-highlight-stuck', /"Completed" should have the class "selected" but has no class/],
    ] as const) {
      const broken = await startTodoMvc(mutation(bug));
      try {
        const { result: onBroken } = await replayRecording('Classes and order', commands, broken.urls.vanillajs);
        expect(onBroken.code, bug).toBe(1);
        expect(onBroken.output, bug).toMatch(says);
      } finally {
        await broken.app.close();
      }
    }
  }, 180_000);
});
