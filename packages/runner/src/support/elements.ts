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

/** The Playwright locator of a candidate, restricted to visible elements. */
export function candidateLocator(page: Page, candidate: LocatorCandidate): Locator {
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
} as const satisfies Record<string, ReadonlyArray<AriaRole | readonly AriaRole[]>>;

/**
 * The element a plain-English step names by its visible words: role + accessible name, then
 * label, then placeholder, then text — each exact before substring, so "Trail Backpack" does not
 * also pick "Trail Backpack Mini".
 */
export function elementByName(name: string, roles: ReadonlyArray<string | readonly string[]>): Element {
  const locators: LocatorCandidate[] = [];
  for (const exact of [true, false]) {
    for (const role of roles) locators.push({ kind: 'role', role: typeof role === 'string' ? role : [...role], name, ...(exact ? { exact } : {}) });
  }
  for (const kind of ['label', 'placeholder', 'text'] as const) {
    locators.push({ kind, value: name, exact: true }, { kind, value: name });
  }
  return { name, locators };
}
