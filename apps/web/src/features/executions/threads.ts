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

/**
 * Whether an execution can start now (spec 02 §5, the server's rule in execution-engine.ts): every
 * flow needs a group with threads, and the threads it takes (each flow's largest group, or 1 when
 * single-threaded) must be free. `free` undefined (not loaded yet) blocks only an unrunnable plan.
 */
export function hasThreadsToRun(
  execution: { isSingleThreaded: boolean; flows: { scenarioGroups: { threadCount: number }[] }[] },
  free: number | undefined,
): boolean {
  const { flows } = execution;
  if (flows.length === 0 || flows.some((f) => !f.scenarioGroups.some((g) => g.threadCount > 0))) return false;
  const needed = flows.reduce(
    (sum, f) => sum + (execution.isSingleThreaded ? 1 : Math.max(...f.scenarioGroups.map((g) => g.threadCount))),
    0,
  );
  return free === undefined || needed <= free;
}
