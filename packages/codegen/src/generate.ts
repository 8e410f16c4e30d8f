import type { RecordedCommand, RecordedEffect, RecordedElement } from '@rehearse/contract';
import { parseStepFile, scanStepDefinitions, spliceStepFile, StepMatcher } from './step-files.js';

// Recorded commands → Gherkin steps, one step-definition file per page and one locator file per
// page (DESIGN §7). Pure functions: the server's publisher reads the workspace, calls these and
// commits what they return. No browser here: the API process imports this package.

export const STEP_DEFINITIONS_DIR = 'features/step_definitions';
export const LOCATORS_DIR = `${STEP_DEFINITIONS_DIR}/locators`;

/** One generated step: its Gherkin line and, unless a built-in step covers it, its definition. */
export interface GeneratedStep {
  keyword: 'Given' | 'When' | 'Then';
  text: string;
  /** A data table under the step, one row per item (the items of a list, in order). */
  table?: string[];
  definition?: StepDefinition;
}

/** A Gherkin data-table cell: `|`, `\` and new lines escaped as the Gherkin grammar reads them. */
const tableCell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '\\n');

/** A generated step's lines in a scenario: the step, then its table rows indented under it. */
export function stepLines(step: GeneratedStep, indent: string, keyword: string): string[] {
  return [`${indent}${keyword} ${step.text}`, ...(step.table ?? []).map((cell) => `${indent}  | ${tableCell(cell)} |`)];
}

export interface StepDefinition {
  page: string;
  path: string;
  /** The cucumber expression. */
  pattern: string;
  keyword: 'When' | 'Then';
  /** Parameters the expression passes, in order. */
  args: string[];
  body: string;
  elementKey?: string;
  element?: RecordedElement;
}

export interface GeneratedFiles {
  /** The scenario block (`Scenario:` line and steps), ready for push-scenario style splicing. */
  scenarioText: string;
  steps: GeneratedStep[];
  /** Whole new contents of every step and locator file touched. */
  files: { path: string; content: string }[];
  /** `{{key}}` references to secrets (or typed passwords) the test data must provide. */
  secretKeys: string[];
  /**
   * What each generated step visibly did when recorded, by step text and occurrence (the
   * scenario's entry of the feature's effects file); empty when nothing was recorded.
   */
  effects: Record<string, (RecordedEffect | null)[]>;
}

