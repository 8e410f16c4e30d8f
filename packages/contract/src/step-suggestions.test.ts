import { BUILT_IN_STEP_PATTERNS } from './builtin-steps.js';
import { describe, expect, it } from 'vitest';
import { suggestSteps } from './step-suggestions.js';

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
