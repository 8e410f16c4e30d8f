import { compareTags, scenarioHasAnyTag, selectableTags } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { summarize } from './features.service.js';
import { parseFeature } from './gherkin/index.js';

/** A feature file as the features listing summarizes it (the shape the planner and the engine select from). */
function listed(name: string, text: string) {
  const result = parseFeature(text);
  if (!result.ok || !result.feature) throw new Error('not a feature');
  return summarize(`features/${name}`, text, result.feature, []);
}

const SHOP = listed(
  'shop.feature',
  `@shop
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
`,
);

const ADMIN = listed('admin.feature', 'Feature: Admin\n  @admin\n  Scenario: Users\n    Given users\n');

/** Which scenarios a group with these tags runs (spec 02 §4: every scenario having any chosen tag). */
const selected = (tags: string[]) =>
  [SHOP, ADMIN].flatMap((feature) =>
    feature.scenarios.filter((scenario) => scenarioHasAnyTag(scenario, tags)).map((scenario) => scenario.name),
  );

describe('tags of listed scenarios', () => {
  it('gives each scenario the tags of its feature, its Rule and its own, and keeps Examples tags per table', () => {
    const order = SHOP.scenarios[1]!;
    expect(order.effectiveTags).toEqual(['@shop', '@Rules', '@slow', '@smoke']);
    expect(order.examplesTags).toEqual([['@eu']]);
    expect(SHOP.scenarios[2]!.effectiveTags).toEqual(['@shop', '@Rules']);
  });

  it('offers every tag once, sorted without regard to case', () => {
    const tags = new Set([SHOP, ADMIN].flatMap((feature) => feature.scenarios.flatMap((scenario) => selectableTags(scenario))));
    expect([...tags].sort(compareTags)).toEqual(['@admin', '@eu', '@Rules', '@shop', '@slow', '@smoke']);
  });

  it('selects scenarios having any chosen tag, inherited and Examples tags included, compared exactly', () => {
    expect(selected(['@smoke'])).toEqual(['Browse', 'Order <n>']);
    expect(selected(['@Rules', '@admin'])).toEqual(['Order <n>', 'Cancel', 'Users']);
    expect(selected(['@eu'])).toEqual(['Order <n>']);
    expect(selected(['@rules'])).toEqual([]);
    expect(selected([])).toEqual([]);
  });
});