/** `/login.html` → `login`, `/` → `home`, `/account/orders?id=1` → `account_orders`. */
export function pageName(path: string): string {
  const clean = (path.split(/[?#]/)[0] ?? '').replace(/\.(html?|php|aspx?|jsp)$/i, '');
  const name = clean
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return name === '' || name === 'index' ? 'home' : name.slice(0, 60);
}

function snake(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'element'
  );
}

/** Element names go into step text between quotes and into cucumber expressions literally. */
function quoted(name: string): string {
  return name.replace(/"/g, "'").replace(/\s+/g, ' ').trim();
}

/** Cucumber expression special characters: `(` optional text, `/` alternation, `{` parameters. */
function escapeExpression(text: string): string {
  return text.replace(/([\\(){}/])/g, '\\$1');
}

/** A Gherkin string argument; cucumber's `{string}` accepts `\"` inside double quotes. */
function stringArg(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, ' ')}"`;
}

function noun(element: RecordedElement | undefined): string {
  const role = element?.fingerprint?.role ?? element?.locators.find((l) => l.kind === 'role')?.role;
  switch (Array.isArray(role) ? role[0] : role) {
    case 'button':
      return 'button';
    case 'link':
      return 'link';
    case 'checkbox':
      return 'checkbox';
    case 'radio':
      return 'option';
    case 'tab':
      return 'tab';
    case 'textbox':
    case 'searchbox':
    case 'combobox':
    case 'spinbutton':
    case 'listbox':
      return 'field';
    case 'heading':
      return 'heading';
    case 'listitem':
    case 'option':
      return 'item';
    case 'row':
      return 'row';
    default:
      return 'element';
  }
}

interface Draft {
  keyword: 'Given' | 'When' | 'Then';
  /** Step text with `{string}` where `args` go. */
  textTemplate: string;
  args: string[];
  body?: string;
  /** A data table under the step (verifyItems: the items in order). */
  table?: string[];
  element?: RecordedElement;
  /** drag: the element dropped on, bound to a key of its own. */
  target?: RecordedElement;
  page: string;
  path: string;
}

const ELEMENT = 'elements[KEY]';
const TARGET = 'elements[TARGET_KEY]';

function draft(command: RecordedCommand): Draft | null {
  const page = pageName(command.path);
  const el = command.element;
  const name = el ? quoted(el.name) : '';
  const base = { page, path: command.path.split(/[?#]/)[0] || '/', element: el };
  const value = command.value ?? '';
  switch (command.type) {
    case 'navigate':
      return { ...base, element: undefined, keyword: 'Given', textTemplate: `I open ${stringArg(value)}`, args: [] };
    case 'verifyText':
      return { ...base, element: undefined, keyword: 'Then', textTemplate: `I should see ${stringArg(value)}`, args: [] };
    // Built-in steps: nothing page-specific to generate.
    case 'verifyNoText':
      return { ...base, element: undefined, keyword: 'Then', textTemplate: `I should not see ${stringArg(value)}`, args: [] };
    case 'verifyUrl':
      return { ...base, element: undefined, keyword: 'Then', textTemplate: `the URL should contain ${stringArg(value)}`, args: [] };
    case 'verifyCount':
      return {
        ...base,
        element: undefined,
        keyword: 'Then',
        textTemplate: `I should see ${command.count ?? 0} ${stringArg(value)} ${command.count === 1 ? 'item' : 'items'}`,
        args: [],
      };
    case 'verifyItems':
      return {
        ...base,
        element: undefined,
        keyword: 'Then',
        textTemplate: `the ${stringArg(value)} items should be:`,
        args: [],
        table: command.items ?? [],
      };
    case 'verifyClass':
    case 'verifyNoClass':
      return {
        ...base,
        keyword: 'Then',
        textTemplate: `"${name}" ${noun(el)} should ${command.type === 'verifyClass' ? 'have' : 'not have'} the class {string}`,
        args: [value],
        body: `await context.web.verifyState(${ELEMENT}, { kind: '${command.type === 'verifyClass' ? 'class' : 'no-class'}', value }, {}, {}, this);`,
      };
    case 'verifyChecked': {
      const state = value === 'unchecked' ? 'unchecked' : 'checked';
      return {
        ...base,
        keyword: 'Then',
        textTemplate: `"${name}" ${noun(el)} should ${state === 'checked' ? 'be checked' : 'not be checked'}`,
        args: [],
        body: `await context.web.verifyState(${ELEMENT}, { kind: 'checked', checked: ${state === 'checked'} }, {}, {}, this);`,
      };
    }
    case 'press':
      if (!el) return { ...base, keyword: 'When', textTemplate: `I press ${stringArg(value)}`, args: [] };
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I press {string} in "${name}"`,
        args: [value],
        body: `await context.web.press(${ELEMENT}, key, {}, {}, this);`,
      };
    case 'click':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I click on "${name}" ${noun(el)}`,
        args: [],
        body: `await context.web.click(${ELEMENT}, {}, {}, this);`,
      };
    case 'doubleClick':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I double-click on "${name}" ${noun(el)}`,
        args: [],
        body: `await context.web.doubleClick(${ELEMENT}, {}, {}, this);`,
      };
    case 'rightClick':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I right-click on "${name}" ${noun(el)}`,
        args: [],
        body: `await context.web.rightClick(${ELEMENT}, {}, {}, this);`,
      };
    case 'hover':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I hover over "${name}" ${noun(el)}`,
        args: [],
        body: `await context.web.hover(${ELEMENT}, {}, {}, this);`,
      };
    case 'drag':
      // "onto", not the built-in step's "to": one step text, one definition.
      if (!command.target) return null;
      return {
        ...base,
        target: command.target,
        keyword: 'When',
        textTemplate: `I drag "${name}" onto "${quoted(command.target.name)}"`,
        args: [],
        body: `await context.web.dragTo(${ELEMENT}, ${TARGET}, {}, {}, this);`,
      };
    case 'fill':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I fill in "${name}" with {string}`,
        args: [value],
        body: `await context.web.fill(${ELEMENT}, value, {}, {${command.secret ? ' mask: true ' : ''}}, this);`,
      };
    case 'select':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I select {string} in "${name}"`,
        args: [value],
        body: `await context.web.select(${ELEMENT}, value, {}, {}, this);`,
      };
    case 'check':
    case 'uncheck':
      return {
        ...base,
        keyword: 'When',
        textTemplate: `I ${command.type} "${name}" ${noun(el)}`,
        args: [],
        body: `await context.web.check(${ELEMENT}, {}, { checked: ${command.type === 'check'} }, this);`,
      };
    case 'verifyVisible':
      return {
        ...base,
        keyword: 'Then',
        textTemplate: `"${name}" ${noun(el)} should be visible`,
        args: [],
        body: `await context.web.verifyVisible(${ELEMENT}, {}, {}, this);`,
      };
    case 'verifyValue':
      return {
        ...base,
        keyword: 'Then',
        textTemplate: `"${name}" ${noun(el)} should have value {string}`,
        args: [value],
        body: `await context.web.verifyValue(${ELEMENT}, value, {}, {}, this);`,
      };
  }
}

/** What a step file looks like once parsed back: its text as it is, and its step blocks by pattern. */
interface PageFile {
  /** The file in the workspace, hand-written code and all; undefined for a new page. */
  text: string | undefined;
  blocks: Map<string, string>;
}

/**
 * Spec 02 §9 "Default step timeout 60 s in generated code, 120 s per step": each recorded step
 * carries its own cucumber timeout of 120 s (the runner's default for other steps stays 60 s). A
 * missing element still fails at the command timeout (10 s), not here: this only bounds a step
 * that keeps running (a slow navigation, a healing search).
 */
export const GENERATED_STEP_TIMEOUT_MS = 120_000;

function renderBlock(definition: StepDefinition): string {
  const params = definition.args.length === 0 ? '' : definition.body.includes('key,') ? 'key' : 'value';
  const body = definition.body.replace(ELEMENT, `elements[${JSON.stringify(definition.elementKey)}]`);
  return [
    `/** @recorder @path ${definition.path} */`,
    `// @step ${JSON.stringify(definition.pattern)}`,
    `${definition.keyword}(${JSON.stringify(definition.pattern)}, { timeout: ${GENERATED_STEP_TIMEOUT_MS} }, async function (${params}) {`,
    `  ${body}`,
    `});`,
    `// @end`,
    '',
  ].join('\n');
}

function stepFileHeader(page: string): string {
  return [
    `// Steps recorded on the "${page}" page by the Rehearse recorder. Each step sits between its`,
    `// @step and @end lines so recording it again replaces only that block; elements live in`,
    `// locators/${page}.json (found by ranked candidates, healed by their fingerprint).`,
    `import { When, Then } from '@cucumber/cucumber';`,
    `import { context, locatorsFile } from '@rehearse/runner';`,
    '',
    `const elements = locatorsFile(import.meta.url, 'locators/${page}.json');`,
    '',
    '',
  ].join('\n');
}

export interface GenerateInput {
  scenarioName: string;
  commands: RecordedCommand[];
  /** Current contents of files under `features/step_definitions/` (path → text), to merge into. */
  existing: Map<string, string>;
  tags?: string[];
}

/**
 * Turns a recording into a scenario and the step and locator files it needs, merged into what the
 * workspace already holds: a page's file keeps its other steps, and a step recorded again
 * replaces its own block and element.
 */
export function generate(input: GenerateInput): GeneratedFiles {
  // Each draft with its own command (a command that makes no step, such as a drag with nowhere to drop, is skipped).
  const drafts = input.commands.flatMap((command) => {
    const d = draft(command);
    return d ? [{ d, command }] : [];
  });
  // Patterns other pages already define: a step text must not mean two things.
  const patternOwner = new Map<string, string>();
  for (const [path, content] of input.existing) {
    const match = /^features\/step_definitions\/([^/]+)\.mjs$/.exec(path);
    if (!match) continue;
    for (const pattern of parseStepFile(content).keys()) patternOwner.set(pattern, match[1]!);
  }

  const pages = new Map<string, { file: PageFile; locators: Record<string, LocatorEntry> }>();
  const pageOf = (page: string) => {
    let entry = pages.get(page);
    if (!entry) {
      const stepText = input.existing.get(`${STEP_DEFINITIONS_DIR}/${page}.mjs`);
      const locatorText = input.existing.get(`${LOCATORS_DIR}/${page}.json`);
      let locators: Record<string, LocatorEntry> = {};
      try {
        locators = locatorText ? (JSON.parse(locatorText) as Record<string, LocatorEntry>) : {};
      } catch {
        locators = {};
      }
      entry = { file: { text: stepText, blocks: stepText ? parseStepFile(stepText) : new Map<string, string>() }, locators };
      pages.set(page, entry);
    }
    return entry;
  };

  // Steps written by hand (not in a recorder block), in any step file of the workspace.
  const handWritten = new StepMatcher(
    [...input.existing]
      .filter(([path]) => /\.(mjs|js|cjs)$/.test(path))
      .flatMap(([path, content]) =>
        scanStepDefinitions(path, content).definitions.filter((definition) => definition.source !== 'recorder'),
      ),
  );
  const steps: GeneratedStep[] = [];
  const secretKeys = new Set<string>();
  const effects: Record<string, (RecordedEffect | null)[]> = {};
  let anyEffect = false;
  // Every step counts towards its text's occurrences (the runner counts them the same way); only
  // generated steps, the ones healing can change, keep an effect.
  const noteEffect = (text: string, effect: RecordedEffect | undefined) => {
    (effects[text] ??= []).push(effect ?? null);
    anyEffect ||= effect !== undefined;
  };
  for (const { d, command } of drafts) {
    if (command.secret && command.value) for (const m of command.value.matchAll(/\{\{([^}]+)\}\}/g)) secretKeys.add(m[1]!.trim());
    let pattern = d.textTemplate;
    let text = d.textTemplate;
    for (const arg of d.args) text = text.replace('{string}', stringArg(arg));
    if (!d.body || !d.element) {
      steps.push({ keyword: d.keyword, text, ...(d.table ? { table: d.table } : {}) });
      noteEffect(text, undefined);
      continue;
    }
    const owner = patternOf(pattern);
    if (patternOwner.has(owner) && patternOwner.get(owner) !== d.page) {
      pattern += ` on the ${d.page.replace(/_/g, ' ')} page`;
      text += ` on the ${d.page.replace(/_/g, ' ')} page`;
    }
    const entry = pageOf(d.page);
    let key = `${snake(d.element.name)}_${noun(d.element)}`;
    // Found only by the row it sits in (a row's "×"): the step says which row from the start.
    const row = onlyTheRowTellsApart(d.element);
    if (row) {
      key += row.keySuffix;
      pattern += row.suffix;
      text += row.suffix;
    }
    const bound = bind(entry.locators, key, d.element, row !== undefined);
    key = bound.key;
    pattern += bound.suffix;
    text += bound.suffix;
    let body = d.body;
    if (d.target) {
      const target = bind(entry.locators, `${snake(d.target.name)}_${noun(d.target)}`, d.target, false);
      pattern += target.suffix.replace(/^ in the/, ' dropped in the');
      text += target.suffix.replace(/^ in the/, ' dropped in the');
      body = body.replace(TARGET, `elements[${JSON.stringify(target.key)}]`);
    }
    // A step someone wrote by hand that would also match this text makes cucumber call it
    // ambiguous: the recorded step says where it was recorded, or that it is the recorded one.
    for (const suffix of [` on the ${d.page.replace(/_/g, ' ')} page`, ' as recorded']) {
      if (handWritten.match(text) === -1) break;
      if (text.endsWith(suffix)) continue;
      pattern += suffix;
      text += suffix;
    }
    pattern = patternOf(pattern);
    const definition: StepDefinition = {
      page: d.page,
      path: d.path,
      pattern,
      keyword: d.keyword === 'Then' ? 'Then' : 'When',
      args: d.args,
      body,
      elementKey: key,
      element: d.element,
    };
    entry.file.blocks.set(pattern, renderBlock(definition));
    patternOwner.set(pattern, d.page);
    steps.push({ keyword: d.keyword, text, definition });
    noteEffect(text, command.effect);
  }

  // Gherkin reads better with And for a repeated keyword.
  const lines: string[] = [];
  let previous: string | undefined;
  for (const step of steps) {
    lines.push(...stepLines(step, '    ', step.keyword === previous ? 'And' : step.keyword));
    previous = step.keyword;
  }
  const tags = ['@recorder', ...(input.tags ?? [])];
  const scenarioText = [`  ${tags.join(' ')}`, `  Scenario: ${input.scenarioName}`, ...lines].join('\n');

  const files: { path: string; content: string }[] = [];
  for (const [page, entry] of pages) {
    files.push({
      path: `${STEP_DEFINITIONS_DIR}/${page}.mjs`,
      content: spliceStepFile(entry.file.text, stepFileHeader(page), entry.file.blocks),
    });
    files.push({ path: `${LOCATORS_DIR}/${page}.json`, content: `${JSON.stringify(entry.locators, null, 2)}\n` });
  }
  return { scenarioText, steps, files, secretKeys: [...secretKeys], effects: anyEffect ? effects : {} };
}

