import type { ElementPhrase, ScopeContainer } from '@rehearse/contract';
import type { Locator, Page } from 'playwright-core';

/**
 * One way to find an element, as the recorder ranks them (DESIGN §7). Generated code keeps a list
 * of these per element, best first; a run tries them in order.
 *
 * - `role`: ARIA role plus accessible name, `page.getByRole(role, { name, exact })`; `role` may
 *   list several roles ("any of these"). `value` is read as the role when `role` is absent.
 * - `testId`: `data-testid` value. `label`, `placeholder`, `altText`, `title`, `text`: the
 *   matching `page.getBy*` call with `value`. `css`: a CSS (or any Playwright) selector.
 * - `exact`: whole-string, case-sensitive match (Playwright's `exact`); substring otherwise.
 */
export type LocatorCandidate =
  | { kind: 'role'; role?: string | string[]; name?: string; value?: string; exact?: boolean }
  | { kind: 'testId' | 'label' | 'placeholder' | 'altText' | 'title' | 'text' | 'css'; value: string; exact?: boolean };

export type LocatorKind = LocatorCandidate['kind'];

/**
 * What the recorder saw of an element, kept beside its locators so a run can find the element again
 * when every candidate fails (self-healing scores live elements against it, DESIGN §8).
 */
export interface ElementFingerprint {
  /** Lower-case tag name, e.g. `button`. */
  tag: string;
  /** ARIA role (explicit or implicit) and accessible name. */
  role?: string;
  name?: string;
  /** Visible text, trimmed and whitespace-collapsed, at most 200 characters. */
  text?: string;
  /** Identifying attributes that were present: id, class, name, type, href, data-testid, placeholder, aria-label, title, alt, value of buttons. */
  attributes: Record<string, string>;
  /** Roles (or tags where there is no role) of the ancestors, outermost first, e.g. `['main', 'form']`. */
  ancestors: string[];
  /** Index among the elements of the same role and name on the page (0 when unique). */
  index?: number;
  /** Bounding box in CSS pixels at record time. */
  rect?: { x: number; y: number; width: number; height: number };
  /** The repeated row, item or card the element sits in (one of several alike), by its text. */
  container?: { tag: string; text: string };
}

/** Where an element was loaded from, so a healed locator can be written back to the same place. */
export interface ElementSource {
  /** Workspace-relative path of the locator file, e.g. `features/step_definitions/locators/checkout.json`. */
  file: string;
  /** The element's key in that file. */
  key: string;
}

/** An element of the application under test: a human name for reports plus its locator candidates. */
export interface Element {
  name: string;
  locators: LocatorCandidate[];
  fingerprint?: ElementFingerprint;
  source?: ElementSource;
  /** Look only inside the one container (row, dialog, …) showing this text ("in the row containing …"). */
  scope?: ElementScope;
  /** 1-based: take the nth match of a candidate instead of requiring exactly one ("the 2nd …"). */
  nth?: number;
  /** The words a plain-English step named it by, and what kind of control it needs: a failure says what the page has under those words. */
  named?: { words: string; expects?: string };
}

export interface ElementScope {
  container: ScopeContainer;
  text: string;
}

/** The elements each scope word means, most specific markup first. */
const CONTAINER_SELECTORS: Record<ScopeContainer, string> = {
  item: 'li, tr, [role=listitem], [role=row], [role=option], [role=treeitem], article',
  row: 'tr, [role=row], li, [role=listitem], [role=option]',
  'list item': 'li, [role=listitem], [role=option], [role=treeitem]',
  card: 'article, [class*=card i], li, section',
  section: 'section, article, fieldset, aside, nav, main, [role=region], [role=group]',
  form: 'form, [role=form], fieldset',
  dialog: 'dialog, [role=dialog], [role=alertdialog]',
  list: 'ul, ol, [role=list], [role=listbox], [role=tree]',
  table: 'table, [role=table], [role=grid], [role=treegrid]',
  region: '[role=region], section, aside, nav, main, header, footer',
  group: 'fieldset, [role=group], [role=radiogroup]',
};

/** A CSS selector for the containers a scope word names. */
export function containerSelector(container: ScopeContainer): string {
  return CONTAINER_SELECTORS[container];
}

type AriaRole = Parameters<Page['getByRole']>[0];

