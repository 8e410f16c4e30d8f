import { describe, expect, it } from 'vitest';
import { DEFAULT_THREADS, groupThreadMax, hasThreadsToRun } from './threads';

const flow = (...threadCounts: number[]) => ({ groups: threadCounts.map((threadCount) => ({ threadCount })) });

describe('thread maxima (spec 02 §4)', () => {
  it('shows 10 threads before the count loads (spec 02 §9)', () => {
    expect(DEFAULT_THREADS).toBe(10);
  });

  it('gives a lone flow every available thread', () => {
    expect(groupThreadMax(6, [flow(2, 1)], 0)).toBe(6);
  });

  it('subtracts the largest group thread count of every other flow', () => {
    const flows = [flow(1, 3), flow(2, 2), flow(4)];
    expect(groupThreadMax(10, flows, 0)).toBe(10 - 2 - 4);
    expect(groupThreadMax(10, flows, 2)).toBe(10 - 3 - 2);
  });

  it('never goes below 0 when the other flows take more than is available', () => {
    expect(groupThreadMax(3, [flow(1), flow(5)], 0)).toBe(0);
  });

  it('counts an empty flow as taking nothing', () => {
    expect(groupThreadMax(4, [flow(), flow(2)], 1)).toBe(4);
  });
});

describe('whether an execution has the threads to run (spec 02 §5)', () => {
  const plan = (isSingleThreaded: boolean, ...flows: number[][]) => ({
    isSingleThreaded,
    flows: flows.map((counts) => ({ scenarioGroups: counts.map((threadCount) => ({ threadCount })) })),
  });

  it('needs a group with threads in every flow', () => {
    expect(hasThreadsToRun(plan(false, [0, 0]), 5)).toBe(false);
    expect(hasThreadsToRun(plan(false, [1], [0]), 5)).toBe(false);
    expect(hasThreadsToRun(plan(false), 5)).toBe(false);
  });

  it("needs each flow's largest group free, or one per flow when single-threaded", () => {
    expect(hasThreadsToRun(plan(false, [1, 3], [2]), 5)).toBe(true);
    expect(hasThreadsToRun(plan(false, [1, 3], [2]), 4)).toBe(false);
    expect(hasThreadsToRun(plan(true, [1, 3], [2]), 2)).toBe(true);
    expect(hasThreadsToRun(plan(false, [1]), 0)).toBe(false);
  });

  it('does not block a runnable plan while the free count loads', () => {
    expect(hasThreadsToRun(plan(false, [4]), undefined)).toBe(true);
  });
});
