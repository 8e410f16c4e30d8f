import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { effectsFileOf, type RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../browser.js';
import { runCli } from '../cli/index.js';
import { makeTodoWorkspace, startTodoApp } from '../testing/todo-suite.js';
import { fingerprintOf } from './healing.js';

const FEATURE = `Feature: Todos

  Scenario: Rename a todo
    Given I open "/"
    When I fill "What needs to be done?" with "feed the cat"
    And I press "Enter"
    When I double-click "feed the cat"
    And I type the new title
    And I save the title
`;

const STEPS = `import { When } from '@cucumber/cucumber';
import { context, locatorsFile } from '@rehearse/runner';

const elements = locatorsFile(import.meta.url, 'locators/home.json');

When('I type the new title', async function () {
  await context.web.fill(elements.edit, 'feed the dog', {}, {}, this);
});
When('I save the title', async function () {
  await context.web.press(elements.edit, 'Enter', {}, {}, this);
});
`;

/**
 * Healing judged by what the step does to the app: the row's edit box is gone from its recorded
 * locator and healing settles on the new-todo box (its fingerprint says so here, as a wrong heal
 * would). Filling and pressing Enter there adds a todo instead of renaming one. Without the
 * recorded effects the scenario passes as "fixed by AI"; with them the Enter is refused, because
 * "1 item left" went, which it did not when recorded.
 */
describe('healed steps held to their recorded effect', () => {
  let todo: Awaited<ReturnType<typeof startTodoApp>>;
  let dir: string;
  let locators: string;

  beforeAll(async () => {
    todo = await startTodoApp();
    const browser = await launchBrowser({ browser: 'chromium', headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(todo.v1);
      // The wrong element's fingerprint under the edit box's key: healing will choose it.
      const fingerprint = await fingerprintOf(page, page.getByPlaceholder('What needs to be done?'));
      locators = JSON.stringify({
        edit: { name: 'feed the cat', locators: [{ kind: 'css', value: 'input.no-such-edit-box' }], fingerprint },
      });
    } finally {
      await browser.close();
    }
  });
  afterAll(async () => {
    await todo?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (effects: object | undefined) => {
    dir = makeTodoWorkspace(todo.v1, {}, { screenshots: 'off', commandTimeoutMs: 1_500 });
    writeFileSync(path.join(dir, 'features', 'todos.feature'), FEATURE);
    writeFileSync(path.join(dir, 'features', 'step_definitions', 'home.mjs'), STEPS);
    mkdirSync(path.join(dir, 'features', 'step_definitions', 'locators'), { recursive: true });
    writeFileSync(path.join(dir, 'features', 'step_definitions', 'locators', 'home.json'), locators);
    if (effects) {
      const file = path.join(dir, effectsFileOf('features/todos.feature'));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(effects));
    }
    const out: string[] = [];
    const sink = { write: (text: string) => out.push(text) };
    await runCli(['run', '--env', 'environments/default.json', '--headless', '--heal', '--out', 'report'], {
      cwd: dir,
      stdout: sink,
      stderr: sink,
    });
    const report = JSON.parse(readFileSync(path.join(dir, 'report', 'report.json'), 'utf8')) as RunReport;
    rmSync(dir, { recursive: true, force: true });
    return { testCase: report.testCases[0]!, output: out.join('') };
  };

  it('passes a wrong heal as fixed by AI when nothing says what the step did', async () => {
    const { testCase, output } = await run(undefined);
    expect(testCase.result.status, output).toBe('FIXED_BY_AI');
  }, 120_000);

  it('refuses the heal when the step does not change the page as recorded', async () => {
    // What the recorder saw the two steps do on the app: typing changed no text; Enter showed the
    // new title and left the counter as it was.
    const { testCase, output } = await run({
      'Rename a todo': {
        'I type the new title': [{ appeared: [], disappeared: [], kept: ['1 item left'] }],
        'I save the title': [{ appeared: ['feed the dog'], disappeared: [], kept: ['1 item left'] }],
      },
    });
    expect(testCase.result.status, output).toBe('FAILED');
    const enter = testCase.steps.find((step) => step.text === 'I save the title')!.commands[0]!;
    expect(enter.result.message).toBe(
      'AI recovery found an element, but the step did not do what it did when recorded: “1 item left” went, which it did not when recorded',
    );
    expect(enter.healing).toMatchObject({
      healed: false,
      reason: 'the healed element did not do what the recorded step did: “1 item left” went, which it did not when recorded',
    });
  }, 120_000);
});
