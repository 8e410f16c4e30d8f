import { Messages, type ApplicationMemory } from '@rehearse/contract';
import { flattenAria, isInsideRow, parseAriaSnapshot, routeBelow, type AriaNode } from './ideas.js';
import { openedAddress, stepValue as q, unescapeStepValue as unescape, type Translation, type TranslatedStep } from './plain-english.js';

/**
 * The nouns of a translated flow checked against the app (issue 44, Build item 2). The grammar
 * reads words alone: "the todo page" becomes `todo.html`, "tick "p"" a checkbox named "p", "the
 * todo box" a field named "todo". The application map's ARIA snapshots say what the app has; where
 * the words name nothing on it and the map shows what was meant, the step is rewritten to that, as
 * a built-in step, with the reason shown to the user. Where the map is empty, or shows nothing
 * that fits, or the words already name something on it, the step stays as the grammar wrote it.
 */

/** One step the map changed, and why (shown in the plain-English dialog under its line). */
export interface MapResolution {
  from: string;
  to: string;
  why: string;
}

/** What the resolution needs: the map's pages, and the environments' base URLs a scenario opens pages under. */
export interface AppOnMap {
  memory: Pick<ApplicationMemory, 'paths'>;
  baseUrls: readonly string[];
}

interface MapPage {
  route: string;
  root: AriaNode;
  nodes: AriaNode[];
}

const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const CHECK = new RegExp(`^I (check|uncheck) ${STRING}$`);
const CHECKED = new RegExp(`^${STRING} should (be|not be) checked$`);
const FILL = new RegExp(`^I fill ${STRING} with ${STRING}$`);
const TYPE = new RegExp(`^I type ${STRING} into ${STRING}$`);
/** The value of any fill or type step, whatever field it names (`I fill the 1st "textbox" with "p"`). */
const TYPED_VALUE = new RegExp(`^I (?:fill .* with ${STRING}|type ${STRING} into .*)$`);
/** A page named by a word, as the grammar guesses it ("the todo page" → `todo.html`). */
const GUESSED_PAGE = /^([\w-]+)\.html$/i;

const CHECKABLE = /^(?:checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/;
const FIELD = /^(?:textbox|searchbox|combobox)$/;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** A word without its plural ("todos" → "todo"), for matching a page's heading to the word that named it. */
const stem = (word: string) => word.toLowerCase().replace(/(?:es|s)$/, '');
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3)
    .map(stem);

function pagesOf(memory: AppOnMap['memory']): MapPage[] {
  return Object.entries(memory.paths).map(([route, entry]) => {
    const root = parseAriaSnapshot(entry.snapshot);
    return { route, root, nodes: flattenAria(root) };
  });
}

/**
 * The translation with each line's steps checked against the map; `resolved` lists, per line, the
 * steps changed and why. A map with no pages changes nothing.
 */
export function resolveOnMap(translation: Translation, app: AppOnMap): Translation & { resolved: MapResolution[][] } {
  const pages = pagesOf(app.memory);
  const resolved: MapResolution[][] = translation.lines.map(() => []);
  if (pages.length === 0) return { ...translation, resolved };
  const nodes = pages.flatMap((page) => page.nodes);
  /** Values the flow typed so far: the items it added, which a later "tick "p"" names. */
  const typed = new Set<string>();
  /** The map's page the flow is on, while that is certain: opened, and nothing clicked or submitted since. */
  let page: MapPage | undefined;
  const lines = translation.lines.map((read, index) => ({
    ...read,
    steps: read.steps.map((step) => {
      const changed = resolveStep(step, { pages, nodes, typed, page, baseUrls: app.baseUrls });
      const [, filled, typedInto] = TYPED_VALUE.exec(step.text) ?? [];
      const value = filled ?? typedInto;
      if (value !== undefined) typed.add(unescape(value).toLowerCase());
      page = pageAfter(changed?.text ?? step.text, page, pages, app.baseUrls);
      if (!changed) return step;
      resolved[index]!.push({ from: step.text, to: changed.text, why: changed.why });
      return { kind: step.kind, text: changed.text };
    }),
  }));
  return { ...translation, lines, steps: lines.flatMap((read) => read.steps), resolved };
}

interface Context {
  pages: MapPage[];
  nodes: AriaNode[];
  typed: ReadonlySet<string>;
  page: MapPage | undefined;
  baseUrls: readonly string[];
}

const CLICK = new RegExp(`^I (?:click|double-click|press|submit) ${STRING}$`);

/**
 * The map's page after `step`: the one an `I open` opens (none when the map lacks it); the same
 * after a step that only types, checks, hovers or asserts, or a click on a link to one of the
 * page's own `#` routes (a filter); unknown after any other click or key press (it may navigate).
 */
