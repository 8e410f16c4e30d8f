/** A name the page shows, with the kind of element showing it (`button`, `link`, `label`, …). */
export interface ShownName {
  kind: string;
  name: string;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * How alike two names read, 0 to 1: the larger of their character likeness (1 − edit distance ÷
 * the longer length) and the share of the shorter one's words the other has, so a typo ("Clear
 * complete") and a rewording ("Clear all completed") both count.
 */
export function likeness(a: string, b: string): number {
  const [x, y] = [normal(a), normal(b)];
  if (!x || !y) return 0;
  const characters = 1 - editDistance(x, y) / Math.max(x.length, y.length);
  const [fewer, more] = x.split(' ').length <= y.split(' ').length ? [x, y] : [y, x];
  const others = new Set(more.split(' '));
  const words = fewer.split(' ').filter((word) => others.has(word)).length / fewer.split(' ').length;
  return Math.max(characters, words * 0.9);
}

/** The page's names nearest to the words a step used, most alike first, for "not found" messages. */
export function nearestNames(words: string, shown: readonly ShownName[], limit = 3): ShownName[] {
  const seen = new Set<string>();
  return shown
    .map((each) => ({ ...each, score: likeness(words, each.name) }))
    .filter((each) => each.score >= 0.5 && normal(each.name) !== normal(words))
    .sort((a, b) => b.score - a.score)
    .filter((each) => {
      const key = `${each.kind} ${normal(each.name)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, limit)
    .map(({ kind, name }) => ({ kind, name }));
}
