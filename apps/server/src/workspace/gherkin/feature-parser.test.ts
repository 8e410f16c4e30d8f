import { describe, expect, it } from 'vitest';
import { formatGherkinError, parseFeature, type ParsedFeature } from './feature-parser.js';

function feature(text: string): ParsedFeature {
  const result = parseFeature(text);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  if (!result.feature) throw new Error('no feature');
  return result.feature;
}

const SHOP = `# language: en
@shop
Feature: Checkout
  Paying for a cart.
    Indented second line.

  Background:
    Given a signed-in customer

  # Happy path first
  @smoke @fast
  Scenario: Pay by card
    Given a cart with:
      | item | qty |
      | mug  | 2   |
    When I pay
      """json
      {"card": "4242"}
      """
    Then I see "Paid"
    # And I get an email

  # --- outlines ---

  Scenario: Pay in currencies
    Given prices in <currency>
    * the total is shown

    @eu
    Examples: Europe
      | currency |
      | EUR      |
      | CHF      |

    Examples: Asia
      | currency |
      | JPY      |

  @rules
  Rule: Refunds
    Background:
      And an order

    Example: Refund in full
      When I ask for a refund
      But keep the receipt
`;

describe('parseFeature', () => {
  it('summarises the feature, its Background, Rules and every scenario', () => {
    const parsed = feature(SHOP);
    expect(parsed).toMatchObject({
      keyword: 'Feature',
      name: 'Checkout',
      description: 'Paying for a cart.\n  Indented second line.',
      language: 'en',
      tags: ['@shop'],
      line: 3,
      background: { keyword: 'Background', name: '', line: 7, range: { start: 7, end: 8 } },
      rules: [{ index: 0, keyword: 'Rule', name: 'Refunds', tags: ['@rules'], line: 40 }],
    });
    expect(parsed.rules[0]!.background!.steps.map((s) => [s.keyword, s.keywordType, s.effectiveType])).toEqual([
      ['And', 'Conjunction', 'Unknown'],
    ]);
    expect(parsed.scenarios.map((s) => [s.index, s.type, s.keyword, s.name, s.line, s.ruleIndex])).toEqual([
      [0, 'Scenario', 'Scenario', 'Pay by card', 12, null],
      [1, 'Scenario Outline', 'Scenario', 'Pay in currencies', 25, null],
      [2, 'Scenario', 'Example', 'Refund in full', 44, 0],
    ]);
  });

  it('gives each step its keyword as written, its keyword type, resolved type and arguments', () => {
    const [card, outline, refund] = feature(SHOP).scenarios;
    expect(card!.steps).toEqual([
      {
        keyword: 'Given',
        keywordType: 'Context',
        effectiveType: 'Context',
        text: 'a cart with:',
        line: 13,
        textColumn: 11,
        hasDocString: false,
        hasDataTable: true,
      },
      {
        keyword: 'When',
        keywordType: 'Action',
        effectiveType: 'Action',
        text: 'I pay',
        line: 16,
        textColumn: 10,
        hasDocString: true,
        hasDataTable: false,
      },
      {
        keyword: 'Then',
        keywordType: 'Outcome',
        effectiveType: 'Outcome',
        text: 'I see "Paid"',
        line: 20,
        textColumn: 10,
        hasDocString: false,
        hasDataTable: false,
      },
    ]);
    expect(outline!.steps.map((s) => [s.keyword, s.keywordType])).toEqual([
      ['Given', 'Context'],
      ['*', 'Unknown'],
    ]);
    expect(refund!.steps.map((s) => [s.keyword, s.keywordType, s.effectiveType])).toEqual([
      ['When', 'Action', 'Action'],
      ['But', 'Conjunction', 'Action'],
    ]);
  });

  it('lists Examples with their tags and row counts, and tags by origin', () => {
    const [card, outline, refund] = feature(SHOP).scenarios;
    expect(outline!.examples).toEqual([
      { keyword: 'Examples', name: 'Europe', tags: ['@eu'], line: 30, rowCount: 2 },
      { keyword: 'Examples', name: 'Asia', tags: [], line: 35, rowCount: 1 },
    ]);
    expect(card!.tags).toEqual(['@smoke', '@fast']);
    expect(card!.effectiveTags).toEqual(['@shop', '@smoke', '@fast']);
    expect(refund!.inheritedTags).toEqual({ feature: ['@shop'], rule: ['@rules'] });
    expect(refund!.effectiveTags).toEqual(['@shop', '@rules']);
  });

  it('cuts blocks: comments directly above and below belong to the scenario, blank-separated ones to nobody', () => {
    const [card, outline, refund] = feature(SHOP).scenarios;
    expect(card!.range).toEqual({ start: 10, end: 21 });
    expect(card!.content.split('\n')[0]).toBe('  # Happy path first');
    expect(card!.content.split('\n').at(-1)).toBe('    # And I get an email');
    // "# --- outlines ---" has blank lines on both sides.
    expect(outline!.range).toEqual({ start: 25, end: 37 });
    expect(refund!.range).toEqual({ start: 44, end: 46 });
    expect(SHOP.split('\n').slice(43, 46).join('\n')).toBe(refund!.content);
  });

  it('gives comments that run without a blank line into the next scenario to that scenario', () => {
    const text = ['Feature: F', '  Scenario: A', '    Given a', '    # about A or B?', '  @b', '  Scenario: B', '    Given b'].join('\n');
    const [a, b] = feature(text).scenarios;
    expect(a!.range).toEqual({ start: 2, end: 3 });
    expect(b!.range).toEqual({ start: 4, end: 7 });
    expect(b!.content).toBe('    # about A or B?\n  @b\n  Scenario: B\n    Given b');
  });

  it('keeps CRLF endings inside content, without a final ending', () => {
    const text = 'Feature: F\r\n\r\n  Scenario: A\r\n    Given a\r\n    | x |\r\n\r\n  Scenario: B\r\n    Given b\r\n';
    const result = parseFeature(text);
    expect(result.ok && result.eol).toBe('\r\n');
    const [a, b] = feature(text).scenarios;
    expect(a!.content).toBe('  Scenario: A\r\n    Given a\r\n    | x |');
    expect(b!.content).toBe('  Scenario: B\r\n    Given b');
  });

  it('decides the type by Examples, not by the keyword', () => {
    const text = [
      'Feature: F',
      '  Scenario Outline: no examples',
      '    Given <x>',
      '  Scenario: with examples',
      '    Given <x>',
      '    Examples:',
      '      | x |',
      '      | 1 |',
    ].join('\n');
    expect(feature(text).scenarios.map((s) => [s.keyword, s.type])).toEqual([
      ['Scenario Outline', 'Scenario'],
      ['Scenario', 'Scenario Outline'],
    ]);
  });

  it('reads other languages from the # language header', () => {
    const text = [
      '#language:fr',
      'Fonctionnalité: Panier',
      '',
      '  Plan du scénario: Payer',
      '    Soit un panier',
      '    Quand je paie en <devise>',
      '    Et que je confirme',
      "    Alors c'est payé",
      '',
      '    Exemples:',
      '      | devise |',
      '      | EUR    |',
    ].join('\n');
    const parsed = feature(text);
    expect(parsed.language).toBe('fr');
    expect(parsed.keyword).toBe('Fonctionnalité');
    expect(parsed.scenarios[0]).toMatchObject({ type: 'Scenario Outline', keyword: 'Plan du scénario', name: 'Payer' });
    expect(parsed.scenarios[0]!.steps.map((s) => [s.keyword, s.keywordType, s.effectiveType])).toEqual([
      ['Soit', 'Context', 'Context'],
      ['Quand', 'Action', 'Action'],
      ['Et que', 'Conjunction', 'Action'],
      ['Alors', 'Outcome', 'Outcome'],
    ]);
  });

  it('accepts files without a Feature as having no scenarios', () => {
    expect(parseFeature('')).toEqual({ ok: true, feature: null, eol: '\n' });
    expect(parseFeature('# only a comment\r\n')).toEqual({ ok: true, feature: null, eol: '\r\n' });
  });

  it('returns every parser error with line, column and message, in the parser\'s order, formatted as "line N: reason"', () => {
    const result = parseFeature('Feature: F\n  Scenario: A\n    Given a\n    | a | b |\n    | c |\nnonsense\n  @bad tag\n  Scenario: B\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The table's cell count is checked when the table ends, so its error comes last.
    expect(result.errors.map((e) => [e.line, e.column])).toEqual([
      [6, 1],
      [7, 3],
      [7, 3],
      [5, 5],
    ]);
    expect(result.errors[3]).toEqual({
      line: 5,
      column: 5,
      message: '(5:5): inconsistent cell count within the table',
      reason: 'inconsistent cell count within the table',
    });
    expect(formatGherkinError(result.errors[1]!)).toBe('line 7: A tag may not contain whitespace');
    expect(formatGherkinError(result.errors[0]!)).toMatch(/^line 6: expected: #EOF, .* got 'nonsense'$/);
  });

  it('says where each step text begins after the keyword of any dialect, spaced or not', () => {
    const french = parseFeature("# language: fr\nFonctionnalité: Panier\n  Scénario: Payer\n    Soit un panier\n    Et qu'il est plein\n");
    expect(french.ok && french.feature!.scenarios[0]!.steps.map((step) => [step.keyword, step.textColumn])).toEqual([
      ['Soit', 10],
      ["Et qu'", 11],
    ]);
    const chinese = parseFeature('# language: zh-CN\n功能: 购物车\n  场景: 付款\n    假如我有一个购物车\n');
    expect(chinese.ok && chinese.feature!.scenarios[0]!.steps.map((step) => [step.keyword, step.textColumn])).toEqual([['假如', 7]]);
  });
});
