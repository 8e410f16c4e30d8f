import { featureDisplayName, selectableTags, type FeatureSummary } from '@rehearse/contract';

/** One line of the features tree: a feature, or one of its scenarios. */
export type TreeRow =
  | { kind: 'feature'; key: string; featureIndex: number; name: string; count: number; open: boolean; invalid: boolean }
  | { kind: 'scenario'; key: string; featureIndex: number; scenarioIndex: number; name: string; feature: string };

/** The searchable form of a feature list, built once per list so a keystroke only compares strings. */
export interface TreeIndex {
  features: { name: string; lower: string; invalid: boolean; scenarios: { name: string; lower: string; tags: string[] }[] }[];
}

export function buildTreeIndex(features: readonly FeatureSummary[]): TreeIndex {
  return {
    features: features.map((feature) => {
      const name = featureDisplayName(feature.name);
      return {
        name,
        lower: name.toLowerCase(),
        invalid: feature.errors.length > 0,
        scenarios: feature.scenarios.map((scenario) => ({
          name: scenario.name,
          lower: scenario.name.toLowerCase(),
          tags: selectableTags(scenario),
        })),
      };
    }),
  };
}

export interface TreeFilter {
  search: string;
  /** Tags a scenario must carry one of; empty shows every scenario. */
  tags: readonly string[];
  /** Features the user collapsed (display names). Ignored while searching, so matches are visible. */
  collapsed: ReadonlySet<string>;
}

/**
 * The visible rows: a feature whose name matches the search shows all its scenarios (that pass the
 * tag filter); otherwise only its matching scenarios show, under it. Features left with no
 * scenario are hidden while a search or tag filter is on.
 */
export function visibleRows(index: TreeIndex, filter: TreeFilter): TreeRow[] {
  const needle = filter.search.trim().toLowerCase();
  const tagSet = filter.tags.length > 0 ? new Set(filter.tags) : null;
  const filtering = needle !== '' || tagSet !== null;
  const rows: TreeRow[] = [];
  index.features.forEach((feature, featureIndex) => {
    const featureMatches = needle === '' || feature.lower.includes(needle);
    const scenarios: TreeRow[] = [];
    feature.scenarios.forEach((scenario, scenarioIndex) => {
      if (tagSet && !scenario.tags.some((tag) => tagSet.has(tag))) return;
      if (!featureMatches && !scenario.lower.includes(needle)) return;
      scenarios.push({
        kind: 'scenario',
        key: `${featureIndex}/${scenarioIndex}`,
        featureIndex,
        scenarioIndex,
        name: scenario.name,
        feature: feature.name,
      });
    });
    if (filtering && scenarios.length === 0 && !(featureMatches && needle !== '' && tagSet === null)) return;
    const open = filtering || !filter.collapsed.has(feature.name);
    rows.push({
      kind: 'feature',
      key: `${featureIndex}`,
      featureIndex,
      name: feature.name,
      count: scenarios.length,
      open,
      invalid: feature.invalid,
    });
    if (open) rows.push(...scenarios);
  });
  return rows;
}
