import { BUILT_IN_STEPS, builtInStepRegExp, type RunReport, type TestCase } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTodoWorkspace, startTodoApp, TODO_FAILURES_FEATURE, TODO_LIST_FEATURE, TODO_TOOLS_FEATURE } from '../testing/todo-suite.js';

let todo: { app: FastifyInstance; v1: string; v2: string };

beforeAll(async () => {
  todo = await startTodoApp();
});

afterAll(async () => {
  await todo?.app.close();
});

/** Runs `rehearse run` in-process on a workspace with these features against `baseUrl` (no trace: these tests read steps and outcomes, and a trace is a quarter of a scenario's CPU). */
async function run(baseUrl: string, features: Record<string, string>, config: Record<string, unknown> = {}) {
  const { code, io, report } = await runTodoWorkspace(baseUrl, features, {
    config: { screenshots: 'on-failure', trace: 'off', ...config },
  });
  return { code, io, report: report! };
}

/** The step lines of a feature text (Given/When/Then/And/But), without their keyword. */
const stepLines = (feature: string) =>
  feature
    .split('\n')
    .map((line) => /^\s*(?:Given|When|Then|And|But) (.*)$/.exec(line)?.[1])
    .filter((text): text is string => text !== undefined);

const failure = (testCase: TestCase) => testCase.steps.find((step) => step.result.status === 'FAILED');

describe('the todo suite, written only with built-in steps', () => {
  const suite = { 'list.feature': TODO_LIST_FEATURE, 'tools.feature': TODO_TOOLS_FEATURE };
  const lines = [...stepLines(TODO_LIST_FEATURE), ...stepLines(TODO_TOOLS_FEATURE)];

  it('has at least 25 scenarios and uses every step of the catalogue, and nothing else', () => {
    const scenarios = (TODO_LIST_FEATURE + TODO_TOOLS_FEATURE).match(/^\s*Scenario:/gm) ?? [];
    expect(scenarios.length).toBeGreaterThanOrEqual(25);
    const expressions = BUILT_IN_STEPS.map((step) => ({ id: step.id, re: builtInStepRegExp(step.pattern) }));
    const unmatched = lines.filter((line) => !expressions.some(({ re }) => re.test(line)));
    expect(unmatched).toEqual([]);
    const unused = expressions.filter(({ re }) => !lines.some((line) => re.test(line))).map(({ id }) => id);
    expect(unused).toEqual([]);
  });

  it('passes every scenario on version 1 with `rehearse run`', async () => {
    const { code, io, report } = await run(todo.v1, suite);
    const failed = report.testCases.filter((testCase) => testCase.result.status !== 'PASSED');
    expect(failed.map((testCase) => `${testCase.scenarioName}: ${failure(testCase)?.text} → ${testCase.result.message}`)).toEqual([]);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(report.testCases.length).toBeGreaterThanOrEqual(25);
    // The step that ticks a row by its text found the checkbox beside the label, not the label.
    const byText = report.testCases.find(
      (testCase) => testCase.scenarioName === 'Checking a todo by its text ticks the checkbox of its own row',
    )!;
    const check = byText.steps.flatMap((step) => step.commands).find((command) => command.type === 'check_element')!;
    expect(check.locatorLog?.find((line) => line.endsWith('used'))).toMatch(/^css=xpath=.*: 1 visible match, used$/);
  }, 240_000);
});

describe('built-in steps that must fail, and say why', () => {
  let report: RunReport;
  let code: number;

  beforeAll(async () => {
    ({ report, code } = await run(todo.v1, { 'failures.feature': TODO_FAILURES_FEATURE }, { commandTimeoutMs: 1_000 }));
  }, 120_000);

  const message = (name: string) => {
    const testCase = report.testCases.find((candidate) => candidate.scenarioName === name);
    if (!testCase) throw new Error(`no scenario "${name}"`);
    expect(testCase.result.status).toBe('FAILED');
    return testCase.result.message ?? '';
  };

  it('fails the run', () => {
    expect(code).toBe(1);
    expect(report.testCases.every((testCase) => testCase.result.status === 'FAILED')).toBe(true);
  });

  it('refuses to tick one of two rows with the same text, and says it saw two', () => {
    const text = message('Two rows say the same: the check refuses to guess');
    expect(text).toMatch(
      /^2 visible elements match "feed the cat" \(css=xpath=.{0,60}…\): 1\. <input> in <li> 1 of 2 "feed the cat"; 2\. <input> in <li> 2 of 2 "feed the cat"\./,
    );
    expect(text).toMatch(/css=xpath=[^;]*: 2 visible matches/);
  });

  it('says what a name without a checkbox beside it is', () => {
    expect(message('A text with no checkbox beside it')).toContain(
      'The page shows "Double-click to edit a todo" on one element: <p> (the step needs one checkbox, radio button or switch named by these words or sitting beside them)',
    );
  });

  it('a failing checked assertion says what it found', () => {
    expect(message('A failing checked assertion says what it found')).toContain('"feed the cat" should be checked but is not checked');
  });

  it('fails to open a page that answers 404', () => {
    expect(message('Opening a missing page fails')).toMatch(
      /Opening http:\/\/127\.0\.0\.1:\d+\/todo-app\/no-such-page\.html answered HTTP 404 Not Found/,
    );
  });

  it('a whole-text check fails on a longer text, and says the whole text', () => {
    expect(message('A whole-text check is not a substring check')).toContain(
      '"feed the cat" shows "feed the cat", expected it to be "feed the"',
    );
  });

  it('a class the row must not have fails, naming the classes it has', () => {
    expect(message('A class the row must not have')).toContain('should not have the class "completed" but has the class "completed"');
  });

  it('a missing storage item says it does not exist', () => {
    expect(message('A storage item that is not there')).toContain(
      'The local storage item "nothing-here" does not exist; expected it to be "x"',
    );
  });

  it('a wrong count lists what it counted', () => {
    expect(message('A wrong count says what it counted')).toContain('Found 2 "todo" items, expected 3 ("feed the cat", "feed the cat")');
  });
});
