import { describe, expect, it } from 'vitest';
import { BUILT_IN_STEP_PATTERNS, builtInStepRegExp } from '@rehearse/contract';
import { splitClauses, translateFlow, withKeywords } from './plain-english.js';

const steps = (...flow: string[]) => withKeywords(translateFlow(flow).steps);

describe('plain-English translator', () => {
  it('translates the issue example into built-in steps', () => {
    const result = translateFlow(["open the shop, search for 'lamp', add the first result to the cart, check out as {{user}}"]);
    expect(withKeywords(result.steps)).toEqual([
      'Given I open "/"',
      'When I fill "Search" with "lamp"',
      'And I press "Enter"',
      'And I click "Add to cart"',
      'And I click "Checkout"',
      'And I fill "Email" with "{{user}}"',
    ]);
    expect(result.unmatched).toEqual([]);
  });

  it('reads the fixed grammar and its paraphrases', () => {
    expect(
      steps(
        'go to login.html',
        'type "dana@example.com" into the Email field',
        'enter {{password}} in Password',
        'click the "Sign in" button',
        'I should see "Welcome back"',
        "don't see 'Sign in failed'",
        'the url should contain "account"',
        'wait 2 seconds',
        'choose "Slate" from the Colour dropdown',
        'tick "I accept the terms"',
        'hit enter',
        'wait for "Order placed"',
      ),
    ).toEqual([
      'Given I open "login.html"',
      'When I type "dana@example.com" into "Email"',
      'And I fill "Password" with "{{password}}"',
      'And I click "Sign in"',
      'Then I should see "Welcome back"',
      'And I should not see "Sign in failed"',
      'And the URL should contain "account"',
      'When I wait for "2000"',
      'And I select "Slate" from "Colour"',
      'And I check "I accept the terms"',
      'And I press "Enter"',
      'And I wait for "Order placed"',
    ]);
  });

  it('keeps lines already written as built-in steps, with or without a keyword', () => {
    expect(steps('When I fill "Email" with "x"', 'I should see "Hi"')).toEqual(['When I fill "Email" with "x"', 'Then I should see "Hi"']);
  });

  it('signs in as a user with the test data password', () => {
    expect(steps('log in as {{user}}')).toEqual([
      'When I fill "Email" with "{{user}}"',
      'And I fill "Password" with "{{password}}"',
      'And I click "Sign in"',
    ]);
  });

  it('reports what it cannot read instead of guessing', () => {
    const result = translateFlow(['open the shop and then dance a little jig', 'click the']);
    expect(withKeywords(result.steps)).toEqual(['Given I open "/"']);
    expect(result.unmatched).toEqual(['dance a little jig', 'click the']);
  });

  it('does not split inside quotes or at an apostrophe', () => {
    expect(splitClauses(`see "Hello, world" and then click 'Save, then close', don't see "x"`)).toEqual([
      'see "Hello, world"',
      "click 'Save, then close'",
      `don't see "x"`,
    ]);
  });
});

describe('plain-English translator on the whole step library', () => {
  const CASES: Array<[line: string, step: string]> = [
    ['Open the todo app', 'Given I open "/"'],
    ['press "Enter"', 'When I press "Enter"'],
    ['hit return', 'When I press "Enter"'],
    ['reload the page', 'When I reload the page'],
    ['refresh', 'When I reload the page'],
    ['go back', 'When I go back'],
    ['click the browser back button', 'When I go back'],
    ['go forward one page', 'When I go forward'],
    ['switch to the new tab', 'When I switch to the new tab'],
    ['accept the confirmation', 'When I accept the next dialog'],
    ['dismiss the alert', 'When I dismiss the next dialog'],
    ['double-click "feed the cat"', 'When I double-click "feed the cat"'],
    ['double click on the todo "buy milk"', 'When I double-click "buy milk"'],
    ["right-click 'Right-click me'", 'When I right-click "Right-click me"'],
    ['hover over "feed the cat"', 'When I hover over "feed the cat"'],
    ['scroll down to "End of the tools"', 'When I scroll to "End of the tools"'],
    ['drag "Buy milk" onto "Done"', 'When I drag "Buy milk" to "Done"'],
    ['upload "fixtures/todos.txt" to "Import todos"', 'When I upload "fixtures/todos.txt" to "Import todos"'],
    ['clear the "Shortcut" field', 'When I clear "Shortcut"'],
    ['untick "feed the cat"', 'When I uncheck "feed the cat"'],
    ['uncheck the "Mark all as complete" checkbox', 'When I uncheck "Mark all as complete"'],
    ['I should see 2 "todo" items', 'Then I should see 2 "todo" items'],
    ['there should be 1 todo item', 'Then I should see 1 "todo" item'],
    ['"feed the cat" should be checked', 'Then "feed the cat" should be checked'],
    ['"buy some cheese" is not checked', 'Then "buy some cheese" should not be checked'],
    ['the "Delete everything" button is disabled', 'Then "Delete everything" should be disabled'],
    ['"Clear completed" should be hidden', 'Then "Clear completed" should be hidden'],
    ['the "What needs to be done?" field is empty', 'Then "What needs to be done?" should be empty'],
    ['"Shortcut" should have the value "ctrl"', 'Then "Shortcut" should have the value "ctrl"'],
    ['the title should be "Todos · Rehearse todo app"', 'Then the title should be "Todos · Rehearse todo app"'],
    ['the page title contains "Todos"', 'Then the title should contain "Todos"'],
    ['the URL should be "/#/completed"', 'Then the URL should be "/#/completed"'],
    ['I check "checkbox" in the row containing "feed the cat"', 'When I check "checkbox" in the row containing "feed the cat"'],
  ];

  it.each(CASES)('reads "%s"', (line, expected) => {
    const result = translateFlow([line]);
    expect(result.unmatched).toEqual([]);
    expect(withKeywords(result.steps)).toEqual([expected]);
  });

  it('writes only steps of the built-in catalogue', () => {
    const patterns = BUILT_IN_STEP_PATTERNS.map(builtInStepRegExp);
    const written = translateFlow(CASES.map(([line]) => line)).steps.map((step) => step.text);
    expect(written.filter((text) => !patterns.some((re) => re.test(text)))).toEqual([]);
  });

  it('does not pass a table step through from one line of prose', () => {
    expect(translateFlow(['the "todo" items should be:']).unmatched).toEqual(['the "todo" items should be:']);
  });
});
