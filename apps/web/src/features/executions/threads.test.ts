import { describe, expect, it } from 'vitest';
import { DEFAULT_THREADS, groupThreadMax } from './threads';

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
