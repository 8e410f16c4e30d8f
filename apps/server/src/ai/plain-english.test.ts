import { describe, expect, it } from 'vitest';
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
      'When I fill "Email" with "dana@example.com"',
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
    expect(steps('log in as {{user}}')).toEqual(['When I fill "Email" with "{{user}}"', 'And I fill "Password" with "{{password}}"', 'And I click "Sign in"']);
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
