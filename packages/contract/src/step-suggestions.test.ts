import { BUILT_IN_STEP_PATTERNS } from './builtin-steps.js';
import { describe, expect, it } from 'vitest';
import { stepTextProblem, suggestSteps } from './step-suggestions.js';

describe('did you mean', () => {
  it('writes out the nearest built-in step with the values the step gave', () => {
    expect(suggestSteps('I clicks on "Save"', BUILT_IN_STEP_PATTERNS)[0]).toBe('I click "Save"');
    expect(suggestSteps('I should sea "Welcome"', BUILT_IN_STEP_PATTERNS)[0]).toBe('I should see "Welcome"');
    expect(suggestSteps('I fill in "Email" with "a@b.c"', BUILT_IN_STEP_PATTERNS)[0]).toBe('I fill "Email" with "a@b.c"');
    expect(suggestSteps('"feed the cat" should be ticked', BUILT_IN_STEP_PATTERNS)[0]).toBe('"feed the cat" should be checked');
  });

  it('keeps an element phrase whole', () => {
    expect(suggestSteps('I tick the 2nd "checkbox" in the row containing "feed the cat"', BUILT_IN_STEP_PATTERNS)[0]).toBe(
      'I check the 2nd "checkbox" in the row containing "feed the cat"',
    );
  });

  it('counts with the plural the number asks for', () => {
    expect(suggestSteps('I should see 2 "todo" entries', BUILT_IN_STEP_PATTERNS)[0]).toBe('I should see 2 "todo" items');
    expect(suggestSteps('I should see 1 "todo" entry', BUILT_IN_STEP_PATTERNS)[0]).toBe('I should see 1 "todo" item');
  });

  it("offers the project's own steps too", () => {
    expect(suggestSteps('I add the product "Mug" to my cart', ['I add {string} to the cart', ...BUILT_IN_STEP_PATTERNS])[0]).toBe(
      'I add "Mug" to the cart',
    );
  });

  it('offers nothing for a step unlike every pattern, or one needing other values', () => {
    expect(suggestSteps('the moon is full', BUILT_IN_STEP_PATTERNS)).toEqual([]);
    expect(suggestSteps('I set the session storage key "theme" to "dark"', BUILT_IN_STEP_PATTERNS)[0]).toBe(
      'I set the session storage item "theme" to "dark"',
    );
    expect(suggestSteps('"feed the cat" should have class "completed"', BUILT_IN_STEP_PATTERNS)[0]).toBe(
      '"feed the cat" should have the class "completed"',
    );
    expect(suggestSteps('I click', BUILT_IN_STEP_PATTERNS)).toEqual([]);
  });
});

describe('a step that cannot be read as a step', () => {
  it('offers the step with its quote closed, values with "/" kept whole', () => {
    expect(suggestSteps('I open "/', BUILT_IN_STEP_PATTERNS)[0]).toBe('I open "/"');
    expect(suggestSteps('I opens "a/b (c)"', BUILT_IN_STEP_PATTERNS)[0]).toBe('I open "a/b (c)"');
  });

  it('says a quote was never closed, and where', () => {
    expect(stepTextProblem('I open "index.html')).toBe('The quote before "index.html" is never closed: end the value with "');
    expect(stepTextProblem('I fill "Name" with "Ada')).toBe('The quote before "Ada" is never closed: end the value with "');
    // An escaped quote inside a value is not a quote of the step.
    expect(stepTextProblem('I should see "say \\"hi\\""')).toBeUndefined();
  });

  it('names a container no scope can name, and the ones it can', () => {
    expect(stepTextProblem('I click "Save" in the widget containing "x"')).toBe(
      '"widget" is not a container a step can name: say "in the item containing "…"" with one of item, row, list item, card, section, form, dialog, list, table, region, group',
    );
    expect(stepTextProblem('the panel containing "Cart" should be visible')).toMatch(/^"panel" is not a container/);
    expect(stepTextProblem('I click "Save" in the list item containing "x"')).toBeUndefined();
    // "with" after a field is its value, not a scope.
    expect(stepTextProblem('I fill the search box with "x"')).toBeUndefined();
  });

  it('says a kind word after an element is not needed', () => {
    expect(stepTextProblem('I click the "Save" widget')).toBe(
      'Built-in steps need no kind word after an element ("widget" after "Save"): name it by its words alone, or by its markup as "css=…" or "xpath=…"',
    );
    expect(stepTextProblem('"Save" gadget should be visible')).toMatch(/"gadget" after "Save"/);
    expect(stepTextProblem('the "todo" items should be:')).toBeUndefined();
    expect(stepTextProblem('I clicks on "Save"')).toBeUndefined();
  });
});
