import { describe, expect, it } from 'vitest';
import { Strings } from './strings';

describe('code cleanup snackbar after deleting unused steps (spec 02 §8)', () => {
  it('reads in the singular when one step was deleted', () => {
    expect(Strings.cleanupDeleted(1)).toBe('1 unused step deleted');
  });

  it("keeps the spec's plural words for any other count", () => {
    expect(Strings.cleanupDeleted(3)).toBe('3 unused steps deleted');
    expect(Strings.cleanupDeleted(0)).toBe('0 unused steps deleted');
  });
});
