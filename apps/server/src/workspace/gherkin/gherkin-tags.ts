/**
 * Tags across features, for the planner: its tag list and "every scenario having any chosen tag"
 * (spec 02 §4). A scenario has a tag when it applies to the scenario (feature, rule or own tag, see
 * `ParsedScenario.effectiveTags`) or to at least one of its Examples tables: selecting such a tag runs
 * the whole scenario, since an execution selects scenarios, not example rows.
 */
import { compareTags, scenarioHasAnyTag as hasAnyTag } from '@rehearse/contract';
import type { ParsedFeature, ParsedScenario } from './feature-parser.js';

/** Where each tag of a scenario comes from; `examples` has one entry per Examples table. */
export interface ScenarioTagSources {
  feature: string[];
  rule: string[];
  scenario: string[];
  examples: string[][];
  /** feature + rule + scenario, each once: the tags every run of the scenario carries. */
  effective: string[];
}

/** The tags of a scenario by origin (feature, Rule, own, Examples). */
export function scenarioTagSources(scenario: ParsedScenario): ScenarioTagSources {
  return {
    feature: scenario.inheritedTags.feature,
    rule: scenario.inheritedTags.rule,
    scenario: scenario.tags,
    examples: scenario.examples.map((examples) => examples.tags),
    effective: scenario.effectiveTags,
  };
}

/** Every tag used anywhere (feature, Rule, scenario, Examples), once, sorted case-insensitively. */
export function allTags(features: readonly (ParsedFeature | null)[]): string[] {
  const tags = new Set<string>();
  for (const feature of features) {
    if (!feature) continue;
    for (const tag of feature.tags) tags.add(tag);
    for (const rule of feature.rules) for (const tag of rule.tags) tags.add(tag);
    for (const scenario of feature.scenarios) {
      for (const tag of scenario.tags) tags.add(tag);
      for (const examples of scenario.examples) for (const tag of examples.tags) tags.add(tag);
    }
  }
  return [...tags].sort(compareTags);
}

/** Whether any of `tags` applies to the scenario or to one of its Examples tables. Tags compare exactly, `@` included. */
export function scenarioHasAnyTag(scenario: ParsedScenario, tags: readonly string[]): boolean {
  return hasAnyTag({ effectiveTags: scenario.effectiveTags, examplesTags: scenario.examples.map((examples) => examples.tags) }, tags);
}

/** The scenarios having any of `tags`, as the positions an execution's scenario group stores. */
export function scenariosWithAnyTag(
  features: readonly (ParsedFeature | null)[],
  tags: readonly string[],
): { featureIndex: number; scenarioIndex: number }[] {
  const found: { featureIndex: number; scenarioIndex: number }[] = [];
  features.forEach((feature, featureIndex) => {
    for (const scenario of feature?.scenarios ?? []) {
      if (scenarioHasAnyTag(scenario, tags)) found.push({ featureIndex, scenarioIndex: scenario.index });
    }
  });
  return found;
}