/**
 * Binds an element to a key of the page's locator file. A name already bound to another element
 * of the page (another row's "Remove") is never re-bound: the earlier scenarios keep theirs, and
 * the step says which one it means (the suffix).
 */
function bind(
  locators: Record<string, LocatorEntry>,
  key: string,
  element: RecordedElement,
  namedByRow: boolean,
): { key: string; suffix: string } {
  let suffix = '';
  let byRow = namedByRow;
  if (locators[key] && !sameRecordedElement(locators[key]!, element)) {
    const found = distinguishing(element, (candidate) => {
      const taken = locators[`${key}${candidate}`];
      return !taken || sameRecordedElement(taken, element);
    });
    key += found.keySuffix;
    suffix = found.suffix;
    byRow ||= found.byRow;
  }
  locators[key] = entryOf(element, byRow);
  return { key, suffix };
}

/** A locator file's entry: the element's candidates, and when its step names its row, the row as a scope. */
type LocatorEntry = Pick<RecordedElement, 'name' | 'locators' | 'fingerprint'> & { scope?: { container: 'item' | 'row'; text: string } };

/**
 * What the locator file keeps of an element. A step that names the element's row (`… in the item
 * containing "feed the cat"`) is bound to that row: its candidates are the ones found inside the
 * row, and the runner looks only there, so a look-alike in another row can never answer for it.
 */
