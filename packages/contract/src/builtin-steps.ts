/**
 * The runner's built-in plain-English steps: ONE catalogue, read by the runner (it registers a
 * step definition per entry), the workspace's step matcher, the editor's completion, the in-product
 * reference and the offline grammar. A scenario step matching one of these runs without generated
 * code; the workspace reports it as implemented, source "user".
 *
 * Patterns are cucumber expressions. `{element}` names an element by its visible words, optionally
 * as "the 2nd "Save"" and/or scoped "… in the row containing "feed the cat"" (ELEMENT_PARAMETER).
 */

/** What a step is for; the reference page and completion group steps by it. */
export type StepFamily =
  | 'navigation'
  | 'tabs and dialogs'
  | 'click and hover'
  | 'typing'
  | 'choosing'
  | 'files and dragging'
  | 'text assertions'
  | 'element assertions'
  | 'count and lists'
  | 'page assertions'
  | 'memory'
  | 'storage and cookies'
  | 'waiting';

export interface BuiltInStepParameter {
  name: string;
  type: 'string' | 'int' | 'element' | 'table';
  description: string;
}

export interface BuiltInStep {
  /** Stable name of the step (the runner's implementation is keyed by it). */
  id: string;
  /** The cucumber expression. */
  pattern: string;
  family: StepFamily;
  description: string;
  /** A step text that matches the pattern, as a person would write it. */
  example: string;
  parameters: readonly BuiltInStepParameter[];
}

/** Container words a scope may name: "in the row containing "X"". */
export const SCOPE_CONTAINERS = [
  'item',
  'row',
  'list item',
  'card',
  'section',
  'form',
  'dialog',
  'list',
  'table',
  'region',
  'group',
] as const;
export type ScopeContainer = (typeof SCOPE_CONTAINERS)[number];

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';

const CONTAINER_WORDS = [...SCOPE_CONTAINERS].sort((a, b) => b.length - a.length).join('|');

/**
 * The `{element}` parameter type: `"Save"`, `the 2nd "Save"`, `"Save" in the dialog containing
 * "Delete all todos?"`, or a container itself, `the item containing "feed the cat"`. Capture
 * groups: ordinal, name, container, container text, then the container itself and its text.
 */
export const ELEMENT_PARAMETER = {
  name: 'element',
  regexp: new RegExp(
    `(?:(?:the (\\d+)(?:st|nd|rd|th) )?${QUOTED}(?: (?:in|inside|within) the (${CONTAINER_WORDS}) (?:containing|with) ${QUOTED})?|the (${CONTAINER_WORDS}) (?:containing|with) ${QUOTED})`,
  ),
} as const;

/** The `{storage}` parameter type: which of the page's storages a step means. */
export const STORAGE_PARAMETER = { name: 'storage', regexp: /local|session/ } as const;

/** The parameter types built-in steps use beyond cucumber's defaults, for every matcher to register. */
export const STEP_PARAMETER_TYPES = [ELEMENT_PARAMETER, STORAGE_PARAMETER] as const;

/** What an `{element}` parameter says. */
export interface ElementPhrase {
  name: string;
  /** 1-based: "the 2nd" is 2. */
  nth?: number;
  scope?: { container: ScopeContainer; text: string };
  /** The scope's container is the element ("the item containing …"); `name` is empty. */
  itself?: true;
}

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

/** Reads the capture groups of ELEMENT_PARAMETER into an ElementPhrase. */
export function elementPhrase(
  nth: string | undefined,
  name: string | undefined,
  container: string | undefined,
  text: string | undefined,
  itself?: string,
  itselfText?: string,
): ElementPhrase {
  if (itself && itselfText !== undefined)
    return { name: '', scope: { container: itself as ScopeContainer, text: unescape(itselfText) }, itself: true };
  return {
    name: unescape(name ?? ''),
    ...(nth ? { nth: Number(nth) } : {}),
    ...(container && text !== undefined ? { scope: { container: container as ScopeContainer, text: unescape(text) } } : {}),
  };
}

const el = (
  description = 'the element, by its visible words; may say "the 2nd …" and "… in the row containing …"',
): BuiltInStepParameter => ({
  name: 'element',
  type: 'element',
  description,
});
const str = (name: string, description: string): BuiltInStepParameter => ({ name, type: 'string', description });

