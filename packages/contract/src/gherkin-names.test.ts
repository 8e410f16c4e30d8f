import { describe, expect, it } from 'vitest';
import { charactersNotAllowed, GherkinMessages as M } from './gherkin-messages.js';
import {
  featureDisplayName,
  uniqueFeatureFileName,
  uniqueScenarioName,
  validateFeatureRename,
  validateNewFeatureName,
  validateScenarioRename,
} from './gherkin-names.js';

describe('name messages', () => {
  it('keeps the spec wording', () => {
    expect(M.scenarioNameTooLong).toBe('Scenario name cannot exceed 80 characters.');
    expect(M.scenarioNameTaken).toBe('Another scenario exists with the given name.');
    expect(M.sameAsOldName).toBe('New name cannot be same as the old name.');
    expect(M.featureNameTaken).toBe('Another feature exists with the given name.');
    expect(M.featureRenameClash).toBe('Feature with the same name already exists');
    expect(M.featureNameTooLong).toBe('Feature name cannot be more than 80 characters.');
    expect(M.featureAlreadyExists).toBe('A feature with this name already exists.');
    expect(charactersNotAllowed(['!', '?'])).toBe('Following characters are not allowed: ! ?');
  });
});

describe('validateScenarioRename', () => {
  const existing = ['Login', 'Logout', 'Sign up (new)'];
  const error = (name: string, old = 'Login') => validateScenarioRename(name, old, existing).error;

  it('accepts letters of any script, digits, space, underscore, hyphen and parentheses', () => {
    expect(validateScenarioRename('Log in_2 - retry (slow)', 'Login', existing)).toEqual({ name: 'Log in_2 - retry (slow)', error: null });
    expect(error('Connexion réussie')).toBeNull();
    expect(error('ログイン 2')).toBeNull();
  });

  it('refuses a blank name and a leading space', () => {
    expect(error('')).toBe('Scenario name cannot be empty.');
    expect(error('   ')).toBe('Scenario name cannot be empty.');
    expect(error(' Login again')).toBe('Scenario name cannot start with a space.');
  });

  it('lists each forbidden character once, in order of appearance', () => {
    expect(error('Pay: £5, now!')).toBe('Following characters are not allowed: : £ , !');
    expect(error('a.b.c')).toBe('Following characters are not allowed: .');
    expect(error('tab\there')).toBe('Following characters are not allowed: \t');
  });

  it('refuses the old name, another scenario name in any case, and more than 80 characters', () => {
    expect(error('Login')).toBe('New name cannot be same as the old name.');
    expect(error('Login  ')).toBe('New name cannot be same as the old name.');
    expect(error('logout')).toBe('Another scenario exists with the given name.');
    expect(error('LOGIN', 'Logout')).toBe('Another scenario exists with the given name.');
    expect(error('login')).toBeNull();
    expect(error('x'.repeat(80))).toBeNull();
    expect(error('x'.repeat(81))).toBe('Scenario name cannot exceed 80 characters.');
    expect(error('é'.repeat(80))).toBeNull();
  });

  it('still reports a duplicate that already exists twice in the file', () => {
    expect(validateScenarioRename('Same', 'Old', ['Old', 'Same', 'Same']).error).toBe('Another scenario exists with the given name.');
    expect(validateScenarioRename('New', 'Dup', ['Dup', 'Dup']).error).toBeNull();
    expect(validateScenarioRename('dup', 'Dup', ['Dup', 'Dup']).error).toBe('Another scenario exists with the given name.');
  });
});

describe('validateFeatureRename', () => {
  const existing = ['checkout.feature', 'Login.feature', 'search'];
  const error = (name: string, old = 'checkout.feature') => validateFeatureRename(name, old, existing).error;

  it('accepts letters, digits, space, underscore and hyphen, trimmed', () => {
    expect(validateFeatureRename('  Check out_2-fast ', 'checkout', existing)).toEqual({ name: 'Check out_2-fast', error: null });
    expect(error('Paiement')).toBeNull();
  });

  it('refuses blank names, parentheses and other characters', () => {
    expect(error(' ')).toBe('Feature name cannot be empty.');
    expect(error('Checkout (v2)')).toBe('Following characters are not allowed: ( )');
    expect(error('a/b.feature')).toBe('Following characters are not allowed: / .');
  });

  it('refuses the old name, another feature in any case, and more than 80 characters', () => {
    expect(error('checkout')).toBe('New name cannot be same as the old name.');
    expect(error('Checkout')).toBeNull();
    expect(error('login')).toBe('Another feature exists with the given name.');
    expect(error('SEARCH')).toBe('Another feature exists with the given name.');
    expect(error('f'.repeat(80))).toBeNull();
    expect(error('f'.repeat(81))).toBe('Feature name cannot be more than 80 characters.');
  });
});

describe('validateNewFeatureName', () => {
  it('applies the feature character set, the 80 limit and case-insensitive uniqueness', () => {
    const existing = ['Checkout.feature', 'login'];
    expect(validateNewFeatureName(' Cart ', existing)).toEqual({ name: 'Cart', error: null });
    expect(validateNewFeatureName('', existing).error).toBe('Feature name cannot be empty.');
    expect(validateNewFeatureName('Cart!', existing).error).toBe('Following characters are not allowed: !');
    expect(validateNewFeatureName('c'.repeat(81), existing).error).toBe('Feature name cannot be more than 80 characters.');
    expect(validateNewFeatureName('checkout', existing).error).toBe('A feature with this name already exists.');
    expect(validateNewFeatureName('LOGIN', existing).error).toBe('A feature with this name already exists.');
  });
});

describe('unique names', () => {
  it('numbers clashing scenario names and names empty ones Untitled', () => {
    expect(uniqueScenarioName('Login', ['Logout'])).toBe('Login');
    expect(uniqueScenarioName('Login', ['login'])).toBe('Login (1)');
    expect(uniqueScenarioName('Login', ['Login', 'Login (1)', 'LOGIN (3)'])).toBe('Login (2)');
    expect(uniqueScenarioName('Login (1)', ['Login', 'Login (1)'])).toBe('Login (2)');
    expect(uniqueScenarioName('  ', [])).toBe('Untitled');
    expect(uniqueScenarioName('', ['Untitled'])).toBe('Untitled (1)');
  });

  it('stays within 80 characters', () => {
    const long = 'x'.repeat(80);
    const name = uniqueScenarioName(long, [long]);
    expect(name).toBe(`${'x'.repeat(76)} (1)`);
    expect(Array.from(name)).toHaveLength(80);
  });

  it('does the same for feature file names, with or without the extension', () => {
    expect(uniqueFeatureFileName('Checkout', ['login.feature'])).toBe('Checkout.feature');
    expect(uniqueFeatureFileName('Checkout.feature', ['checkout.feature'])).toBe('Checkout (1).feature');
    expect(uniqueFeatureFileName('checkout', ['Checkout.feature', 'checkout (1).feature'])).toBe('checkout (2).feature');
    expect(uniqueFeatureFileName('', ['untitled.feature'])).toBe('Untitled (1).feature');
  });

  it('shows a feature file without its extension', () => {
    expect(featureDisplayName('checkout.feature')).toBe('checkout');
    expect(featureDisplayName('Checkout.FEATURE')).toBe('Checkout');
    expect(featureDisplayName('notes.txt')).toBe('notes.txt');
  });
});