function entryOf(element: RecordedElement, byRow: boolean): LocatorEntry {
  const fingerprint = element.fingerprint ? { fingerprint: element.fingerprint } : {};
  if (byRow && element.row)
    return {
      name: element.name,
      locators: element.row.locators,
      ...fingerprint,
      scope: { container: element.row.container, text: element.row.text },
    };
  return { name: element.name, locators: element.locators, ...fingerprint };
}

/** The same element recorded again: a locator candidate in common other than a positional CSS path, or the very same candidates. */
function sameRecordedElement(known: LocatorEntry, recorded: RecordedElement): boolean {
  const ids = (element: Pick<RecordedElement, 'locators'>) => element.locators.map((candidate) => JSON.stringify(candidate));
  // Bound to a row: the same row, found inside it the same way.
  if (known.scope) return recorded.row?.text === known.scope.text && JSON.stringify(ids(known)) === JSON.stringify(ids(recorded.row));
  if (JSON.stringify(ids(known)) === JSON.stringify(ids(recorded))) return true;
  // Positional CSS differs as a list grows; anything else (a role and name, a text-anchored XPath)
  // finds the element by what it shows.
  const positional = (candidate: RecordedElement['locators'][number]) => candidate.kind === 'css' && !candidate.value.startsWith('xpath=');
  const stable = new Set(known.locators.filter((candidate) => !positional(candidate)).map((candidate) => JSON.stringify(candidate)));
  return recorded.locators.some((candidate) => !positional(candidate) && stable.has(JSON.stringify(candidate)));
}

