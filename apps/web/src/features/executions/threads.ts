/** Spec 02 §9: threads shown before the count loads. */
export const DEFAULT_THREADS = 10;

/**
 * Spec 02 §2/§4: a group's thread maximum is what is available minus the largest group of every
 * other flow (flows run side by side, each needing its largest group's threads); never below 0.
 */
export function groupThreadMax(available: number, flows: { groups: { threadCount: number }[] }[], flowIndex: number): number {
  const taken = flows.reduce((sum, f, i) => (i === flowIndex ? sum : sum + Math.max(0, ...f.groups.map((g) => g.threadCount))), 0);
  return Math.max(0, available - taken);
}
