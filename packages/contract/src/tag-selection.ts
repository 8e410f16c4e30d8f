/**
 * Which scenarios a set of tags selects (spec 02 §4: an execution's scenario group runs every
 * scenario having any chosen tag). One implementation for the planner in the browser, the
 * executions service, the engine and the workspace's tag list.
 *
 * A scenario carries a tag when it applies to every run of it (feature, Rule or its own tag:
 * `effectiveTags`) or to one of its Examples tables (`examplesTags`, as cucumber tags the rows of
 * that table): selecting such a tag runs the whole scenario, since an execution selects scenarios,
 * not example rows. Tags compare exactly, `@` included.
 */
export interface TaggedScenario {
  effectiveTags: readonly string[];
  /** One list per Examples table. */
  examplesTags: readonly (readonly string[])[];
}

export function scenarioHasAnyTag(scenario: TaggedScenario, tags: readonly string[]): boolean {
  const wanted = new Set(tags);
  return (
    scenario.effectiveTags.some((tag) => wanted.has(tag)) || scenario.examplesTags.some((table) => table.some((tag) => wanted.has(tag)))
  );
}

/** Every tag a scenario can be selected by: its own, inherited and Examples tags. */
export function selectableTags(scenario: TaggedScenario): string[] {
  return [...new Set([...scenario.effectiveTags, ...scenario.examplesTags.flat()])];
}

/** Tags in the order the planner lists them: case-insensitively, then by code point. */
export function compareTags(a: string, b: string): number {
  const byCase = a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
  return byCase !== 0 ? byCase : a < b ? -1 : a > b ? 1 : 0;
}