/**
 * What tells an element apart from another of the same name on its page: the row it sits in
 * (` in the row containing "Grace"`), else a number (` #2`). `free` says whether a key suffix is
 * still unbound (or bound to this very element).
 */
function distinguishing(
  element: RecordedElement,
  free: (keySuffix: string) => boolean,
): { suffix: string; keySuffix: string; byRow: boolean } {
  const container = element.fingerprint?.container;
  if (container) {
    const row = rowSuffix(container);
    if (free(row.keySuffix)) return { ...row, byRow: true };
  }
  for (let n = 2; ; n += 1) if (free(`_${n}`)) return { suffix: ` #${n}`, keySuffix: `_${n}`, byRow: false };
}

/**
 * The row suffix of an element that nothing but its row finds (no role and name, label or text
 * of its own that is unique), unless its name already is the row's text (a todo's checkbox).
 */
function onlyTheRowTellsApart(element: RecordedElement): { suffix: string; keySuffix: string } | undefined {
  const container = element.fingerprint?.container;
  if (!container || quoted(container.text) === quoted(element.name) || element.locators[0]?.kind !== 'css') return undefined;
  return rowSuffix(container);
}

function rowSuffix(container: { tag: string; text: string }): { suffix: string; keySuffix: string } {
  const word = container.tag === 'tr' ? 'row' : 'item';
  return { suffix: ` in the ${word} containing "${quoted(container.text)}"`, keySuffix: `_in_${snake(container.text)}` };
}

/** The cucumber expression of a step template: literal text escaped, `{string}` kept. */
function patternOf(template: string): string {
  return template
    .split('{string}')
    .map((part) => escapeExpression(part.replace(/\\([\\(){}/])/g, '$1')))
    .join('{string}');
}
