import { describe, expect, it } from 'vitest';
import { parseFeature, type ParsedFeature } from './feature-parser.js';
import {
  appendScenario,
  newFeatureText,
  removeScenario,
  renameFeature,
  renameScenario,
  replaceScenario,
  setScenarioTags,
  validateScenarioText,
  type EditResult,
} from './feature-splice.js';

function text(result: EditResult): string {
  if (!result.ok) throw new Error(`${result.problem}: ${result.message}`);
  return result.text;
}

function refusal(result: EditResult) {
  if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
  return result;
}

function feature(source: string): ParsedFeature {
  const result = parseFeature(source);
  if (!result.ok || !result.feature) throw new Error('not a feature');
  return result.feature;
}

const CART = [
  'Feature: Cart', //                     1
  '', //                                  2
  '  Scenario: Add', //                   3
  '    Given an empty cart', //           4
  '    When I add a mug', //              5
  '', //                                  6
  '  # about removing', //                7
  '  @slow', //                           8
  '  Scenario: Remove', //                9
  '    Given a cart with a mug', //       10
  '    When I remove it', //              11
  '', //                                  12
  '  Scenario: Empty', //                 13
  '    Then the cart is empty', //        14
];

describe.each([
  ['LF', '\n'],
  ['CRLF', '\r\n'],
])('splices on %s files', (_name, eol) => {
  const file = (lines: readonly string[], trailingNewline = true) => lines.join(eol) + (trailingNewline ? eol : '');
  const cart = file(CART);

  describe('replaceScenario', () => {
    it('replaces the block (its leading comment and tags included) and nothing else, in the file line endings', () => {
      const result = text(replaceScenario(cart, 1, '  Scenario: Delete\n    Given a mug\n    When I delete it'));
      expect(result).toBe(file([...CART.slice(0, 6), '  Scenario: Delete', '    Given a mug', '    When I delete it', ...CART.slice(11)]));
    });

    it('drops blank lines around the new text and accepts either line ending from the client', () => {
      const result = text(replaceScenario(cart, 0, '\r\n\r\n  Scenario: Add two\r\n    Given an empty cart\r\n\r\n'));
      expect(result).toBe(file(['Feature: Cart', '', '  Scenario: Add two', '    Given an empty cart', ...CART.slice(5)]));
    });

    it('keeps a file without a final newline without one', () => {
      const result = text(replaceScenario(file(CART, false), 2, '  Scenario: Empty\n    Then nothing is left'));
      expect(result).toBe(file([...CART.slice(0, 12), '  Scenario: Empty', '    Then nothing is left'], false));
    });

    it('replaces a Scenario Outline with several Examples, tags on Examples included', () => {
      const outline = file([
        'Feature: Prices',
        '',
        '  Scenario Outline: Show <currency>',
        '    Given prices in <currency>',
        '',
        '    @eu',
        '    Examples: Europe',
        '      | currency |',
        '      | EUR      |',
        '',
        '    Examples: Asia',
        '      | currency |',
        '      | JPY      |',
        '',
        '  Scenario: Other',
        '    Given x',
      ]);
      const parsed = feature(outline).scenarios[0]!;
      expect(parsed.range).toEqual({ start: 3, end: 13 });
      const edited = parsed.content.replace('| JPY      |', '| JPY      |\n      | CNY      |');
      const result = text(replaceScenario(outline, 0, edited));
      expect(feature(result).scenarios[0]!.examples.map((e) => [e.name, e.tags, e.rowCount])).toEqual([
        ['Europe', ['@eu'], 1],
        ['Asia', [], 2],
      ]);
      expect(result.split(eol).slice(14)).toEqual(['', '  Scenario: Other', '    Given x', '']);
    });

    it('refuses scenario text that does not parse, with lines counted in the text', () => {
      const result = refusal(replaceScenario(cart, 0, '\n\n  Scenario: X\n    Given a\n    nonsense'));
      expect(result.problem).toBe('invalid-scenario-text');
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatchObject({ line: 5, column: 5 });
      expect(result.errors[0]!.message).toMatch(/^\(5:5\): expected: .*got 'nonsense'$/);
      expect(result.message).toMatch(/^line 5: expected: /);
    });

    it('refuses a file that does not parse, and a scenario index that is not there', () => {
      const invalid = refusal(
        replaceScenario(`Feature: F${eol}  Scenario: A${eol}    Given a${eol}    | a |${eol}    | b | c |${eol}`, 0, 'Scenario: B'),
      );
      expect(invalid.problem).toBe('invalid-file');
      expect(invalid.errors.map((e) => e.message)).toEqual(['(5:5): inconsistent cell count within the table']);
      for (const index of [3, -1, 0.5]) expect(refusal(replaceScenario(cart, index, 'Scenario: B')).problem).toBe('no-such-scenario');
    });
  });

  describe('appendScenario', () => {
    it('adds the scenario after the last one, after a blank line, at the feature scenarios indentation', () => {
      const result = text(appendScenario(cart, 'Scenario: Checkout\n  Given a full cart\n  """\n  note\n  """'));
      expect(result).toBe(file([...CART, '', '  Scenario: Checkout', '    Given a full cart', '    """', '    note', '    """']));
    });

    it('keeps a missing final newline missing, and leaves a trailing comment block after the new scenario', () => {
      expect(text(appendScenario(file(CART, false), '  Scenario: Last\n    Then done'))).toBe(
        file([...CART, '', '  Scenario: Last', '    Then done'], false),
      );
      const footer = file(['Feature: F', '', '  Scenario: A', '    Given a', '', '# footer']);
      expect(text(appendScenario(footer, 'Scenario: B\n  Given b'))).toBe(
        file(['Feature: F', '', '  Scenario: A', '    Given a', '', '  Scenario: B', '    Given b', '', '# footer']),
      );
    });

    it('adds to a feature without scenarios two spaces in from the Feature keyword', () => {
      expect(text(appendScenario(file(['Feature: Empty', '  Just a description']), '@new\nScenario: First\n  Given a'))).toBe(
        file(['Feature: Empty', '  Just a description', '', '  @new', '  Scenario: First', '    Given a']),
      );
    });

    it('adds into the last Rule when the feature uses Rules, at that Rule scenarios indentation', () => {
      const rules = file([
        '@f',
        'Feature: Rules',
        '',
        '  @r1',
        '  Rule: One',
        '    Scenario: A',
        '      Given a',
        '',
        '  @r2',
        '  Rule: Two',
        '',
        '    Background:',
        '      Given b',
      ]);
      const result = text(appendScenario(rules, 'Scenario: C\n  Given c'));
      expect(result).toBe(file([...rules.split(eol).slice(0, -1), '', '    Scenario: C', '      Given c']));
      expect(feature(result).scenarios[1]).toMatchObject({ name: 'C', ruleIndex: 1, effectiveTags: ['@f', '@r2'] });
    });

    it('keeps the text as written when shifting it would move a line left of the keyword', () => {
      const result = text(appendScenario(cart, '    Scenario: Odd\n      Given a\n  """\n  left\n  """'));
      expect(result.split(eol).slice(CART.length + 1, -1)).toEqual(['    Scenario: Odd', '      Given a', '  """', '  left', '  """']);
    });

    it('checks the text in the file language and refuses a file without a Feature', () => {
      const fr = file(['#language:fr', 'Fonctionnalité: Panier', '', '  Scénario: Ajouter', '    Soit un panier']);
      expect(text(appendScenario(fr, 'Scénario: Vider\n  Quand je vide le panier'))).toBe(
        file([...fr.split(eol).slice(0, -1), '', '  Scénario: Vider', '    Quand je vide le panier']),
      );
      const english = refusal(appendScenario(fr, 'Scenario: Empty\n  When I empty it'));
      expect(english.problem).toBe('invalid-scenario-text');
      expect(english.errors.map((e) => [e.line, e.reason])).toEqual([[1, 'Only comments and tags can come before the scenario keyword.']]);
      expect(refusal(appendScenario(`# nothing${eol}`, 'Scenario: A')).problem).toBe('no-feature');
    });
  });

  describe('removeScenario', () => {
    it('removes a middle scenario with its leading comment and the blank line after it', () => {
      expect(text(removeScenario(cart, 1))).toBe(file([...CART.slice(0, 6), ...CART.slice(12)]));
    });

    it('removes the first scenario with the blank line after it', () => {
      expect(text(removeScenario(cart, 0))).toBe(file(['Feature: Cart', '', ...CART.slice(6)]));
    });

    it('removes the last scenario with the blank line before it', () => {
      expect(text(removeScenario(cart, 2))).toBe(file(CART.slice(0, 11)));
      expect(text(removeScenario(file(CART, false), 2))).toBe(file(CART.slice(0, 11), false));
    });

    it('leaves a comment that stands between blank lines', () => {
      const noted = file(['Feature: F', '', '  Scenario: A', '    Given a', '', '  # note', '', '  Scenario: B', '    Given b']);
      expect(text(removeScenario(noted, 1))).toBe(file(['Feature: F', '', '  Scenario: A', '    Given a', '', '  # note']));
      expect(text(removeScenario(noted, 0))).toBe(file(['Feature: F', '', '  # note', '', '  Scenario: B', '    Given b']));
    });

    it('removes the only scenario, and a scenario inside a Rule', () => {
      expect(text(removeScenario(file(['Feature: F', '', '  Scenario: A', '    Given a'], false), 0))).toBe('Feature: F');
      const rules = file([
        'Feature: R',
        '  Rule: One',
        '    Scenario: A',
        '      Given a',
        '',
        '    Scenario: B',
        '      Given b',
        '',
        '  Rule: Two',
        '    Scenario: C',
        '      Given c',
      ]);
      const result = text(removeScenario(rules, 1));
      expect(result).toBe(
        file(['Feature: R', '  Rule: One', '    Scenario: A', '      Given a', '', '  Rule: Two', '    Scenario: C', '      Given c']),
      );
      expect(feature(result).scenarios.map((s) => [s.name, s.ruleIndex])).toEqual([
        ['A', 0],
        ['C', 1],
      ]);
    });
  });

  describe('renameScenario', () => {
    it('rewrites only the name on the keyword line', () => {
      const result = text(renameScenario(cart, 1, 'Remove one'));
      expect(result).toBe(file([...CART.slice(0, 8), '  Scenario: Remove one', ...CART.slice(9)]));
    });

    it('keeps the keyword as written, the spacing around the name, and trims the new name', () => {
      const odd = file([
        'Feature: F',
        '\tExample:   old name  ',
        '\t  Given a',
        '  Scenario Outline:',
        '    Given <x>',
        '    Examples:',
        '      | x |',
        '      | 1 |',
      ]);
      const first = text(renameScenario(odd, 0, '  new name '));
      expect(first.split(eol)[1]).toBe('\tExample:   new name  ');
      const second = text(renameScenario(first, 1, 'named outline'));
      expect(second.split(eol).slice(3)).toEqual([
        '  Scenario Outline: named outline',
        '    Given <x>',
        '    Examples:',
        '      | x |',
        '      | 1 |',
        '',
      ]);
      expect(refusal(renameScenario(odd, 0, 'two\nlines')).problem).toBe('invalid-name');
    });

    it('keeps localized keywords', () => {
      const fr = file([
        '# language: fr',
        'Fonctionnalité: Panier',
        '  Plan du scénario: Payer',
        '    Soit <x>',
        '    Exemples:',
        '      | x |',
        '      | 1 |',
      ]);
      expect(text(renameScenario(fr, 0, 'Régler')).split(eol)[2]).toBe('  Plan du scénario: Régler');
    });
  });

  describe('setScenarioTags', () => {
    it('inserts a tag line with the keyword indentation when the scenario has none', () => {
      expect(text(setScenarioTags(cart, 0, ['smoke', '@fast']))).toBe(file(['Feature: Cart', '', '  @smoke @fast', ...CART.slice(2)]));
      const tabs = file(['Feature: T', '\tScenario: A', '\t\tGiven a']);
      expect(text(setScenarioTags(tabs, 0, ['@t']))).toBe(file(['Feature: T', '\t@t', '\tScenario: A', '\t\tGiven a']));
    });

    it('rewrites the first tag line, drops the others, keeps comments between and after tags', () => {
      const tagged = file(['Feature: F', '', '  @a @b #why', '  # between', '  @c', '  Scenario: A', '    Given a']);
      expect(text(setScenarioTags(tagged, 0, ['@x', '@y', '@x']))).toBe(
        file(['Feature: F', '', '  @x @y #why', '  # between', '  Scenario: A', '    Given a']),
      );
      expect(text(setScenarioTags(tagged, 0, []))).toBe(file(['Feature: F', '', '  #why', '  # between', '  Scenario: A', '    Given a']));
      expect(text(setScenarioTags(cart, 1, []))).toBe(file([...CART.slice(0, 7), ...CART.slice(8)]));
      expect(text(setScenarioTags(cart, 0, []))).toBe(cart);
    });

    it('leaves Examples tags and inherited tags alone', () => {
      const rules = file([
        '@f',
        'Feature: F',
        '  @r',
        '  Rule: R',
        '    @old',
        '    Scenario: A',
        '      Given <x>',
        '      @ex',
        '      Examples:',
        '        | x |',
        '        | 1 |',
      ]);
      const scenario = feature(text(setScenarioTags(rules, 0, ['@new']))).scenarios[0]!;
      expect(scenario.tags).toEqual(['@new']);
      expect(scenario.effectiveTags).toEqual(['@f', '@r', '@new']);
      expect(scenario.examples[0]!.tags).toEqual(['@ex']);
    });

    it('refuses tags with spaces, a second @, or nothing after @', () => {
      for (const bad of ['two words', '@a@b', '@', '']) {
        const result = refusal(setScenarioTags(cart, 0, ['@ok', bad]));
        expect(result.problem).toBe('invalid-tags');
        expect(result.message).toBe('A tag must be one word without spaces or a second @: ' + bad);
      }
    });
  });

  describe('renameFeature', () => {
    it('rewrites only the name on the Feature line, keeping the localized keyword', () => {
      const fr = file(['#language:fr', '@panier', 'Fonctionnalité: Panier', '  Une description', '', '  Scénario: A', '    Soit a']);
      expect(text(renameFeature(fr, 'Caddie'))).toBe(fr.replace('Fonctionnalité: Panier', 'Fonctionnalité: Caddie'));
      expect(text(renameFeature(cart, 'Basket'))).toBe(file(['Feature: Basket', ...CART.slice(1)]));
      expect(text(renameFeature(file(['Feature:', '  Scenario: A']), 'Named'))).toBe(file(['Feature: Named', '  Scenario: A']));
    });

    it('refuses a file without a Feature and names on several lines', () => {
      expect(refusal(renameFeature('', 'X')).problem).toBe('no-feature');
      expect(refusal(renameFeature(cart, 'a\r\nb')).problem).toBe('invalid-name');
    });
  });
});

