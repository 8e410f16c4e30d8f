import { BUILT_IN_STEP_PATTERNS, suggestSteps, type ApplicationMemory } from '@rehearse/contract';
import { parseAriaSnapshot, type AriaNode } from './ideas.js';
import { stepValue as q } from './plain-english.js';

/**
 * What a clause no step reads may have meant (issue 44: ask instead of refusing): the built-in
 * steps closest to its words, then steps on elements of the application map that share a word
 * with it ("press the big blue order button" → `I click "Place order"`). Each candidate is a
 * built-in step written out whole, so picking one makes the line read.
 */

const MAX_CANDIDATES = 5;
/** Words that name no element: verbs of the grammar, articles, the UI's generic nouns. */
const STOP_WORDS = new Set(
  'the a an and then to on in into of for with it its this that my our your please should be is are see can click press tap hit push select choose fill type enter open go visit button link field box page app check mark'.split(
    ' ',
  ),
);

const quoted = (text: string) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));

interface MapElement {
  role: string;
  name: string;
}

/** The named controls of every page of the map, each once. */
export function mapElements(memory: Pick<ApplicationMemory, 'paths'>): MapElement[] {
  const seen = new Map<string, MapElement>();
  const visit = (node: AriaNode) => {
    if (/^(?:button|link|textbox|searchbox|combobox|checkbox|radio|tab|menuitem)$/.test(node.role) && node.name.trim() !== '')
      seen.set(`${node.role}\n${node.name}`, { role: node.role, name: node.name });
    node.children.forEach(visit);
  };
  for (const entry of Object.values(memory.paths)) visit(parseAriaSnapshot(entry.snapshot));
  return [...seen.values()];
}

/** The step that acts on `element` the way the clause asks (a value to type, a box to tick, else a click). */
function stepOn(element: MapElement, clause: string): string {
  const value = quoted(clause).find((text) => text.toLowerCase() !== element.name.toLowerCase());
  if (element.role === 'combobox' && value !== undefined) return `I select ${q(value)} from ${q(element.name)}`;
  if (/^(?:textbox|searchbox|combobox)$/.test(element.role))
    return value !== undefined ? `I fill ${q(element.name)} with ${q(value)}` : `${q(element.name)} should be visible`;
  if (/^(?:checkbox|radio)$/.test(element.role))
    return /\b(?:un-?(?:check|tick)|clear)\b/i.test(clause) ? `I uncheck ${q(element.name)}` : `I check ${q(element.name)}`;
  return `I click ${q(element.name)}`;
}

/** Up to five whole built-in steps the clause may have meant; none when nothing comes close. */
export function candidatesFor(clause: string, elements: readonly MapElement[]): string[] {
  const text = clause.trim().replace(/^(?:given|when|then|and|but)\s+/i, '');
  const byPattern = suggestSteps(/^I\b/.test(text) ? text : `I ${text}`, BUILT_IN_STEP_PATTERNS, 3);
  const words = new Set(wordsOf(text.replace(/"(?:[^"\\]|\\.)*"/g, ' ')));
  const byMap = elements
    .map((element) => ({ element, shared: wordsOf(element.name).filter((word) => words.has(word)).length }))
    .filter((entry) => entry.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.element.name.length - b.element.name.length)
    .map((entry) => stepOn(entry.element, text));
  return [...new Set([...byMap, ...byPattern])].slice(0, MAX_CANDIDATES);
}
