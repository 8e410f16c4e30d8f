import { describe, expect, it } from 'vitest';
import { parseFeature, type ParsedFeature } from './feature-parser.js';
import { allTags, scenarioHasAnyTag, scenariosWithAnyTag, scenarioTagSources } from './gherkin-tags.js';

function feature(text: string): ParsedFeature {
  const result = parseFeature(text);
  if (!result.ok || !result.feature) throw new Error('not a feature');
  return result.feature;
}

const SHOP = feature(`@shop
Feature: Shop
  @smoke
  Scenario: Browse
    Given a shop

  @Rules
  Rule: Orders
    @slow @smoke
    Scenario Outline: Order <n>
      Given <n> items

      @eu
      Examples:
        | n |
        | 1 |

    Scenario: Cancel
      Given an order
`);

const ADMIN = feature(`Feature: Admin
  @admin
  Scenario: Users
    Given users
`);

describe('tags', () => {
  it('lists every tag once, sorted without regard to case', () => {
    expect(allTags([SHOP, null, ADMIN])).toEqual(['@admin', '@eu', '@Rules', '@shop', '@slow', '@smoke']);
    expect(allTags([])).toEqual([]);
  });

  it('tells where each tag of a scenario comes from', () => {
    expect(scenarioTagSources(SHOP.scenarios[1]!)).toEqual({
      feature: ['@shop'],
      rule: ['@Rules'],
      scenario: ['@slow', '@smoke'],
      examples: [['@eu']],
      effective: ['@shop', '@Rules', '@slow', '@smoke'],
    });
    expect(scenarioTagSources(SHOP.scenarios[2]!).effective).toEqual(['@shop', '@Rules']);
  });

  it('selects scenarios having any chosen tag, inherited and Examples tags included', () => {
    expect(scenariosWithAnyTag([SHOP, ADMIN], ['@smoke'])).toEqual([
      { featureIndex: 0, scenarioIndex: 0 },
      { featureIndex: 0, scenarioIndex: 1 },
    ]);
    expect(scenariosWithAnyTag([SHOP, ADMIN], ['@Rules', '@admin'])).toEqual([
      { featureIndex: 0, scenarioIndex: 1 },
      { featureIndex: 0, scenarioIndex: 2 },
      { featureIndex: 1, scenarioIndex: 0 },
    ]);
    expect(scenariosWithAnyTag([null, SHOP], ['@eu'])).toEqual([{ featureIndex: 1, scenarioIndex: 1 }]);
    expect(scenarioHasAnyTag(SHOP.scenarios[0]!, ['@rules'])).toBe(false);
    expect(scenarioHasAnyTag(SHOP.scenarios[0]!, [])).toBe(false);
  });
});
