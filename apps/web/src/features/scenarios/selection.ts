import { featureDisplayName } from '@rehearse/contract';

/** Where the features page is: indexes into the list, scenarioIndex -1 for a feature without scenarios. */
export interface FeatureSelection {
  featureIndex: number;
  scenarioIndex: number;
}

/**
 * The scenario the features page shows for `?feature=&scenario=` (spec 02 §2: the planner's eye
 * opens `./features?feature={name}&scenario={name}`). The feature is named with or without its
 * '.feature' suffix, so `Login` and `Login.feature` are the same feature; the scenario is the one
 * of that name in it. Without a URL naming one, the last active scenario, else the first.
 */
export function resolveSelection(
  features: readonly { name: string; scenarios: readonly { name: string }[] }[],
  wantedFeature: string | null,
  wantedScenario: string | null,
  lastActive: { featureIndex: number | null; scenarioIndex: number | null },
): FeatureSelection | null {
  if (features.length === 0) return null;
  const wanted = wantedFeature === null ? null : featureDisplayName(wantedFeature);
  let featureIndex = wanted === null ? -1 : features.findIndex((f) => featureDisplayName(f.name) === wanted);
  if (featureIndex < 0) featureIndex = Math.min(Math.max(lastActive.featureIndex ?? 0, 0), features.length - 1);
  const scenarios = features[featureIndex]!.scenarios;
  let scenarioIndex = wantedScenario === null ? -1 : scenarios.findIndex((s) => s.name === wantedScenario);
  if (scenarioIndex < 0 && wantedFeature === null) scenarioIndex = lastActive.scenarioIndex ?? 0;
  if (scenarioIndex < 0 || scenarioIndex >= scenarios.length) scenarioIndex = scenarios.length > 0 ? 0 : -1;
  return { featureIndex, scenarioIndex };
}
