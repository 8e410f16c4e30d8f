import { describe, expect, it } from 'vitest';
import { BUILT_IN_STEP_PATTERNS, builtInStepRegExp } from '@rehearse/contract';
import { openedAddress, splitClauses, stepValue, translateFlow, withKeywords } from './plain-english.js';

const steps = (...flow: string[]) => withKeywords(translateFlow(flow).steps);

describe('plain-English translator', () => {
  it('reads back the address an open step was written with, escapes undone, and nothing from other steps', () => {
    const address = 'https://shop.test/search?q="lamp"&path=C:\\temp';
    expect(openedAddress(`I open ${stepValue(address)}`)).toBe(address);
    expect(openedAddress('I open "/"')).toBe('/');
    expect(openedAddress('I click "I open"')).toBeUndefined();
    expect(openedAddress('I open "a" and "b"')).toBeUndefined();
  });

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
    // Held out (session 53): "the page" named a file "the.html".
    ['visit the page', 'Given I open "/"'],
    ['go to this web page', 'Given I open "/"'],
    ['open the login page', 'Given I open "login.html"'],
    ['enter "read book" as a new todo', 'When I fill the 1st "textbox" with "read book"\nAnd I press "Enter"'],
    ['type "water plants" into the new todo field', 'When I fill the 1st "textbox" with "water plants"'],
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
    // A line that is two steps expects both, one per line.
    expect(withKeywords(result.steps)).toEqual(expected.split('\n'));
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

describe('plain-English translator on lists of items (issue 44)', () => {
  it('reads the issue’s todo flow, written without the Steps reference’s words', () => {
    const result = translateFlow([
      'Add a todo "buy milk"',
      'Mark "buy milk" as completed',
      'Click the Active filter',
      'The list should show only "b"',
      '"one" should no longer be visible',
      'Double-click "walk dog" to edit it',
    ]);
    expect(result.unmatched).toEqual([]);
    expect(withKeywords(result.steps)).toEqual([
      'When I fill the 1st "textbox" with "buy milk"',
      'And I press "Enter"',
      'And I check "checkbox" in the item containing "buy milk"',
      'And I click "Active"',
      'Then I should see 1 "todo" item',
      'And the 1st "list item" should have the text "b"',
      'And I should not see "one"',
      'When I double-click "walk dog"',
    ]);
  });

  it('reads several items on one line, order, counters and emptiness', () => {
    expect(
      steps('add todos a, b and c', 'the list shows a, b, c in order', 'the counter says 3 items left', 'there should be no todos'),
    ).toEqual([
      'When I fill the 1st "textbox" with "a"',
      'And I press "Enter"',
      'And I fill the 1st "textbox" with "b"',
      'And I press "Enter"',
      'And I fill the 1st "textbox" with "c"',
      'And I press "Enter"',
      'Then I should see 3 "todo" items',
      'And the 1st "list item" should have the text "a"',
      'And the 2nd "list item" should have the text "b"',
      'And the 3rd "list item" should have the text "c"',
      'And I should see "3 items left"',
      'And I should see 0 "todo" items',
    ]);
  });

  it('follows "it" and an open edit box through the flow', () => {
    expect(
      steps(
        'add a todo "walk dog" and mark it as done',
        'it should be checked',
        'double-click it',
        'change the text to "walk the dog" and press Enter',
        'delete it',
      ),
    ).toEqual([
      'When I fill the 1st "textbox" with "walk dog"',
      'And I press "Enter"',
      'And I check "checkbox" in the item containing "walk dog"',
      'Then "walk dog" should be checked',
      'When I double-click "walk dog"',
      'And I fill "textbox" in the item containing "walk dog" with "walk the dog"',
      'And I press "Enter"',
      'And I hover over the item containing "walk the dog"',
      'And I click "button" in the item containing "walk the dog"',
    ]);
  });

  it.each([
    ['tick off buy milk', 'When I check "checkbox" in the item containing "buy milk"'],
    ['mark "buy milk" as not done', 'When I uncheck "checkbox" in the item containing "buy milk"'],
    ['remove the todo old', 'When I hover over the item containing "old"'],
    ['show only active todos', 'When I click "Active"'],
    ['filter by completed', 'When I click "Completed"'],
    ['clear completed', 'When I click "Clear completed"'],
    ['remove all completed todos', 'When I click "Clear completed"'],
    ['mark all as complete', 'When I check "Mark all as complete"'],
    ['the Completed filter should be selected', 'Then "Completed" should have the class "selected"'],
    ['mow lawn should be active', 'Then "checkbox" in the item containing "mow lawn" should not be checked'],
    ['"read a book" should not be completed', 'Then "checkbox" in the item containing "read a book" should not be checked'],
    ['the list should be empty', 'Then I should see 0 "todo" items'],
    ['the new todo box should be empty', 'Then the 1st "textbox" should be empty'],
    ['rename "buy bred" to "buy bread"', 'When I double-click "buy bred"'],
    ['untick the checkbox next to "stretch"', 'When I uncheck "checkbox" in the item containing "stretch"'],
    ['delete the todo "alpha task"', 'When I hover over the item containing "alpha task"'],
    ['add a todo: "reply to emails"', 'When I fill the 1st "textbox" with "reply to emails"'],
    ['mark "dust" as done too', 'When I check "checkbox" in the item containing "dust"'],
    ['there is 1 todo left', 'Then I should see 1 "todo" item'],
    ['no todos should be shown', 'Then I should see 0 "todo" items'],
    ['I should see "pick up parcel" in the list', 'Then I should see "pick up parcel"'],
    ['look for "headlamp"', 'When I fill "Search" with "headlamp"'],
    ['add to cart', 'When I click "Add to cart"'],
  ])('reads "%s"', (line, first) => {
    const result = translateFlow([line]);
    expect(result.unmatched).toEqual([]);
    expect(withKeywords(result.steps)[0]).toBe(first);
  });

  it('keeps a field change and a cart as they were', () => {
    expect(steps('change Quantity to 2', 'add it to the cart', 'tick "I accept the terms"')).toEqual([
      'When I fill "Quantity" with "2"',
      'And I click "Add to cart"',
      'And I check "I accept the terms"',
    ]);
  });

  it('leaves "it" with nothing named before it unmatched', () => {
    expect(translateFlow(['delete it', 'the counter']).unmatched).toEqual(['delete it', 'the counter']);
    // Not a button named "its delete": whose it is was never said, so the line is asked about.
    expect(translateFlow(['click its delete button', 'press its edit button']).unmatched).toEqual([
      'click its delete button',
      'press its edit button',
    ]);
  });

  it('reads "its delete button" as the row of the item named last', () => {
    expect(steps('add "p"', 'hover over "p" and click its delete button')).toEqual([
      'When I fill the 1st "textbox" with "p"',
      'And I press "Enter"',
      'And I hover over "p"',
      'And I hover over the item containing "p"',
      'And I click "button" in the item containing "p"',
    ]);
  });
});
