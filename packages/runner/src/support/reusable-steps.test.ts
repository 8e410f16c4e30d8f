import { parseReusableSteps } from '@rehearse/contract';
import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc } from '@rehearse/todomvc/testing';
import { describe, expect, it } from 'vitest';
import { runTodoWorkspace, TODO_STEPS } from '../testing/todo-suite.js';
import { compileReusableSteps } from './reusable-steps.js';

describe('reading reusable steps', () => {
  it('turns each scenario into a step pattern with its placeholders as parameters', () => {
    const [one, two] = parseReusableSteps(TODO_STEPS, 'features/steps/todos.steps');
    expect(one).toMatchObject({ pattern: 'I add the todo {string}', params: ['title'], line: 4 });
    expect(two!.body.map((line) => line.line)).toEqual([9, 10]);
  });

  it.each([
    ['an unclosed quote', 'Scenario: I add "<title>\n  When I press "Enter"', 'features/x.steps:1: unclosed quote in "I add "<title>"'],
    [
      'a placeholder the step does not have',
      'Scenario: I add "<title>"\n  When I fill "x" with "<name>"',
      'features/x.steps:2: "<name>" is not a parameter of "I add "<title>"" (it has <title>)',
    ],
    [
      'a line that is not a step',
      'Scenario: I tidy up\n  Click the button',
      'features/x.steps:2: expected a step (Given, When, Then, And, But or *), found "Click the button"',
    ],
    ['a step before any scenario', 'When I press "Enter"', 'features/x.steps:1: a step before any "Scenario:"'],
    ['a step with nothing in it', 'Scenario: I do nothing', 'features/x.steps:1: "I do nothing" has no steps'],
  ])('refuses %s with the file and line', (_what, text, message) => {
    expect(() => parseReusableSteps(text, 'features/x.steps')).toThrow(message);
  });

  it('refuses a reusable step that calls itself, through others too, naming the chain', () => {
    const loop = parseReusableSteps(
      `Scenario: I tidy "<what>"\n  When I sweep "<what>"\n\nScenario: I sweep "<what>"\n  When I tidy "<what>"\n`,
      'features/loop.steps',
    );
    expect(() => compileReusableSteps(loop)).toThrow(
      'features/loop.steps:5: the reusable step "I tidy "<what>"" calls itself ("I tidy "<what>"" → "I sweep "<what>"" → "I tidy "<what>"")',
    );
  });

  it('refuses a step inside that is neither built in nor reusable, offering the closest, and a wording a built-in step already has', () => {
    const unknown = parseReusableSteps(`Scenario: I log in as "<who>"\n  When I tick "<who>"\n`, 'features/login.steps');
    expect(() => compileReusableSteps(unknown)).toThrow(
      'features/login.steps:2: "I tick "<who>"" is neither a built-in step nor a reusable one (a reusable step is made of those). Did you mean: I check "<who>"',
    );
    const clash = parseReusableSteps(`Scenario: I click "<what>"\n  When I press "Enter"\n`, 'features/clash.steps');
    expect(() => compileReusableSteps(clash)).toThrow(
      'features/clash.steps:1: "I click "<what>"" reads like the built-in step "I click {element}"',
    );
  });
});

describe('running reusable steps', () => {
  const run = (baseUrl: string, steps: string) =>
    runTodoWorkspace(
      baseUrl,
      {
        'todos.feature': `Feature: Todos by reusable steps\n\n  Scenario: Two todos\n    Given I open "index.html"\n    When I add the todos "buy some cheese" and "feed the cat"\n    Then the "todo" items should be:\n      | buy some cheese |\n      | feed the cat    |\n`,
      },
      { config: { screenshots: 'off', commandTimeoutMs: 1_500 }, files: { 'features/steps/todos.steps': steps } },
    );

  it('runs a scenario written with them on TodoMVC, each inner step a command of the step, and fails where Enter adds twice', async () => {
    const served = await startTodoMvc();
    const broken = await startTodoMvc(mutation('add-twice'));
    try {
      const { code, report, io } = await run(served.urls.vanillajs, TODO_STEPS);
      expect(io.out()).toContain('1 scenario: 1 passed');
      expect(code).toBe(0);
      const step = report!.testCases[0]!.steps.find((each) => each.text.startsWith('I add the todos'))!;
      expect(step.commands.map((command) => command.type)).toEqual(['fill_element', 'press_key', 'fill_element', 'press_key']);
      const onBroken = await run(broken.urls.vanillajs, TODO_STEPS);
      expect(onBroken.code).toBe(1);
      expect(onBroken.report!.testCases[0]!.result.message).toContain(
        'The "todo" items are "buy some cheese", "buy some cheese", "feed the cat", "feed the cat"',
      );
    } finally {
      await Promise.all([served.app.close(), broken.app.close()]);
    }
  }, 120_000);

  it('stops a run whose reusable steps call themselves, with the file and line, before any scenario runs', async () => {
    const served = await startTodoMvc();
    try {
      const looping = `${TODO_STEPS}\n  Scenario: I add nothing "<x>"\n    When I add nothing "<x>"\n`;
      const { code, io } = await run(served.urls.vanillajs, looping);
      expect(code).not.toBe(0);
      expect(io.err()).toBe(
        'rehearse: features/steps/todos.steps:13: the reusable step "I add nothing "<x>"" calls itself ("I add nothing "<x>"" → "I add nothing "<x>"")\n',
      );
      // The command line was right: no usage text buries the sentence.
      expect(code).toBe(2);
    } finally {
      await served.app.close();
    }
  }, 60_000);
});
