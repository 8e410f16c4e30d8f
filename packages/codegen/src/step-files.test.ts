import { BUILT_IN_STEPS } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { StepMatcher } from './step-files.js';

const matcher = new StepMatcher(BUILT_IN_STEPS.map((step) => ({ pattern: step.pattern, isRegex: false })));
const idOf = (text: string) => BUILT_IN_STEPS[matcher.match(text)]?.id;

describe('StepMatcher on the built-in catalogue', () => {
  it('matches every catalogue example to its own step', () => {
    for (const step of BUILT_IN_STEPS) {
      const text = step.example.split('\n')[0]!.trim();
      expect(idOf(text), text).toBe(step.id);
    }
  });

  it('reads {element} with an ordinal and a scope, as the runner does', () => {
    expect(idOf('I check "feed the cat"')).toBe('check');
    expect(idOf('I check "checkbox" in the row containing "feed the cat"')).toBe('check');
    expect(idOf('the 2nd "Delete" should be visible')).toBe('visible');
    expect(idOf('"Save" in the dialog containing "Rename" should be enabled')).toBe('enabled');
    expect(idOf('I should see 1 "todo" item')).toBe('count');
  });

  it('does not match steps the catalogue does not have', () => {
    expect(idOf('I check feed the cat')).toBeUndefined();
    expect(idOf('I check "a" in the basement containing "b"')).toBeUndefined();
  });

  it("leaves the recorder's generated step texts to their own definitions (no ambiguous match)", () => {
    for (const text of [
      'I press "Enter" in "Email"',
      'I click on "Sign in" button',
      'I fill in "Email" with "x"',
      'I select "Slate" in "Colour"',
      'I check "Remember me" checkbox',
      '"Total" element should be visible',
      '"Email" field should have value "x"',
      'I drag "Buy milk" onto "Done"',
      'I double-click on "feed the cat" element',
      'I hover over "feed the cat" item',
    ]) {
      expect(idOf(text), text).toBeUndefined();
    }
  });
});