function pageAfter(step: string, page: MapPage | undefined, pages: readonly MapPage[], baseUrls: readonly string[]): MapPage | undefined {
  const address = openedAddress(step);
  if (address !== undefined)
    return pages.find((candidate) => routeBelow(candidate.route, baseUrls) === address || candidate.route === address);
  if (!page || !/^I (?:click|double-click|press|submit|select|go|reload|navigate)\b/.test(step)) return page;
  const clicked = CLICK.exec(step)?.[1];
  const link = clicked === undefined ? undefined : page.nodes.find((node) => node.role === 'link' && same(node.name, unescape(clicked)));
  return link?.props['/url']?.startsWith('#') ? page : undefined;
}

function resolveStep(step: TranslatedStep, context: Context): { text: string; why: string } | undefined {
  const address = openedAddress(step.text);
  if (address !== undefined) return resolvePage(address, context);
  const check = CHECK.exec(step.text);
  if (check) {
    const row = rowOf(unescape(check[2]!), context);
    return row && { text: `I ${check[1]} ${row.element}`, why: row.why };
  }
  const checked = CHECKED.exec(step.text);
  if (checked) {
    const row = rowOf(unescape(checked[1]!), context);
    return row && { text: `${row.element} should ${checked[2]} checked`, why: row.why };
  }
  const fill = FILL.exec(step.text);
  if (fill) {
    const field = fieldOf(unescape(fill[1]!), context);
    return field && { text: `I fill ${q(field.name)} with "${fill[2]}"`, why: field.why };
  }
  const typed = TYPE.exec(step.text);
  if (typed) {
    const field = fieldOf(unescape(typed[2]!), context);
    return field && { text: `I type "${typed[1]}" into ${q(field.name)}`, why: field.why };
  }
  return undefined;
}

/**
 * A page the grammar guessed from a word (`todo.html`) that the map does not have: the one page of
 * the map whose main heading or address holds the word ("todos", `/todo/`).
 */
function resolvePage(address: string, { pages, baseUrls }: Context): { text: string; why: string } | undefined {
  const word = GUESSED_PAGE.exec(address)?.[1];
  if (!word) return undefined;
  if (pages.some((page) => page.route.toLowerCase().endsWith(`/${address.toLowerCase()}`))) return undefined;
  const wanted = stem(word);
  const fitting = pages
    .map((page) => ({ page, heading: page.nodes.find((node) => node.role === 'heading')?.name.trim() ?? '' }))
    .filter(({ page, heading }) => words(heading).includes(wanted) || words(page.route).includes(wanted));
  if (fitting.length !== 1) return undefined;
  const { page, heading } = fitting[0]!;
  const route = routeBelow(page.route, baseUrls);
  return { text: `I open ${q(route)}`, why: Messages.plainEnglishMapPage(address, route, heading) };
}

/**
 * A box the words name that no checkbox on the map is named: an item of a list (the flow typed it
 * earlier, or the map shows it in a row with a checkbox), whose own checkbox is meant.
 */
function rowOf(name: string, { nodes, typed }: Context): { element: string; why: string } | undefined {
  if (nodes.some((node) => CHECKABLE.test(node.role) && same(node.name, name))) return undefined;
  const inRow = nodes.some(
    (node) =>
      node.role === 'listitem' &&
      flattenAria(node).some((inner) => CHECKABLE.test(inner.role)) &&
      flattenAria(node).some((inner) => same(inner.text, name) || same(inner.name, name)),
  );
  if (!inRow && !typed.has(name.toLowerCase())) return undefined;
  return { element: `"checkbox" in the item containing ${q(name)}`, why: Messages.plainEnglishMapRowCheckbox(name) };
}

/**
 * A field the words name that no field of the page the flow is on is named: the page's one field
 * sharing a word with them ("the products search box" → "Search products"), else its only field.
 */
function fieldOf(name: string, { page }: Context): { name: string; why: string } | undefined {
  // Only on a page the map holds and the flow is known to be on: another page's fields are unknown.
  if (!page) return undefined;
  // A row's own edit box is not a field of the page (it appears only while an item is edited).
  const fields = page.nodes.filter((node) => FIELD.test(node.role) && !isInsideRow(page.root, node));
  const names = [...new Set(fields.map((field) => field.name.trim()).filter((fieldName) => fieldName !== ''))];
  if (names.length === 0 || names.some((fieldName) => fieldName.toLowerCase().includes(name.trim().toLowerCase()))) return undefined;
  const wanted = new Set(words(name));
  const sharing = names.filter((fieldName) => words(fieldName).some((word) => wanted.has(word)));
  if (sharing.length === 1) return { name: sharing[0]!, why: Messages.plainEnglishMapField(name, sharing[0]!, false) };
  if (sharing.length === 0 && names.length === 1) return { name: names[0]!, why: Messages.plainEnglishMapField(name, names[0]!, true) };
  return undefined;
}
