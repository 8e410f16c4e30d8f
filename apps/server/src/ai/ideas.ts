import type { ApplicationMemory, ScenarioIdea } from '@rehearse/contract';
import { flowValue as said, splitClauses, translateFlow } from './plain-english.js';

/**
 * Scenario ideas from the application map (spec 02 §7 getApplicationMemory) and the description:
 * sign-in, search and other forms, navigation, and the flows of a list a user adds to (issue 44:
 * add, complete, filter, clear, delete, edit, the counter), each written in the plain-English
 * lines the built-in grammar reads and ending in an assertion.
 */

const KEYWORD_IDEAS: Array<[RegExp, ScenarioIdea]> = [
  [
    /\b(?:log ?in|sign ?in|login|authenticat)/i,
    {
      name: 'Sign in',
      flow: [
        'open "login.html"',
        'fill "Email" with "{{user}}"',
        'fill "Password" with "{{password}}"',
        'click "Sign in"',
        'should see "{{name}}"',
      ],
      parameters: { user: 'user@example.com', password: 'secret', name: 'Signed in' },
    },
  ],
  [
    /\b(?:search|find|look for)/i,
    {
      name: 'Search for a product',
      flow: ['open "/"', 'search for "{{term}}"', 'should see "{{result}}"'],
      parameters: { term: 'lamp', result: 'lamp' },
    },
  ],
  [
    /\b(?:buy|purchase|cart|basket|check ?out|order)/i,
    {
      name: 'Buy a product',
      flow: [
        'open "/"',
        'search for "{{product}}"',
        'add it to the cart',
        'click "Cart"',
        'click "Proceed to checkout"',
        'the URL should contain "checkout"',
      ],
      parameters: { product: 'lamp' },
    },
  ],
  [
    /\b(?:sign ?up|register|create an account)/i,
    {
      name: 'Create an account',
      flow: [
        'open "/"',
        'click "Sign up"',
        'fill "Email" with "{{user}}"',
        'fill "Password" with "{{password}}"',
        'click "Create account"',
        'the "Password" field should be hidden',
      ],
      parameters: { user: 'new@example.com', password: 'secret' },
    },
  ],
];

/**
 * Ideas from what runs have seen (spec 02 §7 getApplicationMemory): a sign-in form, a search box,
 * other forms to fill and submit, navigation links; plus the description's own words when the
 * grammar reads them.
 */
