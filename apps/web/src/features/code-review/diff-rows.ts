import { diffLines } from 'diff';

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  before: number | null;
  after: number | null;
}

/** A run of unchanged lines shown folded, or lines shown as they are. */
export type DiffRow = { kind: 'lines'; lines: DiffLine[] } | { kind: 'fold'; id: number; lines: DiffLine[] };

/** Unchanged lines kept around each change, as `git diff` does. */
const CONTEXT = 3;

/** Line-by-line diff of a file before and after a fix. */
export function diffFileLines(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  let b = 1;
  let a = 1;
  for (const part of diffLines(before, after)) {
    const texts = part.value.replace(/\n$/, '').split('\n');
    for (const text of texts) {
      if (part.added) out.push({ kind: 'added', text, before: null, after: a++ });
      else if (part.removed) out.push({ kind: 'removed', text, before: b++, after: null });
      else out.push({ kind: 'same', text, before: b++, after: a++ });
    }
  }
  return out;
}

/**
 * The diff as a reviewer reads it: each change with `CONTEXT` lines around it, every longer run of
 * unchanged lines folded (a long locator file opens at its change, not at line 1).
 */
export function foldDiff(lines: readonly DiffLine[], context = CONTEXT): DiffRow[] {
  const near = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j += 1) near[j] = true;
  });
  const rows: DiffRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const shown = near[i]!;
    let end = i;
    while (end < lines.length && near[end] === shown) end += 1;
    const run = lines.slice(i, end);
    // Folding a single line saves nothing: it is shown as it is.
    rows.push(shown || run.length < 2 ? { kind: 'lines', lines: run } : { kind: 'fold', id: i, lines: run });
    i = end;
  }
  return rows;
}

/** The first and last line of the new file that a change touches (removed lines count where they were). */
export function changedRange(lines: readonly DiffLine[]): { from: number; to: number } | null {
  let from: number | null = null;
  let to = 0;
  let lastAfter = 0;
  for (const line of lines) {
    if (line.after !== null) lastAfter = line.after;
    if (line.kind === 'same') continue;
    const at = line.after ?? lastAfter + 1;
    from ??= at;
    to = Math.max(to, at);
  }
  return from === null ? null : { from, to };
}