describe('validateScenarioText', () => {
  it('returns the lines and the parsed scenario with lines counted from the text', () => {
    const result = validateScenarioText('\n# why\n@a\nScenario: A\n  Given a\n  When b\n\n');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.lines).toEqual(['# why', '@a', 'Scenario: A', '  Given a', '  When b']);
    expect(result.scenario).toMatchObject({ name: 'A', tags: ['@a'], line: 3, range: { start: 1, end: 5 } });
    expect(result.scenario.steps.map((s) => s.line)).toEqual([4, 5]);
  });

  it('refuses anything but exactly one scenario, with the line of the problem', () => {
    const problems = (source: string) => {
      const result = validateScenarioText(source);
      return result.ok ? [] : result.errors.map((e) => [e.line, e.reason]);
    };
    expect(problems('  \n\n')).toEqual([[1, 'The scenario text is empty.']]);
    expect(problems('# only a comment')).toEqual([[1, 'The text must contain exactly one scenario.']]);
    expect(problems('Scenario: A\n  Given a\nScenario: B\n  Given b')).toEqual([[3, 'The text must contain exactly one scenario.']]);
    expect(problems('Background:\n  Given a\nScenario: A\n  Given b')).toEqual([[1, 'A scenario cannot contain a Background.']]);
    expect(problems('Scenario: A\n  Given a\nRule: R\n  Scenario: B')).toEqual([[3, 'A scenario cannot contain a Rule.']]);
    expect(problems('\nsome words\nScenario: A\n  Given a')).toEqual([[2, 'Only comments and tags can come before the scenario keyword.']]);
    const featureLine = problems('Scenario: A\n  Given a\nFeature: F');
    expect(featureLine).toHaveLength(1);
    expect(featureLine[0]![0]).toBe(3);
    expect(featureLine[0]![1]).toMatch(/got 'Feature: F'$/);
  });

  it('takes a lone CR in client text as a line break', () => {
    const result = validateScenarioText('Scenario: A\r  Given a\r  When b\r');
    expect(result.ok && result.lines).toEqual(['Scenario: A', '  Given a', '  When b']);
  });

  it('reads the text in the given language', () => {
    expect(validateScenarioText('Scénario: A\n  Soit a', 'fr').ok).toBe(true);
    expect(validateScenarioText('Scénario: A\n  Soit a').ok).toBe(false);
    expect(() => validateScenarioText('Scenario: A', 'xx-nope')).toThrow(RangeError);
  });
});

