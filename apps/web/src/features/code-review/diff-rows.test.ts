import { describe, expect, it } from 'vitest';
import { changedRange, diffFileLines, foldDiff } from './diff-rows';

/** A locator file of `n` entries, as JSON.stringify writes it (4 lines per entry). */
function locatorFile(n: number, rename?: { at: number; to: string }): string {
  const file: Record<string, { name: string }> = {};
  for (let i = 0; i < n; i += 1) file[`element_${i}`] = { name: rename?.at === i ? rename.to : `Element ${i}` };
  return `${JSON.stringify(file, null, 2)}\n`;
}

describe('the Code Review diff', () => {
  it('opens a long file at its change: unchanged runs are folded, 3 lines of context kept', () => {
    const before = locatorFile(160);
    const after = locatorFile(160, { at: 120, to: 'Pay' });
    const lines = diffFileLines(before, after);
    expect(lines).toHaveLength(483);
    const rows = foldDiff(lines);
    expect(rows.map((row) => row.kind)).toEqual(['fold', 'lines', 'fold']);
    expect(rows.reduce((sum, row) => sum + row.lines.length, 0)).toBe(lines.length);
    const shown = rows[1]!.lines;
    expect(shown.map((line) => line.kind)).toEqual(['same', 'same', 'same', 'removed', 'added', 'same', 'same', 'same']);
    expect(shown.filter((line) => line.kind !== 'same').map((line) => line.text.trim())).toEqual([
      '"name": "Element 120"',
      '"name": "Pay"',
    ]);
    expect(changedRange(lines)).toEqual({ from: 363, to: 363 });
  });

  it('shows a short diff whole and says when nothing changed', () => {
    const lines = diffFileLines('a\nb\n', 'a\nc\n');
    expect(foldDiff(lines).map((row) => row.kind)).toEqual(['lines']);
    expect(changedRange(diffFileLines('a\n', 'a\n'))).toBeNull();
  });
});