export const BUILT_IN_STEPS = [
  // Navigation
  {
    id: 'open',
    pattern: 'I open {string}',
    family: 'navigation',
    description: "Opens a page, relative to the environment's base URL; fails when the page answers with an HTTP error status.",
    example: 'I open "/"',
    parameters: [str('url', 'an address, absolute or relative to the base URL')],
  },
  {
    id: 'reload',
    pattern: 'I reload the page',
    family: 'navigation',
    description: 'Reloads the current page.',
    example: 'I reload the page',
    parameters: [],
  },
  {
    id: 'back',
    pattern: 'I go back',
    family: 'navigation',
    description: 'Goes back one page in the browser history.',
    example: 'I go back',
    parameters: [],
  },
  {
    id: 'forward',
    pattern: 'I go forward',
    family: 'navigation',
    description: 'Goes forward one page in the browser history.',
    example: 'I go forward',
    parameters: [],
  },
  // Tabs and dialogs
  {
    id: 'switchTab',
    pattern: 'I switch to the new tab',
    family: 'tabs and dialogs',
    description: 'Continues in the tab (or window) the page opened most recently.',
    example: 'I switch to the new tab',
    parameters: [],
  },
  {
    id: 'acceptDialog',
    pattern: 'I accept the next dialog',
    family: 'tabs and dialogs',
    description: 'Answers OK to the next alert, confirm or prompt the page shows. Write it before the step that opens the dialog.',
    example: 'I accept the next dialog',
    parameters: [],
  },
  {
    id: 'dismissDialog',
    pattern: 'I dismiss the next dialog',
    family: 'tabs and dialogs',
    description: 'Answers Cancel to the next alert, confirm or prompt the page shows. Write it before the step that opens the dialog.',
    example: 'I dismiss the next dialog',
    parameters: [],
  },
  {
    id: 'dialogSaid',
    pattern: 'the dialog should have said {string}',
    family: 'tabs and dialogs',
    description: 'The last dialog the page showed had this message.',
    example: 'the dialog should have said "Delete all todos?"',
    parameters: [str('message', 'the whole message')],
  },
  // Click and hover
  {
    id: 'click',
    pattern: 'I click {element}',
    family: 'click and hover',
    description: 'Clicks a button, link or other element.',
    example: 'I click "Clear completed"',
    parameters: [el()],
  },
  {
    id: 'doubleClick',
    pattern: 'I double-click {element}',
    family: 'click and hover',
    description: 'Double-clicks an element (to edit a todo, say).',
    example: 'I double-click "feed the cat"',
    parameters: [el()],
  },
  {
    id: 'rightClick',
    pattern: 'I right-click {element}',
    family: 'click and hover',
    description: 'Right-clicks an element (opens its context menu).',
    example: 'I right-click "Right-click me"',
    parameters: [el()],
  },
  {
    id: 'hover',
    pattern: 'I hover over {element}',
    family: 'click and hover',
    description: 'Moves the mouse over an element.',
    example: 'I hover over "feed the cat"',
    parameters: [el()],
  },
  {
    id: 'scrollTo',
    pattern: 'I scroll to {element}',
    family: 'click and hover',
    description: 'Scrolls until the element is in view.',
    example: 'I scroll to "End of the tools"',
    parameters: [el()],
  },
  // Typing
  {
    id: 'fill',
    pattern: 'I fill {element} with {string}',
    family: 'typing',
    description: 'Replaces the value of a field.',
    example: 'I fill "What needs to be done?" with "buy some cheese"',
    parameters: [
      el('the field, by its label, placeholder or accessible name'),
      str('value', 'the new value; {{name}} uses test data or a remembered value'),
    ],
  },
  {
    id: 'clear',
    pattern: 'I clear {element}',
    family: 'typing',
    description: 'Empties a field.',
    example: 'I clear "What needs to be done?"',
    parameters: [el('the field')],
  },
  {
    id: 'type',
    pattern: 'I type {string} into {element}',
    family: 'typing',
    description: 'Types text into a field key by key, as a person would (key events fire for every character).',
    example: 'I type "ctrl" into "Shortcut"',
    parameters: [str('text', 'the characters to type'), el('the field')],
  },
  // "on", not "in": the recorder's generated steps read `I press "Enter" in "Email"`, and a text
  // matching two definitions fails as ambiguous.
  {
    id: 'pressIn',
    pattern: 'I press {string} on {element}',
    family: 'typing',
    description: 'Presses a key in a field: Enter, Escape, Tab, Control+A …',
    example: 'I press "Enter" on "What needs to be done?"',
    parameters: [str('key', 'a key name'), el('the field')],
  },
  {
    id: 'press',
    pattern: 'I press {string}',
    family: 'typing',
    description: 'Presses a key on whatever has the focus.',
    example: 'I press "Enter"',
    parameters: [str('key', 'a key name')],
  },
  {
    id: 'focus',
    pattern: 'I focus {element}',
    family: 'typing',
    description: 'Puts the keyboard focus on the element, as tabbing to it would.',
    example: 'I focus "What needs to be done?"',
    parameters: [el()],
  },
  {
    id: 'blur',
    pattern: 'I blur {element}',
    family: 'typing',
    description: 'Moves the focus out of the element, as clicking elsewhere would: its blur and change events fire (an edit box saves).',
    example: 'I blur "textbox" in the item containing "feed the cat"',
    parameters: [el()],
  },
  // Choosing
  {
    id: 'check',
    pattern: 'I check {element}',
    family: 'choosing',
    description: 'Ticks a checkbox, radio button or switch. A name that is the text of a row finds the checkbox beside it.',
    example: 'I check "feed the cat"',
    parameters: [el('the checkbox, by its label or the text beside it')],
  },
  {
    id: 'uncheck',
    pattern: 'I uncheck {element}',
    family: 'choosing',
    description: 'Clears a checkbox or switch.',
    example: 'I uncheck "feed the cat"',
    parameters: [el('the checkbox, by its label or the text beside it')],
  },
  {
    id: 'select',
    pattern: 'I select {string} from {element}',
    family: 'choosing',
    description: 'Chooses an option of a drop-down by its text or value.',
    example: 'I select "Alphabetical" from "Sort order"',
    parameters: [str('option', "the option's text or value"), el('the drop-down')],
  },
  // Files and dragging
  {
    id: 'upload',
    pattern: 'I upload {string} to {element}',
    family: 'files and dragging',
    description: 'Chooses a file (a path relative to the workspace) in a file field.',
    example: 'I upload "fixtures/todos.txt" to "Import todos"',
    parameters: [str('file', 'path of the file, relative to the workspace'), el('the file field')],
  },
  {
    id: 'drag',
    pattern: 'I drag {element} to {element}',
    family: 'files and dragging',
    description: 'Drags an element and drops it on another.',
    example: 'I drag "Buy milk" to "Done"',
    parameters: [el('what to drag'), el('where to drop it')],
  },
  // Text assertions
  {
    id: 'see',
    pattern: 'I should see {string}',
    family: 'text assertions',
    description: 'Some visible element shows the text.',
    example: 'I should see "feed the cat"',
    parameters: [str('text', 'part of a visible text')],
  },
  {
    id: 'notSee',
    pattern: 'I should not see {string}',
    family: 'text assertions',
    description: 'No visible element shows the text.',
    example: 'I should not see "feed the cat"',
    parameters: [str('text', 'part of a text')],
  },
  {
    id: 'seeIn',
    pattern: 'I should see {string} in {element}',
    family: 'text assertions',
    description: "The element's visible text contains the text.",
    example: 'I should see "2 items left" in "todo-count"',
    parameters: [str('text', "part of the element's text"), el()],
  },
  {
    id: 'hasText',
    pattern: '{element} should have the text {string}',
    family: 'text assertions',
    description:
      "The element's whole visible text is exactly this (spaces and line breaks read as one space): a wording bug inside a longer text is not hidden.",
    example: 'the item containing "feed" should have the text "feed the cat"',
    parameters: [el(), str('text', "the element's whole text")],
  },
  // Element assertions
  {
    id: 'visible',
    pattern: '{element} should be visible',
    family: 'element assertions',
    description: 'The element is shown.',
    example: '"Clear completed" should be visible',
    parameters: [el()],
  },
  {
    id: 'hidden',
    pattern: '{element} should be hidden',
    family: 'element assertions',
    description: 'The element is not shown (or not on the page).',
    example: '"Clear completed" should be hidden',
    parameters: [el()],
  },
  {
    id: 'value',
    pattern: '{element} should have the value {string}',
    family: 'element assertions',
    description: 'The field holds exactly this value.',
    example: '"textbox" in the item containing "feed the cat" should have the value "feed the cat"',
    parameters: [el('the field'), str('value', 'the whole value')],
  },
  {
    id: 'empty',
    pattern: '{element} should be empty',
    family: 'element assertions',
    description: 'The field holds no value.',
    example: '"What needs to be done?" should be empty',
    parameters: [el('the field')],
  },
  {
    id: 'checked',
    pattern: '{element} should be checked',
    family: 'element assertions',
    description: 'The checkbox, radio or switch is ticked.',
    example: '"feed the cat" should be checked',
    parameters: [el('the checkbox, by its label or the text beside it')],
  },
  {
    id: 'unchecked',
    pattern: '{element} should not be checked',
    family: 'element assertions',
    description: 'The checkbox, radio or switch is not ticked.',
    example: '"feed the cat" should not be checked',
    parameters: [el('the checkbox, by its label or the text beside it')],
  },
  {
    id: 'enabled',
    pattern: '{element} should be enabled',
    family: 'element assertions',
    description: 'The control can be used.',
    example: '"Delete everything" should be enabled',
    parameters: [el()],
  },
  {
    id: 'disabled',
    pattern: '{element} should be disabled',
    family: 'element assertions',
    description: 'The control is disabled.',
    example: '"Delete everything" should be disabled',
    parameters: [el()],
  },
  {
    id: 'hasClass',
    pattern: '{element} should have the class {string}',
    family: 'element assertions',
    description: "The element's class list includes the class.",
    example: '"All" should have the class "selected"',
    parameters: [el(), str('class', 'one class name')],
  },
  {
    id: 'notHasClass',
    pattern: '{element} should not have the class {string}',
    family: 'element assertions',
    description: "The element's class list does not include the class.",
    example: 'the item containing "buy some cheese" should not have the class "completed"',
    parameters: [el(), str('class', 'one class name')],
  },
  {
    id: 'focused',
    pattern: '{element} should be focused',
    family: 'element assertions',
    description: 'The element has the keyboard focus.',
    example: '"What needs to be done?" should be focused',
    parameters: [el()],
  },
  {
    id: 'hasAttribute',
    pattern: '{element} should have the attribute {string} set to {string}',
    family: 'element assertions',
    description: "The element's attribute has exactly this value.",
    example: '"Open the help in a new tab" should have the attribute "target" set to "_blank"',
    parameters: [el(), str('attribute', 'the attribute name'), str('value', 'its whole value')],
  },
  // Count and lists
  {
    id: 'count',
    pattern: 'I should see {int} {string} item(s)',
    family: 'count and lists',
    description: 'Counts the visible items of a list (or elements of a role or test id) named by a word of its label, id or class.',
    example: 'I should see 2 "todo" items',
    parameters: [
      { name: 'count', type: 'int', description: 'how many' },
      str('list', 'a word naming the list: its label, id, class or test id, or a role such as "checkbox"'),
    ],
  },
  {
    id: 'listIs',
    pattern: 'the {string} items should be:',
    family: 'count and lists',
    description: 'The visible items of the list show these texts, in this order (one row per item, its first line of text).',
    example: 'the "todo" items should be:\n  | feed the cat    |\n  | buy some cheese |',
    parameters: [str('list', 'a word naming the list'), { name: 'items', type: 'table', description: 'one row per item, in order' }],
  },
  // Page assertions
  {
    id: 'urlContains',
    pattern: 'the URL should contain {string}',
    family: 'page assertions',
    description: 'The address contains the text.',
    example: 'the URL should contain "#/active"',
    parameters: [str('text', 'part of the address')],
  },
  {
    id: 'urlIs',
    pattern: 'the URL should be {string}',
    family: 'page assertions',
    description: 'The address is exactly this (relative addresses resolve against the base URL).',
    example: 'the URL should be "/#/completed"',
    parameters: [str('url', 'the whole address')],
  },
  {
    id: 'titleIs',
    pattern: 'the title should be {string}',
    family: 'page assertions',
    description: 'The page title is exactly this.',
    example: 'the title should be "Todos · Rehearse todo app"',
    parameters: [str('title', 'the whole title')],
  },
  {
    id: 'titleContains',
    pattern: 'the title should contain {string}',
    family: 'page assertions',
    description: 'The page title contains the text.',
    example: 'the title should contain "Todos"',
    parameters: [str('text', 'part of the title')],
  },
  // Memory
  {
    id: 'rememberText',
    pattern: 'I remember the text of {element} as {string}',
    family: 'memory',
    description: "Keeps the element's visible text under a name; later steps use it as {{name}}.",
    example: 'I remember the text of "todo-count" as "left"',
    parameters: [el(), str('name', 'the name to use as {{name}}')],
  },
  {
    id: 'rememberValue',
    pattern: 'I remember the value of {element} as {string}',
    family: 'memory',
    description: "Keeps the field's value under a name; later steps use it as {{name}}.",
    example: 'I remember the value of "What needs to be done?" as "draft"',
    parameters: [el('the field'), str('name', 'the name to use as {{name}}')],
  },
  // Storage and cookies
  {
    id: 'setStorage',
    pattern: 'I set the {storage} storage item {string} to {string}',
    family: 'storage and cookies',
    description: "Writes an item of the page's local or session storage (for the page's origin; open a page first).",
    example: 'I set the local storage item "theme" to "dark"',
    parameters: [str('storage', '"local" or "session"'), str('key', 'the item'), str('value', 'its text')],
  },
  {
    id: 'storageIs',
    pattern: 'the {storage} storage item {string} should be {string}',
    family: 'storage and cookies',
    description: "The page's local or session storage holds exactly this text under the item.",
    example: 'the local storage item "theme" should be "dark"',
    parameters: [str('storage', '"local" or "session"'), str('key', 'the item'), str('value', 'its whole text')],
  },
  {
    id: 'storageHas',
    pattern: 'the {storage} storage item {string} should contain {string}',
    family: 'storage and cookies',
    description: "The item of the page's local or session storage contains the text (a saved todo inside its JSON).",
    example: 'the local storage item "todos-vanillajs" should contain "feed the cat"',
    parameters: [str('storage', '"local" or "session"'), str('key', 'the item'), str('text', 'part of its text')],
  },
  {
    id: 'clearStorage',
    pattern: 'I clear the {storage} storage',
    family: 'storage and cookies',
    description: "Empties the page's local or session storage.",
    example: 'I clear the local storage',
    parameters: [str('storage', '"local" or "session"')],
  },
  {
    id: 'setCookie',
    pattern: 'I set the cookie {string} to {string}',
    family: 'storage and cookies',
    description: "Sets a cookie for the current page's address (open a page first).",
    example: 'I set the cookie "consent" to "yes"',
    parameters: [str('name', 'the cookie'), str('value', 'its value')],
  },
  {
    id: 'cookieIs',
    pattern: 'the cookie {string} should be {string}',
    family: 'storage and cookies',
    description: 'The browser holds the cookie, for the current page, with exactly this value.',
    example: 'the cookie "consent" should be "yes"',
    parameters: [str('name', 'the cookie'), str('value', 'its whole value')],
  },
  {
    id: 'clearCookies',
    pattern: 'I clear the cookies',
    family: 'storage and cookies',
    description: "Removes every cookie of the scenario's browser.",
    example: 'I clear the cookies',
    parameters: [],
  },
  // Waiting
  {
    id: 'wait',
    pattern: 'I wait for {string}',
    family: 'waiting',
    description: 'Waits a number of milliseconds ("500"), or until the page shows a text.',
    example: 'I wait for "All todos deleted"',
    parameters: [str('what', 'milliseconds, or a text')],
  },
] as const satisfies readonly BuiltInStep[];

