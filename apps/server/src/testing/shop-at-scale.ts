/** The group tags of the scale feature: two flows of two groups each (first, then). */
export const SCALE_GROUPS = ['@flow1first', '@flow1then', '@flow2first', '@flow2then'] as const;
const PRODUCTS = ['Trail Backpack', 'Enamel Camp Mug', 'Summit Rain Jacket'];

/** The twelve scenario names of the scale feature, in plan order. */
export const SCALE_SCENARIOS = SCALE_GROUPS.flatMap((_, g) => PRODUCTS.map((product, p) => `Shop ${g * 3 + p + 1} shows ${product}`));

/** Twelve demo-shop scenarios, three per group tag: each opens the shop and sees one product. */
export const SCALE_FEATURE = `Feature: Shop at scale
${SCALE_GROUPS.flatMap((tag, g) =>
  PRODUCTS.map(
    (product, p) => `
  ${tag}
  Scenario: ${SCALE_SCENARIOS[g * 3 + p]}
    Given I open "/"
    Then I should see "${product}"
`,
  ),
).join('')}`;

/**
 * The planner's flows for the scale feature: 2 flows × 2 groups (first, then) × `threads` threads,
 * so 2 × `threads` scenarios run at once.
 */
export function scaleFlows(threads: number) {
  const group = (tag: string) => ({ name: tag, threadCount: threads, tags: [tag] });
  return [
    { scenarioGroups: [group(SCALE_GROUPS[0]), group(SCALE_GROUPS[1])] },
    { scenarioGroups: [group(SCALE_GROUPS[2]), group(SCALE_GROUPS[3])] },
  ];
}