export function ideasFromMemory(
  memory: Pick<ApplicationMemory, 'paths'>,
  description: string,
  /** The environments' base URLs: a page below one is opened by its path under it. */
  baseUrls: readonly string[] = [],
): ScenarioIdea[] {
  const ideas: ScenarioIdea[] = [];
  const described = description.trim() ? translateFlow([description]) : undefined;
  if (described && described.steps.length > 0 && described.unmatched.length === 0) {
    ideas.push({ name: description.trim().slice(0, 80), flow: splitClauses(description), parameters: {} });
  }
  // The description's keywords name the flows people mean most often.
  for (const [re, idea] of KEYWORD_IDEAS) if (re.test(description)) ideas.push(idea);
  for (const [route, entry] of Object.entries(memory.paths)) {
    const page = parseAriaSnapshot(entry.snapshot);
    const elements = flattenAria(page).filter((node) => NAMED_ROLES.has(node.role) && node.name !== '');
    const open = `open ${said(routeBelow(route, baseUrls))}`;
    ideas.push(...listIdeas(open, page));
    const fields = elements.filter((e) => e.role === 'textbox' || e.role === 'spinbutton' || e.role === 'combobox');
    const buttons = elements.filter((e) => e.role === 'button');
    const email = fields.find((f) => /e-?mail|user/i.test(f.name));
    const password = fields.find((f) => /password/i.test(f.name));
    const submit = buttons.find((b) => /sign|log|submit|continue|place|save|send|search|find/i.test(b.name)) ?? buttons[0];
    if (email && password && submit) {
      ideas.push({
        name: `Sign in on ${route}`,
        // Signed in, the form is gone: a wrong password leaves it on the page, and the idea fails.
        flow: [
          open,
          `fill ${said(email.name)} with "{{user}}"`,
          `fill ${said(password.name)} with "{{password}}"`,
          `click ${said(submit.name)}`,
          `the ${said(password.name)} field should be hidden`,
        ],
        parameters: { user: 'user@example.com', password: 'secret' },
      });
    }
    const search = elements.find((e) => e.role === 'searchbox') ?? fields.find((f) => /search|find/i.test(f.name));
    if (search) {
      ideas.push({
        name: `Search on ${route}`,
        flow: [open, `fill ${said(search.name)} with "{{term}}"`, 'press "Enter"', 'should see "{{term}}"'],
        parameters: { term: 'example' },
      });
    }
    const others = fields.filter((f) => f !== email && f !== password && f !== search);
    if (others.length >= 2 && submit) {
      const parameters = Object.fromEntries(
        others.map((f) => [
          f.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '_')
            .replace(/^_|_$/g, ''),
          '',
        ]),
      );
      const keys = Object.keys(parameters);
      ideas.push({
        name: `Fill the form on ${route}`,
        flow: [open, ...others.map((f, i) => `fill ${said(f.name)} with "{{${keys[i]}}}"`), `click ${said(submit.name)}`],
        parameters,
      });
    }
    // A link within the app, asserted by where it leads; links to other sites and `#` filters are no flow of this app.
    const inApp = elements.filter(
      (e) => e.role === 'link' && /^\/(?!\/)|^[\w.-]+(?:[/?]|$)/.test(e.props['/url'] ?? '') && !/^[a-z][\w+.-]*:/i.test(e.props['/url']!),
    );
    for (const link of inApp.slice(0, 3)) {
      const target = link.props['/url']!.replace(/^\.?\//, '').split(/[?#]/)[0]!;
      ideas.push({
        name: `Go to ${link.name} from ${route}`,
        flow: [open, `click ${said(link.name)}`, `the URL should contain ${said(target || '/')}`],
        parameters: {},
      });
    }
  }
  // One idea per name: the first (description, then the most useful kinds) wins.
  const seen = new Set<string>();
  return ideas.filter((idea) => (seen.has(idea.name) ? false : (seen.add(idea.name), true))).slice(0, 20);
}

/**
 * A route of the map as a scenario opens it: `I open` resolves a path below the environment's base
 * URL (runner/src/support/web.ts), so a route under a base path loses that prefix (the longest
 * one that fits); a route under none stays whole.
 */
