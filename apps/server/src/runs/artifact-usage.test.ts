import { describe, expect, it } from 'vitest';
import { ArtifactUsage } from './artifact-usage.js';

describe("a project's artifact usage for the quota", () => {
  it('sums the project once per period and adds what this server stored meanwhile', async () => {
    let clock = 0;
    const sums: string[] = [];
    const kept = new Map([
      ['a', 1_000],
      ['b', 50],
    ]);
    const usage = new ArtifactUsage(
      async (projectId) => {
        sums.push(projectId);
        return kept.get(projectId) ?? 0;
      },
      30_000,
      () => clock,
    );
    expect(await usage.bytes('a')).toBe(1_000);
    usage.stored('a', 200);
    clock = 29_999;
    expect(await usage.bytes('a')).toBe(1_200);
    // Another project is summed on its own.
    expect(await usage.bytes('b')).toBe(50);
    expect(sums).toEqual(['a', 'b']);
    // Past the period the sum is taken again: what retention freed (or another server stored) counts now.
    kept.set('a', 300);
    clock = 30_000;
    expect(await usage.bytes('a')).toBe(300);
    expect(sums).toEqual(['a', 'b', 'a']);
  });

  it('adds nothing for a project it has not summed yet: the first sum counts those bytes', async () => {
    const usage = new ArtifactUsage(async () => 700);
    usage.stored('a', 100);
    expect(await usage.bytes('a')).toBe(700);
  });
});