/** A readable form of a candidate for `locatorLog` and `info.selectors`, e.g. `role=button[name="Sign in"]`. */
export function describeCandidate(candidate: LocatorCandidate): string {
  const exact = candidate.exact ? ' exact' : '';
  if (candidate.kind === 'role') {
    const role = rolesOf(candidate).join('|');
    return candidate.name === undefined ? `role=${role}` : `role=${role}[name=${JSON.stringify(candidate.name)}${exact}]`;
  }
  if (candidate.kind === 'css') return `css=${candidate.value}`;
  return `${candidate.kind}=${JSON.stringify(candidate.value)}${exact}`;
}

function rolesOf(candidate: Extract<LocatorCandidate, { kind: 'role' }>): AriaRole[] {
  const roles = candidate.role ?? candidate.value ?? [];
  return (Array.isArray(roles) ? roles : [roles]) as AriaRole[];
}

/** The Playwright locator of a candidate below `page` (or a container), restricted to visible elements. */
export function candidateLocator(page: Page | Locator, candidate: LocatorCandidate): Locator {
  const exact = candidate.exact ?? false;
  let locator: Locator;
  switch (candidate.kind) {
    case 'role': {
      const roles = rolesOf(candidate);
      if (roles.length === 0) throw new Error('A role locator needs a role');
      const options = candidate.name === undefined ? {} : { name: candidate.name, exact };
      locator = roles.map((role) => page.getByRole(role, options)).reduce((all, next) => all.or(next));
      break;
    }
    case 'testId':
      locator = page.getByTestId(candidate.value);
      break;
    case 'label':
      locator = page.getByLabel(candidate.value, { exact });
      break;
    case 'placeholder':
      locator = page.getByPlaceholder(candidate.value, { exact });
      break;
    case 'altText':
      locator = page.getByAltText(candidate.value, { exact });
      break;
    case 'title':
      locator = page.getByTitle(candidate.value, { exact });
      break;
    case 'text':
      locator = page.getByText(candidate.value, { exact });
      break;
    case 'css':
      locator = page.locator(candidate.value);
      break;
  }
  return locator.filter({ visible: true });
}

/**
 * Roles a plain-English step means when it names an element for a given action, most likely
 * first: a form's "Sign in" button wins over a "Sign in" link in the header. The last entry
 * groups the rare roles into one candidate.
 */
export const ROLES_FOR = {
  click: ['button', 'link', ['menuitem', 'tab', 'checkbox', 'radio', 'switch', 'option', 'treeitem']],
  fill: ['textbox', ['searchbox', 'combobox', 'spinbutton']],
  select: [['combobox', 'listbox']],
  check: [['checkbox', 'radio', 'switch']],
  any: [
    'button',
    'link',
    'textbox',
    [
      'checkbox',
      'radio',
      'switch',
      'combobox',
      'searchbox',
      'spinbutton',
      'heading',
      'menuitem',
      'tab',
      'option',
      'img',
      'dialog',
      'status',
      'alert',
    ],
  ],
} as const satisfies Record<string, ReadonlyArray<AriaRole | readonly AriaRole[]>>;

const EXPECTS = new Map<ReadonlyArray<string | readonly string[]>, string>([
  [ROLES_FOR.check, 'checkbox, radio button or switch'],
  [ROLES_FOR.fill, 'text field'],
  [ROLES_FOR.select, 'drop-down'],
]);

/** Words a person uses for a role when an element has no name of its own: `"textbox" in the row containing "…"`. */
const ROLE_WORDS: Record<string, AriaRole> = {
  textbox: 'textbox',
  'text box': 'textbox',
  field: 'textbox',
  'text field': 'textbox',
  input: 'textbox',
  checkbox: 'checkbox',
  'check box': 'checkbox',
  button: 'button',
  link: 'link',
  'drop-down': 'combobox',
  dropdown: 'combobox',
  combobox: 'combobox',
  radio: 'radio',
  switch: 'switch',
  heading: 'heading',
  image: 'img',
  'list item': 'listitem',
  listitem: 'listitem',
  row: 'row',
  list: 'list',
  dialog: 'dialog',
  status: 'status',
  'menu item': 'menuitem',
};

/** An XPath string literal for any text (XPath 1.0 has no escapes: quotes need concat()). */
export function xpathLiteral(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return `concat(${text
    .split('"')
    .map((part) => `"${part}"`)
    .join(`, '"', `)})`;
}

const CHECKABLE = "(self::input and (@type='checkbox' or @type='radio')) or @role='checkbox' or @role='radio' or @role='switch'";

