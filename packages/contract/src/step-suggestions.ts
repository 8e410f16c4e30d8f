import { ELEMENT_PARAMETER, SCOPE_CONTAINERS } from './builtin-steps.js';

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
  // Optional text and alternatives are settled in the pattern, before values that may hold "/" or "(" go in.
  const text = pattern
    .replace(/\(([^)]*)\)/g, (_, optional: string) => (numbers[0] === '1' ? '' : optional))
    .replace(/(\S+)\/\S+/g, '$1')
    .replace(/\{(string|element|int|float)\}/g, (_, type: string) => {
      if (type === 'int' || type === 'float') return numbers[n++] ?? '1';
      const value = values[v++];
      if (value === undefined) missing = true;
      return value ?? '';
    })
    .replace('{storage}', storage);
  return missing ? undefined : text;
}

/** Closest patterns first, at most `limit`, each written out with the step's values. */
export function suggestSteps(text: string, patterns: readonly string[], limit = 3): string[] {
  // A value whose closing quote is missing is offered closed (`I open "/` → `I open "/"`).
  const step = stepTokens(unclosedQuote(text) === undefined ? text : `${text}"`);
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

/** What follows a quote that is never closed, if the text has one. */
function unclosedQuote(text: string): string | undefined {
  const quotes = [...text.matchAll(/(?<!\\)"/g)];
  return quotes.length % 2 === 1 ? text.slice(quotes.at(-1)!.index + 1) : undefined;
}

/** Words that may follow an element's quoted name in a built-in step (`the "todo" items should be:`). */
const AFTER_A_VALUE = new Set([
  'should',
  'with',
  'to',
  'from',
  'into',
  'in',
  'inside',
  'within',
  'on',
  'as',
  'and',
  'set',
  'item',
  'items',
]);

/**
 * Why a step nothing matches cannot be read as a step at all, when the reason is in its own text:
 * a quote never closed, a container a scope cannot name, a kind word after an element. Undefined
 * otherwise (then the closest phrasings are the help). Said where the step is shown: the runner's
 * report and dry run, the editor.
 */
export function stepTextProblem(text: string): string | undefined {
  const opened = unclosedQuote(text);
  if (opened !== undefined) {
    return `The quote before "${opened.length > 30 ? `${opened.slice(0, 30)}…` : opened}" is never closed: end the value with "`;
  }
  const containers = new Set<string>(SCOPE_CONTAINERS);
  // "in the widget with "x"" or "the widget containing "x"" ("fill the box with "x"" is a value, not a scope).
  for (const match of text.matchAll(
    /(?:^|\s)(?:(?:in|inside|within) the ((?:\w+ )?\w+) (?:containing|with)|the ((?:\w+ )?\w+) containing) "/g,
  )) {
    const words = (match[1] ?? match[2])!;
    const last = words.split(' ').at(-1)!;
    if (containers.has(words) || containers.has(last)) continue;
    return `"${last}" is not a container a step can name: say "in the item containing "…"" with one of ${SCOPE_CONTAINERS.join(', ')}`;
  }
  const kind = /"((?:[^"\\]|\\.)*)" ([a-z]+)(?=$| should\b)/i.exec(text);
  if (kind && !AFTER_A_VALUE.has(kind[2]!.toLowerCase()))
    return `Built-in steps need no kind word after an element ("${kind[2]}" after "${kind[1]}"): name it by its words alone, or by its markup as "css=…" or "xpath=…"`;
  return undefined;
}