export type BuiltInStepId = (typeof BUILT_IN_STEPS)[number]['id'];

/** The patterns of BUILT_IN_STEPS, in catalogue order. */
export const BUILT_IN_STEP_PATTERNS: readonly string[] = BUILT_IN_STEPS.map((step) => step.pattern);

/**
 * A regular expression matching the whole text of a step written with a built-in pattern: for
 * code without a cucumber-expressions registry (the offline grammar). Handles `{string}`, `{int}`,
 * `{element}`, optional text `(s)` and `word/word` alternatives as the catalogue uses them.
 */
export function builtInStepRegExp(pattern: string): RegExp {
  let source = '';
  for (const part of pattern.split(/(\{string\}|\{int\}|\{element\}|\{storage\}|\([^)]*\))/)) {
    if (part === '{string}') source += '"(?:[^"\\\\]|\\\\.)*"';
    else if (part === '{storage}') source += `(?:${STORAGE_PARAMETER.regexp.source})`;
    else if (part === '{int}') source += '-?\\d+';
    else if (part === '{element}') source += ELEMENT_PARAMETER.regexp.source.replace(/\((?!\?)/g, '(?:');
    else if (/^\(.*\)$/.test(part)) source += `(?:${escapeRegExp(part.slice(1, -1))})?`;
    else source += escapeRegExp(part);
  }
  return new RegExp(`^${source}$`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/** The runner's API-test steps (spec 02 "apitest"); built in like the plain-English ones. */
export const API_STEP_PATTERNS = [
  'I set the request header {string} to {string}',
  'I send a {word} request to {string}',
  'I send a {word} request to {string} with body:',
  'I send the API request:',
  'the response status should be {int}',
  'the response header {string} should contain {string}',
  'the response JSON {string} should be {string}',
  'the response should contain {string}',
] as const;