/**
 * The checkbox, radio or switch that sits beside a text which labels it only visually (a todo
 * row's `<label>` without `for`): the innermost element showing exactly `text`, then its nearest
 * ancestor (at most three levels up) holding exactly one checkable control, then that control. A
 * row never reaches into a neighbouring row, since their common ancestor holds several.
 */
export function checkableBeside(text: string): LocatorCandidate {
  const literal = xpathLiteral(text.replace(/\s+/g, ' ').trim());
  const owner = `//*[not(self::script or self::style)][normalize-space(.)=${literal}][not(.//*[normalize-space(.)=${literal}])]`;
  // Only a few levels up: a heading far above the page's only checkbox does not label it.
  const ancestor = `ancestor-or-self::*[position() <= 4][count(.//*[${CHECKABLE}])=1][1]`;
  return { kind: 'css', value: `xpath=${owner}/${ancestor}//*[${CHECKABLE}]` };
}

/**
 * The `<label>` showing exactly `text` of a checkbox or radio the page hides (a switch drawn by
 * its label): the only thing a person sees and clicks, and what Playwright checks and reads
 * through to its control. Tried after the control itself, which a visible one answers first.
 */
export function labelOfHiddenCheckable(text: string): LocatorCandidate {
  const literal = xpathLiteral(text.replace(/\s+/g, ' ').trim());
  const checkable = "self::input[@type='checkbox' or @type='radio']";
  return { kind: 'css', value: `xpath=//label[normalize-space(.)=${literal}][.//*[${checkable}] or id(@for)[${checkable}]]` };
}

/**
 * The element a plain-English step names by its visible words: role + accessible name, then
 * label, then placeholder, then text — each exact before substring, so "Trail Backpack" does not
 * also pick "Trail Backpack Mini" — then test id. For a check, a text that labels a checkbox only
 * by sitting beside it finds that checkbox; a role word ("textbox") finds the one element of that
 * role, which is how a scoped step names an unlabelled field.
 */
export function elementByName(
  name: string,
  roles: ReadonlyArray<string | readonly string[]>,
  phrase?: Omit<ElementPhrase, 'name'>,
): Element {
  const scoped = phrase?.scope ? { scope: phrase.scope } : {};
  // "the item containing …": the row itself, for assertions about it (its class, its whole text).
  if (phrase?.itself && phrase.scope)
    return {
      name: `the ${phrase.scope.container} containing "${phrase.scope.text}"`,
      locators: [{ kind: 'css', value: ':scope' }],
      ...scoped,
    };
  // "css=.todo-count", "xpath=//footer//strong": an element with no words of its own, by its markup.
  const selector = /^(css|xpath)=(.+)$/s.exec(name.trim());
  if (selector) {
    const value = selector[1] === 'css' ? selector[2]! : `xpath=${selector[2]!}`;
    return {
      name: phrase?.scope ? `${name} in the ${phrase.scope.container} containing "${phrase.scope.text}"` : name,
      locators: [{ kind: 'css', value }],
      ...(phrase?.nth ? { nth: phrase.nth } : {}),
      ...scoped,
    };
  }
  const locators: LocatorCandidate[] = [];
  for (const exact of [true, false]) {
    for (const role of roles)
      locators.push({ kind: 'role', role: typeof role === 'string' ? role : [...role], name, ...(exact ? { exact } : {}) });
  }
  const checking = roles === ROLES_FOR.check;
  if (checking) locators.push({ kind: 'label', value: name, exact: true }, checkableBeside(name), labelOfHiddenCheckable(name));
  for (const kind of ['label', 'placeholder', 'text'] as const) {
    if (checking) continue;
    locators.push({ kind, value: name, exact: true }, { kind, value: name });
  }
  if (checking) locators.push({ kind: 'label', value: name });
  locators.push({ kind: 'testId', value: name });
  const roleWord = ROLE_WORDS[name.trim().toLowerCase()];
  if (roleWord) locators.push({ kind: 'role', role: roleWord });
  const expects = EXPECTS.get(roles);
  return {
    name: phrase?.scope ? `${name} in the ${phrase.scope.container} containing "${phrase.scope.text}"` : name,
    locators,
    named: { words: name, ...(expects ? { expects } : {}) },
    ...(phrase?.nth ? { nth: phrase.nth } : {}),
    ...(phrase?.scope ? { scope: phrase.scope } : {}),
  };
}
