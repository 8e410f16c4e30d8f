import { ELEMENT_PARAMETER } from './builtin-steps.js';

/**
 * "Did you mean": the step patterns closest to a step nobody implements, written out with the
 * step's own quoted values, so the editor can offer a replacement that runs as it is.
 *
 * A step and a pattern are compared as words, with every quoted value (and every `{string}` or
 * `{element}` slot) as one value token, so `I clicks on "Save"` is one word away from
 * `I click {element}`, whatever the value says.
 */

const VALUE = '\u0000value';
const NUMBER = '\u0000number';
/** `{storage}`: the word "local" or "session", whichever the step says. */
const STORAGE = '\u0000storage';

/** An element phrase (`the 2nd "Save" in the row containing "X"`) or a quoted value, as one. */
const PHRASE = new RegExp(ELEMENT_PARAMETER.regexp.source.replace(/\((?!\?)/g, '(?:'), 'g');

/** The words of a step as written: each value (quoted, or an element phrase) and number becomes one token. */
function stepTokens(text: string): { tokens: string[]; values: string[]; numbers: string[] } {
  const values: string[] = [];
  const numbers: string[] = [];
  const tokens: string[] = [];
  for (const match of text.matchAll(new RegExp(`(${PHRASE.source})|(-?\\d+)\\b|([^\\s"]+)`, 'g'))) {
    if (match[1] !== undefined) {
      values.push(match[1]);
      tokens.push(VALUE);
    } else if (match[2] !== undefined) {
      numbers.push(match[2]);
      tokens.push(NUMBER);
    } else tokens.push(match[3]!.toLowerCase());
  }
  return { tokens, values, numbers };
}

/** The words of a cucumber expression: parameters become value or number tokens; `(s)` and `a/b` read as written first. */
function patternTokens(pattern: string): string[] {
  const plain = pattern.replace(/\([^)]*\)/g, '').replace(/(\S+)\/\S+/g, '$1');
  return plain
    .split(/\s+/)
    .filter(Boolean)
    .map((word) =>
      /^\{(?:string|element)\}$/.test(word)
        ? VALUE
        : /^\{(?:int|float)\}$/.test(word)
          ? NUMBER
          : word === '{storage}'
            ? STORAGE
            : word.toLowerCase(),
    );
}

function editDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : wordCost(a[i - 1]!, b[j - 1]!)),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Words people write for the catalogue's words: each costs a quarter of a word. */
const SYNONYMS: Record<string, string> = {
  tick: 'check',
  ticks: 'check',
  untick: 'uncheck',
  unticks: 'uncheck',
  ticked: 'checked',
  unticked: 'unchecked',
  selected: 'checked',
  tap: 'click',
  taps: 'click',
  press: 'click',
  hit: 'click',
  presses: 'click',
  visit: 'open',
  navigate: 'open',
  go: 'open',
  load: 'open',
  enter: 'fill',
  type: 'fill',
  shown: 'visible',
  displayed: 'visible',
  invisible: 'hidden',
  choose: 'select',
  pick: 'select',
  refresh: 'reload',
  entries: 'items',
  entry: 'item',
  rows: 'items',
  row: 'item',
  address: 'url',
  contains: 'contain',
  includes: 'contain',
  include: 'contain',
};

/** A synonym costs a quarter of a word; a misspelt or inflected word ("clicks", "chek") half. */
function wordCost(a: string, b: string): number {
  if ((a === STORAGE && /^(?:local|session)$/.test(b)) || (b === STORAGE && /^(?:local|session)$/.test(a))) return 0;
  if (a.startsWith('\u0000') || b.startsWith('\u0000')) return 1;
  if (SYNONYMS[a] === b || SYNONYMS[b] === a) return 0.25;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.startsWith(short) && long.length - short.length <= 2) return 0.5;
  let same = 0;
  for (let i = 0; i < short.length; i += 1) if (short[i] === long[i]) same += 1;
  return same >= long.length - 1 && long.length >= 4 ? 0.5 : 1;
}

/** The pattern written out with the step's values, in order; undefined when the step has too few. */
function fill(pattern: string, values: readonly string[], numbers: readonly string[], storage: string): string | undefined {
  let v = 0;
  let n = 0;
  let missing = false;
  const text = pattern
    .replace(/\{(string|element|int|float)\}/g, (_, type: string) => {
      if (type === 'int' || type === 'float') return numbers[n++] ?? '1';
      const value = values[v++];
      if (value === undefined) missing = true;
      return value ?? '';
    })
    .replace('{storage}', storage)
    .replace(/\(([^)]*)\)/g, (_, optional: string) => (numbers[0] === '1' ? '' : optional))
    .replace(/(\S+)\/\S+/g, '$1');
  return missing ? undefined : text;
}

/** Closest patterns first, at most `limit`, each written out with the step's values. */
export function suggestSteps(text: string, patterns: readonly string[], limit = 3): string[] {
  const step = stepTokens(text);
  const scored: { text: string; distance: number }[] = [];
  for (const pattern of new Set(patterns)) {
    const tokens = patternTokens(pattern);
    const slots = tokens.filter((token) => token === VALUE).length;
    // A pattern wanting values the step does not give, or dropping values it gives, is not what was meant.
    if (slots !== step.values.length) continue;
    const distance = editDistance(step.tokens, tokens);
    // Close enough: at most two fifths of the longer one's words differ (a word and a half in short steps).
    if (distance > Math.max(1.5, Math.max(step.tokens.length, tokens.length) * 0.4)) continue;
    const written = fill(pattern, step.values, step.numbers, step.tokens.includes('session') ? 'session' : 'local');
    if (written && written !== text) scored.push({ text: written, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit)
    .map((entry) => entry.text);
}