describe('newFeatureText', () => {
  it('lays out a new feature canonically', () => {
    const result = text(
      newFeatureText('Checkout', 'Pays for a cart.\n\n  Indented line.', [
        'Scenario: Pay\n  Given a cart\n  When I pay',
        '    @smoke\n    Scenario: Refund\n      When I ask for a refund',
      ]),
    );
    expect(result).toBe(
      [
        'Feature: Checkout',
        '  Pays for a cart.',
        '',
        '    Indented line.',
        '',
        '  Scenario: Pay',
        '    Given a cart',
        '    When I pay',
        '',
        '  @smoke',
        '  Scenario: Refund',
        '    When I ask for a refund',
        '',
      ].join('\n'),
    );
    const parsed = feature(result);
    expect(parsed.description).toBe('Pays for a cart.\n\n  Indented line.');
    expect(parsed.scenarios.map((s) => [s.name, s.tags])).toEqual([
      ['Pay', []],
      ['Refund', ['@smoke']],
    ]);
    expect(text(newFeatureText('Empty'))).toBe('Feature: Empty\n');
  });

  it('refuses a description the parser would read as something else, and bad scenarios', () => {
    for (const description of ['Scenario: sneaky', 'fine\n# a comment', 'Background:', '@tag']) {
      expect(refusal(newFeatureText('F', description)).problem).toBe('invalid-description');
    }
    const tagged = refusal(newFeatureText('F', 'ok\n@tag'));
    expect(tagged.errors.map((e) => e.line)).toEqual([2]);
    const scenario = refusal(newFeatureText('F', '', ['Scenario: A\n  Given a', 'Scenario: B\n  Given b\n  nonsense']));
    expect(scenario.problem).toBe('invalid-scenario-text');
    expect(refusal(newFeatureText('two\nlines')).problem).toBe('invalid-name');
  });
});