export function routeBelow(route: string, baseUrls: readonly string[]): string {
  const prefixes = baseUrls
    .map((url) => {
      try {
        return new URL(url).pathname.replace(/\/?$/, '/');
      } catch {
        return '/';
      }
    })
    .filter((prefix) => prefix !== '/' && `${route}/`.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
  const prefix = prefixes[0];
  return prefix ? `/${route.slice(prefix.length)}` : route;
}

// ---- The ARIA snapshot as a tree ----

/** One node of a Playwright ARIA snapshot: `- role "name" [attr]: text`, its children indented under it. */
export interface AriaNode {
  role: string;
  name: string;
  attributes: string[];
  /** The node's own text after the colon (`- text: item left`, `- strong: "1"`). */
  text: string;
  /** `/url` and other `- /prop: value` lines. */
  props: Record<string, string>;
  children: AriaNode[];
}

const NAMED_ROLES = new Set(['textbox', 'searchbox', 'button', 'link', 'combobox', 'checkbox', 'spinbutton']);
const NODE_LINE = /^(\s*)- (?:(\/[\w-]+): (.*)|([\w-]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?::(?: (.*))?)?)$/;

const unquote = (text: string) => (/^".*"$/.test(text) ? text.slice(1, -1).replace(/\\(.)/g, '$1') : text);

/** Reads a snapshot into a tree under a synthetic root; lines it cannot read are skipped. */
export function parseAriaSnapshot(snapshot: string): AriaNode {
  const root: AriaNode = { role: 'root', name: '', attributes: [], text: '', props: {}, children: [] };
  const stack: Array<{ indent: number; node: AriaNode }> = [{ indent: -1, node: root }];
  for (const line of snapshot.split('\n')) {
    const match = NODE_LINE.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (stack.length > 1 && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)!.node;
    if (match[2]) {
      parent.props[match[2]] = unquote(match[3] ?? '');
      continue;
    }
    const node: AriaNode = {
      role: match[4]!,
      name: (match[5] ?? '').replace(/\\(.)/g, '$1'),
      attributes: [...(match[6] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!),
      text: unquote(match[7] ?? ''),
      props: {},
      children: [],
    };
    parent.children.push(node);
    stack.push({ indent, node });
  }
  return root;
}

/** Every node under `node`, depth first. */
export function flattenAria(node: AriaNode): AriaNode[] {
  return node.children.flatMap((child) => [child, ...flattenAria(child)]);
}

/** The words a node shows: its name, its text and its descendants', in order. */
function wordsOf(node: AriaNode): string {
  return [node.name, node.text, ...node.children.map(wordsOf)].filter((part) => part !== '').join(' ');
}

// ---- A list the user adds to ----

/** Buttons that submit a form of several fields; a page with one of these is a form, not an entry box. */
const FORM_SUBMIT = /\b(?:sign|log|submit|continue|place|send|search|find|register|pay|checkout)\b/i;
const ADD_BUTTON = /^(?:add|create|save|post|new)\b/i;

/**
 * The flows of a list that a single box adds to (a todo list, a shopping list, a roster without a
 * form): add, complete, filter, clear, delete and edit, as far as the page shows them. Evidence from
 * the snapshot decides each idea: rows with a checkbox make items completable (and so filterable,
 * clearable); links to `#…` routes are filters; a "Clear …" button clears; a row's own button or a
 * "double-click to edit" hint. A counter ("2 items left") is asserted where the page shows one.
 */
export function listIdeas(open: string, page: AriaNode): ScenarioIdea[] {
  const nodes = flattenAria(page);
  const fields = nodes.filter((node) => ['textbox', 'combobox', 'spinbutton'].includes(node.role) && !isInsideRow(page, node));
  const entry = fields.length === 1 && fields[0]!.name !== '' ? fields[0]! : undefined;
  const buttons = nodes.filter((node) => node.role === 'button');
  if (!entry || /search|find|e-?mail|password|user/i.test(entry.name) || buttons.some((button) => FORM_SUBMIT.test(button.name))) return [];
  const addButton = buttons.find((button) => ADD_BUTTON.test(button.name));
  const rows = nodes.filter((node) => node.role === 'listitem' && node.children.some((child) => child.role === 'checkbox'));
  const noun = itemNoun(page);
  const completable = rows.length > 0;
  const filters = nodes.filter((node) => node.role === 'link' && /^#/.test(node.props['/url'] ?? '') && node.name !== '');
  const activeFilter = filters.find((link) => /^(?:active|open|to ?do|pending|remaining)$/i.test(link.name));
  const doneFilter = filters.find((link) => /^(?:completed?|done|finished|closed)$/i.test(link.name));
  const clear = buttons.find((button) => /^clear\b/i.test(button.name));
  const rowButton = rows.flatMap((row) => row.children).find((child) => child.role === 'button');
  const editHint = /double[- ]?click to edit/i.test(wordsOf(page));
  const counter = counterWords(page);
  const count = (n: number) => (counter ? [`should see ${said(`${n} ${n === 1 ? counter.one : counter.many}`)}`] : []);

  const add = (param: string) =>
    addButton
      ? [`type "{{${param}}}" into ${said(entry.name)}`, `click ${said(addButton.name)}`]
      : [`type "{{${param}}}" into ${said(entry.name)} and press Enter`];
  const two = [...add('first'), ...add('second')];
  const parameters = { first: `${noun} one`, second: `${noun} two` };
  const ideas: ScenarioIdea[] = [
    {
      name: `Add ${a(noun)}`,
      flow: [open, ...add('first'), 'should see "{{first}}"', `${said(entry.name)} should be empty`, ...count(1)],
      parameters: { first: parameters.first },
    },
  ];
  // A list drawn again from its data (another filter's route) shows what the app stored, not only
  // what the clicked row shows: a delete or edit applied to the wrong item, or not saved, is seen
  // there. The active filter redraws every item a delete or edit flow still holds (none is completed).
  const allFilter = filters.find((link) => /^all$/i.test(link.name));
  const redrawn = activeFilter ? [`click ${said(activeFilter.name)}`] : [];
  if (completable) {
    ideas.push({
      name: `Complete ${a(noun)}`,
      flow: [
        open,
        ...two,
        ...count(2),
        'Mark "{{first}}" as completed',
        '"checkbox" in the item containing "{{first}}" should be checked',
        ...count(1),
        ...(doneFilter
          ? [`click ${said(doneFilter.name)}`, 'should see "{{first}}"', 'should not see "{{second}}"']
          : ['"checkbox" in the item containing "{{second}}" should not be checked']),
      ],
      parameters,
    });
  }
  if (completable && activeFilter) {
    ideas.push({
      name: `Filter ${noun}s by state`,
      flow: [
        open,
        ...two,
        'Mark "{{first}}" as completed',
        `click ${said(activeFilter.name)}`,
        'should see "{{second}}"',
        'should not see "{{first}}"',
        ...(allFilter ? [`click ${said(allFilter.name)}`, 'should see "{{first}}"', 'should see "{{second}}"'] : []),
      ],
      parameters,
    });
  }
  if (completable && clear) {
    const words = clear.name.replace(/\s*\(\d+\)\s*$/, '');
    ideas.push({
      name: `${words} ${noun}s`,
      flow: [
        open,
        ...two,
        'Mark "{{first}}" as completed',
        `click ${said(words)}`,
        'should not see "{{first}}"',
        'should see "{{second}}"',
        ...count(1),
      ],
      parameters,
    });
  }
  if (rowButton || completable) {
    ideas.push({
      name: `Delete ${a(noun)}`,
      flow: [open, ...two, 'delete "{{first}}"', ...redrawn, 'should not see "{{first}}"', 'should see "{{second}}"', ...count(1)],
      parameters,
    });
  }
  if (editHint) {
    ideas.push({
      name: `Edit ${a(noun)}`,
      flow: [
        open,
        ...add('first'),
        'edit "{{first}}" to "{{edited}}"',
        ...redrawn,
        'should see "{{edited}}"',
        'should not see "{{first}}"',
      ],
      parameters: { first: parameters.first, edited: `${noun} renamed` },
    });
  }
  return ideas;
}

const a = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** Whether `node` sits inside a list row (a row's own edit box is not the page's entry box). */
export function isInsideRow(page: AriaNode, node: AriaNode): boolean {
  return flattenAria(page).some((row) => row.role === 'listitem' && flattenAria(row).includes(node));
}

/** What the list holds, from the page's main heading ("todos" → "todo"); "item" when it says nothing usable. */
function itemNoun(page: AriaNode): string {
  const heading =
    flattenAria(page)
      .find((node) => node.role === 'heading')
      ?.name.trim()
      .toLowerCase() ?? '';
  if (!/^[a-z]{3,20}s$/.test(heading)) return 'item';
  if (heading.endsWith('ies')) return `${heading.slice(0, -3)}y`;
  return /(?:ch|sh|x|ss)es$/.test(heading) ? heading.slice(0, -2) : heading.slice(0, -1);
}

/** A counter such as `- strong: "1"` then `- text: item left`: its words for one and for many. */
function counterWords(page: AriaNode): { one: string; many: string } | undefined {
  const nodes = flattenAria(page);
  for (let i = 0; i + 1 < nodes.length; i += 1) {
    const number = /^\d+$/.test(nodes[i]!.text) || /^\d+$/.test(nodes[i]!.name);
    const words = /^(\w+?)(s?) (left|remaining|open|to do)$/i.exec(nodes[i + 1]!.text.trim());
    if (number && words) return { one: `${words[1]} ${words[3]}`, many: `${words[1]}s ${words[3]}` };
  }
  return undefined;
}
