import { BUILT_IN_STEP_PATTERNS, builtInStepRegExp } from '@rehearse/contract';

/**
 * The built-in plain-English → Gherkin translator (DESIGN §8): a fixed grammar over the runner's
 * built-in steps (BUILT_IN_STEP_PATTERNS) plus the paraphrases people actually type. A line may
 * hold several actions ("open the shop, search for 'lamp', then add it to the cart"); each clause
 * becomes one or more steps, or is reported as unmatched for the LLM (or the user) to handle.
 */

export type StepKind = 'context' | 'action' | 'outcome';

/** One built-in step without its keyword, e.g. `I fill "Email" with "{{user}}"`. */
export interface TranslatedStep {
  kind: StepKind;
  text: string;
}

export interface Translation {
  steps: TranslatedStep[];
  unmatched: string[];
  /** The same, line by line: what each line of the flow became and which of its clauses no step reads. */
  lines: Array<{ line: string; steps: TranslatedStep[]; unmatched: string[] }>;
}

/** A value as a step writes it: double-quoted, its backslashes and quotes escaped. */
export const stepValue = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const q = stepValue;

/** A quoted value of a step as it was before stepValue escaped it (the inside of its quotes, escapes undone). */
export const unescapeStepValue = (quoted: string) => quoted.replace(/\\(.)/g, '$1');

/** The address an `I open "…"` step opens, its escapes undone (what stepValue wrote); undefined for any other step. */
export function openedAddress(stepText: string): string | undefined {
  const quoted = /^I open "((?:[^"\\]|\\.)*)"$/.exec(stepText)?.[1];
  return quoted === undefined ? undefined : unescapeStepValue(quoted);
}

/**
 * A value as a plain-English line quotes it so VALUE reads it whole: VALUE takes "…", '…' and “…”
 * without escapes, so the first of those quotes the value does not hold (an element named
 * `Say "hi"` is written 'Say "hi"'). Ideas and questions write names of the app this way.
 */
export const flowValue = (value: string) => (!value.includes('"') ? `"${value}"` : !value.includes("'") ? `'${value}'` : `“${value}”`);

/** A value as typed: quoted ('x', "x", “x”), a `{{param}}`, or the bare rest of the clause. */
const VALUE = String.raw`(?:"([^"]*)"|'([^']*)'|“([^”]*)”|‘([^’]*)’|(\{\{[^}]+\}\})|([^"',]+?))`;
const pick = (m: RegExpExecArray, from: number): string => {
  for (let i = from; i < from + 6; i += 1) if (m[i] !== undefined) return m[i]!.trim();
  return '';
};

const ARTICLE = String.raw`(?:the |a |an |on |on the )?`;
/** What a person puts around an element's name: `the todo "buy milk"`, `the "Shortcut" field`. */
const NOUN = String.raw`(?:button|link|field|text ?box|box|input|checkbox|check ?box|radio button|switch|toggle|item|todo|row|entry|card|tab|filter|icon|menu item|menu|option|heading|title|drop-?down|select|list|combo ?box)`;
/** An element: its name, maybe after an article and a noun, maybe before a noun (the name is VALUE's groups). */
const ELEMENT = String.raw`${ARTICLE}(?:${NOUN}\s+(?=["'“‘]))?${VALUE}(?:\s+${NOUN})?`;
const ELEMENT_NOUN = /\s+(?:button|link|tab|filter|menu item|menu|checkbox|field|box|input|option|icon|drop-?down|select|list)$/i;
/** `the "Sign in" button` → `Sign in`. */
const elementName = (raw: string) => {
  const name = raw
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(ELEMENT_NOUN, '')
    .trim();
  // "click the" names nothing, nor does "its delete" (whose? the grammar has no row for it): an
  // empty name makes the clause unmatched, so the user is asked rather than a step named "its delete".
  return /^(?:the|a|an|on|it|this|that)$|^(?:its|it's|it’s)\s/i.test(name) ? '' : name;
};

/** An element's name from VALUE's groups at `from`: a quoted name is the name whole ("Back to the list"); a bare one loses its article and noun. */
const elementNamed = (m: RegExpExecArray, from: number) => (m[from + 5] === undefined ? pick(m, from) : elementName(pick(m, from)));

/** Where "open the shop" and friends go: the environment's base URL. */
const HOME = /^(?:the\s+)?(?:[\w-]+\s+)?(?:shop|site|app|application|home ?page|home|start page|website|main page|store|todo list|list)$/i;
/** "visit the page", "open this web page": no page is named, so the start (never a file called "the.html"). */
const ANY_PAGE = /^(?:the|this|that|a|our|my)\s+(?:web\s?)?page$/i;

const pagePath = (raw: string) => {
  const value = raw.trim();
  if (HOME.test(value) || ANY_PAGE.test(value)) return '/';
  if (/^(?:https?:\/\/|\/|\{\{)/i.test(value) || /\.\w+($|\?)/.test(value)) return value;
  // "the login page" → "login.html" is a guess the shop's layout supports but others may not; keep
  // the words as a path the user can correct.
  const page = /^(?:the\s+)?([\w-]+)\s+page$/i.exec(value)?.[1];
  return page ? `${page.toLowerCase()}.html` : value;
};

/** What the flow's earlier clauses named: "it" is the last item named, and an edit box may be open. */
export interface FlowState {
  /** The last item (row) a clause named, for "it", "delete it", "mark it as done". */
  last?: string;
  /** The item whose edit box a double-click opened, until Enter, Escape or leaving the box. */
  editing?: string;
}

interface Rule {
  re: RegExp;
  /** The steps, or undefined when the match does not hold after all (a pronoun with nothing before it, say). */
  make: (m: RegExpExecArray, state: FlowState) => TranslatedStep[] | undefined;
}

const action = (text: string): TranslatedStep => ({ kind: 'action', text });
const outcome = (text: string): TranslatedStep => ({ kind: 'outcome', text });

// ---- Lists of items (todos, tasks, rows): how people write about them (issue 44) ----
// Written without the app's own words: the new-item field is the page's first text box, a list is
// counted by the word "list" (its id, class or label), a row's own controls are named by their role
// inside the item containing its text. Resolving such nouns against the app's map is a later step.

/** The field a new item is typed into: the page's first text box. */
const NEW_ITEM_FIELD = 'the 1st "textbox"';
/**
 * The word that names the list of items for the count step: "todo" (an id, class or label word of
 * the list). Not "list": that is also a role, and an emptied list would be counted by the page's
 * other lists (the filters).
 */
const LIST_WORD = '"todo"';
const editBox = (name: string) => `"textbox" in the item containing ${q(name)}`;
/** A row's checkbox, by the row's text: a short name ("a") alone would also match "Mark all as complete". */
const rowCheckbox = (name: string) => `"checkbox" in the item containing ${q(name)}`;
const ORDINALS = ['1st', '2nd', '3rd'];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
const NUMBERS: Record<string, number> = { no: 0, zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** The name VALUE's groups (from `from`) hold: as written when quoted, else without its article and noun. */
const nameAt = (m: RegExpExecArray, from: number): string | undefined => {
  const quoted = [0, 1, 2, 3].some((i) => m[from + i] !== undefined);
  return quoted ? pick(m, from) : itemName(pick(m, from).replace(ELEMENT_NOUN, ''));
};

/** An item's name as written, or undefined for a pronoun or nothing ("delete it" needs `state.last`). */
const itemName = (raw: string): string | undefined => {
  const name = raw
    .trim()
    .replace(/^(?:the|a|an)\s+(?:(?:todo|task|item|entry|row)\s+)?/i, '')
    .trim();
  return name === '' || /^(?:it|this|that|this one|that one|them)$/i.test(name) ? undefined : name;
};

const addItem = (name: string, state: FlowState): TranslatedStep[] => {
  state.last = name;
  return [action(`I fill ${NEW_ITEM_FIELD} with ${q(name)}`), action('I press "Enter"')];
};
const deleteItem = (name: string): TranslatedStep[] => [
  // A row's delete button often shows only while the row itself is hovered.
  action(`I hover over the item containing ${q(name)}`),
  action(`I click "button" in the item containing ${q(name)}`),
];
/** The list shows exactly these items, in this order: a count, then each row's whole text. */
const listIs = (items: readonly string[]): TranslatedStep[] => [
  outcome(`I should see ${items.length} ${LIST_WORD} ${items.length === 1 ? 'item' : 'items'}`),
  ...items.map((item, i) => outcome(`the ${ordinal(i + 1)} "list item" should have the text ${q(item)}`)),
];

/** Splits "a, b and c" / `"a", "b" and "c"` into its items (quotes removed), outside quotes only. */
function listItems(text: string): string[] {
  const items: string[] = [];
  const re = /\s*(?:"([^"]*)"|'([^']*)'|“([^”]*)”|([^,"“]+?))\s*(?:,\s*(?:and\s+)?|\s+and\s+|$)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while (end < text.length && (m = re.exec(text)) !== null) {
    if (m[0] === '') break;
    items.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
    end = re.lastIndex;
  }
  return end >= text.length ? items.filter((item) => item !== '') : [];
}

const FILTERS: Record<string, string> = { all: 'All', active: 'Active', completed: 'Completed', done: 'Completed', finished: 'Completed' };
const DONE = String.raw`(?:completed?|done|finished|checked|ticked(?: off)?|crossed off)`;
const NOT_DONE = String.raw`(?:not (?:completed?|done|finished|checked|ticked)|active|incomplete|uncompleted|unfinished|undone|open|unchecked|unticked)`;
// An item's state in words other than the checkbox's own ("checked" is the general grammar's).
const DONE_WORDS = String.raw`(?:completed?|done|finished|crossed off)`;
const NOT_DONE_WORDS = String.raw`(?:not (?:completed?|done|finished)|active|incomplete|uncompleted|unfinished|undone)`;
/** "the todo" before an item's quoted name: `delete the todo "alpha task"`. */
const THE_ITEM = String.raw`(?:the\s+(?:todo|task|item|entry|row)\s+(?=["'“‘]))?`;
const ITEM = String.raw`(?:todos?|tasks?|items?|entries|rows|ones)`;

/** An item that is really the next action ("add "walk dog" and mark it as done"). */
const VERB_START =
  /^(?:i\s+)?(?:open|go|visit|click|double-click|hover|press|hit|tap|type|enter|fill|select|choose|check|uncheck|tick|untick|mark|complete|delete|remove|edit|rename|change|clear|filter|show|reload|refresh|see|should|wait)\b/i;

/** Whole lines about several items at once, before the line is split at its commas. */
const LINE_RULES: Rule[] = [
  // "Add todos a, b and c", `add "one" and "two"`.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:add|create|enter)\s+(?:(?:the|some|these|new)\s+)?(?:${ITEM}\s*:?\s+)?(.+)$`, 'i'),
    make: (m, state) => {
      if (/\b(?:to|into|in)\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i.test(m[1]!)) return undefined;
      const items = listItems(m[1]!);
      if (items.length < 2 || items.some((item) => VERB_START.test(item))) return undefined;
      return items.flatMap((item) => addItem(item, state));
    },
  },
  // "the list shows a, b, c in order", `The list should show only "b"`, "only b is left".
  {
    re: new RegExp(
      String.raw`^(?:the\s+)?(?:todo\s+|task\s+)?(?:list|todos|tasks|items)\s+(?:should\s+)?(?:shows?|contains?|reads?|be|is|are|has|have|lists?|holds?)\s+(only\s+)?(.+?)(\s*,?\s+in (?:this |that |the same )?order)?$`,
      'i',
    ),
    make: (m) => {
      const items = listItems(m[2]!);
      if (!m[1] && !m[3]) return undefined;
      return items.length > 0 ? listIs(items) : undefined;
    },
  },
  {
    re: /^only\s+(.+?)\s+(?:is|are|should be|remains?|should remain)\s+(?:left|shown|visible|listed|in the list)$/i,
    make: (m) => {
      const items = listItems(m[1]!);
      return items.length > 0 ? listIs(items) : undefined;
    },
  },
];

/** Clauses about items of a list, tried before the general grammar. */
const ITEM_RULES: Rule[] = [
  // While an item's edit box is open: typing, replacing, clearing and leaving it act on that box.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:type|enter|write|(?:change|set|replace|edit)\s+(?:it|the text|the title|its text|the todo|the name)\s+(?:to|with|into))\s+${VALUE}$`,
      'i',
    ),
    make: (m, state) => {
      if (!state.editing) return undefined;
      // "type" types at the caret, after the text already there; "change it to" replaces it.
      const typed = [1, 2, 3, 4].map((i) => m[i]).find((group) => group !== undefined) ?? pick(m, 1);
      if (/^(?:i\s+)?type\s/i.test(m[0])) return [action(`I type ${q(typed)} into ${editBox(state.editing)}`)];
      state.last = pick(m, 1);
      return [action(`I fill ${editBox(state.editing)} with ${q(pick(m, 1))}`)];
    },
  },
  {
    re: /^(?:i\s+)?(?:clear|empty|delete|remove)\s+(?:the\s+|its\s+|all the\s+)?(?:text|title|name|field|box|it)$/i,
    make: (_m, state) => (state.editing ? [action(`I clear ${editBox(state.editing)}`)] : undefined),
  },
  {
    re: /^(?:i\s+)?(?:click|tap)\s+(?:somewhere\s+else|outside(?:\s+(?:of\s+)?(?:it|the (?:box|field)))?|away)$/i,
    make: (_m, state) => (state.editing ? [action(`I blur ${editBox(state.editing)}`)] : undefined),
  },
  // "Double-click "walk dog" to edit it" opens the item's edit box.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?double[- ]?click(?:s)?(?:\s+on)?\s+${ELEMENT}(?:\s+(?:in order\s+)?to (?:edit|rename|change) it)?$`,
      'i',
    ),
    make: (m, state) => {
      const name = nameAt(m, 1);
      if (!name) return undefined;
      state.last = name;
      state.editing = name;
      return [action(`I double-click ${q(name)}`)];
    },
  },
  // "rename "buy bred" to "buy bread"", "edit "fix bike" to say "fix the bike"".
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:rename|edit|change)\s+(?:the\s+(?:todo|task|item|entry)\s+)?${VALUE}\s+(?:to|into)\s+(?:say\s+|read\s+)?${VALUE}$`,
      'i',
    ),
    make: (m, state) => {
      const from = itemName(pick(m, 1));
      const to = pick(m, 7);
      // "change Quantity to 2" is a field: only "rename"/"edit" or a named item read as an edit.
      if (!from || !/^(?:i\s+)?(?:rename|edit)|the\s+(?:todo|task|item|entry)\s/i.test(m[0])) return undefined;
      state.last = to;
      return [action(`I double-click ${q(from)}`), action(`I fill ${editBox(from)} with ${q(to)}`), action('I press "Enter"')];
    },
  },
  // Adding one item: "Add a todo "buy milk"", "create a new task called walk the dog", `add "a"`.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:add|create|enter|write|type)\s+(?:a\s+|an\s+|the\s+|one\s+)?(?:new\s+)?(?:todo|task|item|entry|to-do)(?:\s*:\s*|\s+(?:called|named|saying|that says)\s+|\s+)${VALUE}(?:\s+to the list)?$`,
      'i',
    ),
    make: (m, state) => (itemName(pick(m, 1)) ? addItem(pick(m, 1), state) : undefined),
  },
  // The item first, its kind after: `enter "read book" as a new todo`, `add "x" as a task`.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:add|create|enter|write|type)\s+${VALUE}\s+as\s+(?:a\s+|an\s+|the\s+|one\s+)?(?:new\s+)?(?:todo|task|item|entry|to-do)$`,
      'i',
    ),
    make: (m, state) => (itemName(pick(m, 1)) ? addItem(pick(m, 1), state) : undefined),
  },
  // The new-item field by its description: `type "water plants" into the new todo field`.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:type|write|enter|put|fill in)\s+${VALUE}\s+(?:in|into|in to)\s+(?:the\s+)?new[\s-]?(?:todo|task|item|entry|to-do)(?:\s+(?:field|box|input|text ?box))?$`,
      'i',
    ),
    make: (m, state) => {
      const name = pick(m, 1);
      state.last = name;
      return [action(`I fill ${NEW_ITEM_FIELD} with ${q(name)}`)];
    },
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:add|create)\s+${VALUE}(?:\s+to the list)?$`, 'i'),
    make: (m, state) => {
      const name = pick(m, 1);
      if (/\b(?:to|into|in)\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i.test(name) || !itemName(name)) return undefined;
      return addItem(name, state);
    },
  },
  // "type "water plants"" with no field named: the new-item field.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:type|write|enter)\s+${VALUE}$`, 'i'),
    make: (m, state) => {
      const name = pick(m, 1);
      // Unquoted "x in Password" names a field after all: the general grammar reads it.
      if (/^(?:key|the enter key)$/i.test(name) || (m[6] !== undefined && /\s(?:in|into|as|on)\s/i.test(name))) return undefined;
      state.last = name;
      return [action(`I fill ${NEW_ITEM_FIELD} with ${q(name)}`)];
    },
  },
  // Everything at once: "mark all as complete", "complete all todos".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:mark|set)\s+(?:all|everything|every ${ITEM})(?:\s+${ITEM})?\s+as\s+(${DONE}|${NOT_DONE})$`, 'i'),
    make: (m) => [action(`I ${new RegExp(`^${NOT_DONE}$`, 'i').test(m[1]!) ? 'uncheck' : 'check'} "Mark all as complete"`)],
  },
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:complete|tick|check|finish|toggle)\s+(?:off\s+)?(?:all|everything|every ${ITEM})(?:\s+(?:the\s+)?${ITEM})?$`,
      'i',
    ),
    make: () => [action('I check "Mark all as complete"')],
  },
  // Clearing the completed items: "clear completed", "remove all completed todos".
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:clear|remove|delete)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:completed|done|finished)(?:\s+${ITEM})?$`,
      'i',
    ),
    make: () => [action('I click "Clear completed"')],
  },
  // Completing one item: "Mark "buy milk" as completed", "tick off x", "check the box next to "wash car"".
  {
    re: new RegExp(String.raw`^(?:i\s+)?mark\s+${THE_ITEM}${VALUE}\s+as\s+(${DONE}|${NOT_DONE})$`, 'i'),
    make: (m, state) => {
      const name = nameAt(m, 1) ?? state.last;
      if (!name) return undefined;
      state.last = name;
      return [action(`I ${new RegExp(`^${NOT_DONE}$`, 'i').test(m[7]!) ? 'uncheck' : 'check'} ${rowCheckbox(name)}`)];
    },
  },
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:(?:check|tick|click|tap)\s+(?:on\s+)?(?:the\s+)?(?:check ?box|tick ?box|box|toggle|circle)\s+(?:next to|beside|for|of|by|in front of)|(?:tick|check|cross)\s+off|complete|finish)\s+${THE_ITEM}${VALUE}$`,
      'i',
    ),
    make: (m, state) => {
      const name = nameAt(m, 1) ?? state.last;
      if (!name) return undefined;
      state.last = name;
      return [action(`I check ${rowCheckbox(name)}`)];
    },
  },
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:uncheck|untick|clear)\s+(?:the\s+)?(?:check ?box|tick ?box|box|toggle|circle)\s+(?:next to|beside|for|of|by|in front of)\s+${VALUE}$`,
      'i',
    ),
    make: (m, state) => {
      const name = nameAt(m, 1) ?? state.last;
      if (!name) return undefined;
      state.last = name;
      return [action(`I uncheck ${rowCheckbox(name)}`)];
    },
  },
  // Deleting one item: `delete "one"`, "remove the todo old", "click y's delete button", "click its delete button", "delete it".
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:click|press|tap|hit)\s+(?:on\s+)?(?:the\s+)?(?:(?:delete|remove|destroy|x|×|cross)\s+(?:button|icon)\s+(?:of|for|next to|beside|on|in)\s+${VALUE}|${VALUE}(?:'s|’s)\s+(?:delete|remove|destroy|x|×|cross)(?:\s+(?:button|icon))?|(?:its|it's|it’s)\s+(?:delete|remove|destroy|x|×|cross)(?:\s+(?:button|icon))?)$`,
      'i',
    ),
    make: (m, state) => {
      const name = (pick(m, 1) ? nameAt(m, 1) : nameAt(m, 7)) ?? state.last;
      return name ? deleteItem(name) : undefined;
    },
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:delete|remove)\s+${THE_ITEM}${VALUE}(?:\s+from the list)?$`, 'i'),
    make: (m, state) => {
      const name = nameAt(m, 1) ?? state.last;
      return name ? deleteItem(name) : undefined;
    },
  },
  // Filters: "show only active todos", "filter by completed", "go back to All", "click the Active filter".
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:show|view|see|list|open|filter(?:\s+(?:by|on|to|for))?|switch\s+(?:back\s+)?to|go\s+(?:back\s+)?to|return to|choose|select|click(?:\s+on)?)\s+(?:only\s+)?(?:the\s+)?["'“]?(all|active|completed|done|finished)["'”]?(?:\s+(?:${ITEM}|filter|view|tab|list))?(?:\s+only)?$`,
      'i',
    ),
    make: (m) => [action(`I click ${q(FILTERS[m[1]!.toLowerCase()]!)}`)],
  },
  // The counter: "the counter says 2 items left", "it should say 1 item left".
  {
    re: new RegExp(
      String.raw`^(?:the\s+)?(?:counter|count|footer|it|item count|todo count)\s+(?:should\s+)?(?:say|says|show|shows|read|reads|display|displays)\s+${VALUE}$`,
      'i',
    ),
    make: (m) => [outcome(`I should see ${q(pick(m, 1))}`)],
  },
  // Counts: "there should be 2 todos", "I should see 1 todo", "there should be no todos".
  {
    re: new RegExp(
      String.raw`^(?:there\s+should\s+be|there\s+(?:are|is)|i\s+should\s+see|i\s+see|the\s+list\s+(?:should\s+)?(?:has|have|shows?|contains?))\s+(\d+|${Object.keys(NUMBERS).join('|')})\s+${ITEM}(?:\s+(?:in the list|listed|shown|left|remaining))?$`,
      'i',
    ),
    make: (m) => {
      const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBERS[m[1]!.toLowerCase()]!;
      return [outcome(`I should see ${n} ${LIST_WORD} ${n === 1 ? 'item' : 'items'}`)];
    },
  },
  {
    re: new RegExp(String.raw`^no\s+${ITEM}\s+(?:should be|are|is)\s+(?:shown|visible|listed|left|displayed)$`, 'i'),
    make: () => [outcome(`I should see 0 ${LIST_WORD} items`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:should\s+)?(?:still\s+)?see\s+${VALUE}\s+(?:in|on)\s+the\s+(?:todo\s+|task\s+)?list$`, 'i'),
    make: (m) => (itemName(pick(m, 1)) ? [outcome(`I should see ${q(pick(m, 1))}`)] : undefined),
  },
  {
    re: /^(?:the\s+)?(?:todo\s+|task\s+)?(?:list|todos|tasks)\s+(?:should be|is|are)\s+(?:empty|gone)$/i,
    make: () => [outcome(`I should see 0 ${LIST_WORD} items`)],
  },
  // The field new items go into: "the new todo box should be empty".
  {
    re: /^(?:the\s+)?(?:new\s+(?:todo|task|item)|todo|input|text|entry)\s+(?:box|field|input)\s+(?:should be|is|must be)\s+(?:empty|blank|cleared)$/i,
    make: () => [outcome(`${NEW_ITEM_FIELD} should be empty`)],
  },
  // An item's state: "x should be done", "mow lawn should be active", "the Completed filter should be selected".
  {
    re: new RegExp(
      String.raw`^(?:the\s+(?:todo|task|item|entry)\s+)?${VALUE}\s+(should be|is|must be|should not be|shouldn't be|is not|isn't|must not be)\s+(${DONE_WORDS}|${NOT_DONE_WORDS})$`,
      'i',
    ),
    make: (m) => {
      const name = nameAt(m, 1);
      if (!name) return undefined;
      const done = !new RegExp(`^${NOT_DONE_WORDS}$`, 'i').test(m[8]!) !== /not|n't/i.test(m[7]!);
      return [outcome(`${rowCheckbox(name)} ${done ? 'should be checked' : 'should not be checked'}`)];
    },
  },
  {
    re: new RegExp(
      String.raw`^(?:the\s+)?${VALUE}\s+(?:filter|tab|link|view)\s+(?:should be|is|must be)\s+(?:selected|highlighted|current|active)$`,
      'i',
    ),
    make: (m) => [outcome(`${q(pick(m, 1))} should have the class "selected"`)],
  },
  // Gone: ""one" should no longer be visible", "x should be gone", "x disappears".
  {
    re: new RegExp(
      String.raw`^${VALUE}\s+(?:should\s+no\s+longer\s+be|is\s+no\s+longer|should\s+not\s+be\s+(?:listed|in the list|there)|should\s+be\s+gone|is\s+gone|should\s+disappear|disappears|has\s+disappeared)(?:\s+(?:visible|shown|displayed|listed|there|in the list))?$`,
      'i',
    ),
    make: (m) => (itemName(pick(m, 1)) ? [outcome(`I should not see ${q(pick(m, 1))}`)] : undefined),
  },
  {
    re: new RegExp(String.raw`^${VALUE}\s+(?:should\s+be|is)\s+(?:in the list|listed|on the list)$`, 'i'),
    make: (m) => (itemName(pick(m, 1)) ? [outcome(`I should see ${q(pick(m, 1))}`)] : undefined),
  },
];

/** Ordered: the first rule that matches a clause wins, so specific phrasings come before general ones. */
const RULES: Rule[] = [
  // Navigation.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:open|go to|navigate to|visit|browse to|load|start (?:on|at)|am on)\s+${VALUE}$`, 'i'),
    make: (m) => [{ kind: 'context', text: `I open ${q(pagePath(pick(m, 1)))}` }],
  },
  // History, tabs and dialogs.
  { re: /^(?:i\s+)?(?:reload|refresh)(?:\s+the\s+page)?$/i, make: () => [action('I reload the page')] },
  {
    re: /^(?:i\s+)?(?:go|navigate|move)\s+(back|forward)(?:\s+(?:a|one)\s+page)?$|^(?:i\s+)?(?:press|click|hit)\s+(?:the\s+)?(?:browser'?s?\s+)?(back|forward)(?:\s+button)?$/i,
    make: (m) => [action(`I go ${(m[1] ?? m[2])!.toLowerCase()}`)],
  },
  {
    re: /^(?:i\s+)?(?:switch|go|move|change)\s+to\s+the\s+(?:new|other|next|newly opened)\s+(?:tab|window)$/i,
    make: () => [action('I switch to the new tab')],
  },
  {
    re: /^(?:i\s+)?(?:accept|confirm|ok|say yes to|click ok (?:in|on))\s+(?:the\s+)?(?:next\s+)?(?:dialog|confirmation|confirm|alert|prompt|pop-?up)$/i,
    make: () => [action('I accept the next dialog')],
  },
  {
    re: /^(?:i\s+)?(?:dismiss|cancel|reject|decline|say no to|close)\s+(?:the\s+)?(?:next\s+)?(?:dialog|confirmation|confirm|alert|prompt|pop-?up)$/i,
    make: () => [action('I dismiss the next dialog')],
  },
  // Pointer actions other than a click.
  {
    re: new RegExp(String.raw`^(?:i\s+)?double[- ]?click(?:s)?(?:\s+on)?\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I double-click ${q(elementNamed(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?right[- ]?click(?:s)?(?:\s+on)?\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I right-click ${q(elementNamed(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:hover|mouse ?over|move the mouse (?:over|to)|point at)(?:\s+(?:over|on))?\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I hover over ${q(elementNamed(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?scroll(?:\s+down)?\s+(?:to|until)\s+${ELEMENT}(?:\s+is visible)?$`, 'i'),
    make: (m) => [action(`I scroll to ${q(elementNamed(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?drag\s+${ELEMENT}\s+(?:to|onto|on|into|over to)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I drag ${q(elementNamed(m, 1))} to ${q(elementNamed(m, 7))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:upload|attach)\s+(?:the\s+file\s+)?${VALUE}\s+(?:to|in|into|as|with|using)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I upload ${q(pick(m, 1))} to ${q(elementNamed(m, 7))}`)],
  },
  // Fields and boxes: clearing and unticking, before "check" and "fill" read them.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:clear|empty|blank out)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I clear ${q(elementNamed(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:uncheck|untick|unselect|deselect|un-check|un-tick)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I uncheck ${q(elementNamed(m, 1))}`)],
  },
  // Outcomes about one element, a count, the title and the exact address.
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:should see|see|there should be|there are|expect)\s+(\d+)\s+${VALUE}\s+(?:items?|rows?|entries|todos?)$`,
      'i',
    ),
    make: (m) => [outcome(`I should see ${m[1]} ${q(pick(m, 2))} ${m[1] === '1' ? 'item' : 'items'}`)],
  },
  {
    re: new RegExp(
      String.raw`^${ELEMENT}\s+(should be|is|must be|should not be|shouldn't be|is not|isn't|must not be)\s+(checked|ticked|selected|unchecked|not checked|unticked|not ticked|enabled|disabled|visible|shown|displayed|hidden|not visible|not shown|empty|blank)$`,
      'i',
    ),
    make: (m) => {
      const negated = /not|n't/i.test(m[7]!);
      const state = m[8]!.toLowerCase();
      const name = q(elementNamed(m, 1));
      const phrase: Record<string, [string, string | undefined]> = {
        checked: ['should be checked', 'should not be checked'],
        ticked: ['should be checked', 'should not be checked'],
        selected: ['should be checked', 'should not be checked'],
        unchecked: ['should not be checked', 'should be checked'],
        'not checked': ['should not be checked', 'should be checked'],
        unticked: ['should not be checked', 'should be checked'],
        'not ticked': ['should not be checked', 'should be checked'],
        enabled: ['should be enabled', 'should be disabled'],
        disabled: ['should be disabled', 'should be enabled'],
        visible: ['should be visible', 'should be hidden'],
        shown: ['should be visible', 'should be hidden'],
        displayed: ['should be visible', 'should be hidden'],
        hidden: ['should be hidden', 'should be visible'],
        'not visible': ['should be hidden', 'should be visible'],
        'not shown': ['should be hidden', 'should be visible'],
        // "should not be empty" has no built-in step: the clause stays unmatched rather than test less.
        empty: ['should be empty', undefined],
        blank: ['should be empty', undefined],
      };
      const [positive, negative] = phrase[state]!;
      const text = negated ? negative : positive;
      return text ? [outcome(`${name} ${text}`)] : [];
    },
  },
  {
    re: new RegExp(String.raw`^${ELEMENT}\s+(?:should (?:have|hold|contain) the value|has the value|value should be)\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`${q(elementNamed(m, 1))} should have the value ${q(pick(m, 7))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:the\s+)?(?:page\s+)?title\s+(?:should\s+)?(?:be|is|equal|equals|read|reads)\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`the title should be ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:the\s+)?(?:page\s+)?title\s+(?:should\s+)?(?:contain|contains|include|includes|has)\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`the title should contain ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:the\s+)?(?:url|address)\s+(?:should\s+)?(?:be|is|equal|equals)\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`the URL should be ${q(pick(m, 1))}`)],
  },
  // A key, quoted or not ("press "Enter"" is a key, not a button).
  {
    re: /^(?:i\s+)?(?:press|hit)\s+(?:the\s+)?["'“‘]?(enter|return|tab|escape|esc|space|backspace|delete|arrow ?(?:up|down|left|right))["'”’]?(?:\s+key)?$/i,
    make: (m) => [action(`I press ${q(keyName(m[1]!))}`)],
  },
  // Sign in as a user (with a password or the test data's {{password}}).
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:log ?in|sign ?in|login|check out)\s+as\s+${VALUE}(?:\s+(?:with|and)\s+(?:password\s+)?${VALUE})?$`,
      'i',
    ),
    make: (m) => {
      const checkout = /check out/i.test(m[0]);
      const steps = [action(`I fill "Email" with ${q(pick(m, 1))}`)];
      if (!checkout) steps.push(action(`I fill "Password" with ${q(pick(m, 7) || '{{password}}')}`), action('I click "Sign in"'));
      else steps.unshift(action('I click "Checkout"'));
      return steps;
    },
  },
  // Search.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:search (?:for\s+)?|look (?:for|up)\s+)${VALUE}$`, 'i'),
    make: (m) => [action(`I fill "Search" with ${q(pick(m, 1))}`), action('I press "Enter"')],
  },
  // Fill: "fill Email with x", "type x into Email", "enter x in the Email field", "set Email to x".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:fill(?: in| out)?|complete)\s+${ELEMENT}\s+with\s+${VALUE}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementNamed(m, 1))} with ${q(pick(m, 7))}`)],
  },
  // "type" types key by key, as the words say: a field that counts keystrokes or suggests as you type sees every key.
  {
    re: new RegExp(String.raw`^(?:i\s+)?type\s+${VALUE}\s+(?:in|into)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I type ${q(pick(m, 1))} into ${q(elementNamed(m, 7))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:enter|input|put|write)\s+${VALUE}\s+(?:in|into|as)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementNamed(m, 7))} with ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:set|change)\s+${VALUE}\s+to\s+${VALUE}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementNamed(m, 1))} with ${q(pick(m, 7))}`)],
  },
  // Select: "select Slate from Colour", "choose Slate in the Colour dropdown".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:select|choose|pick)\s+${VALUE}\s+(?:from|in|as)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I select ${q(pick(m, 1))} from ${q(elementNamed(m, 7))}`)],
  },
  // Keys.
  {
    re: /^(?:i\s+)?(?:press|hit|type)\s+(?:the\s+)?(enter|tab|escape|esc|space|backspace|arrow ?(?:up|down|left|right))(?:\s+key)?$/i,
    make: (m) => [action(`I press ${q(keyName(m[1]!))}`)],
  },
  { re: /^(?:i\s+)?(?:press|hit)\s+(?:the\s+)?key\s+"?([^"]+?)"?$/i, make: (m) => [action(`I press ${q(m[1]!)}`)] },
  // Check boxes.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:check|tick|accept|agree to|enable)\s+${VALUE}$`, 'i'),
    make: (m) => [action(`I check ${q(elementNamed(m, 1))}`)],
  },
  // Cart paraphrases: "add it / the first result / Trail Backpack to the cart".
  { re: /^(?:i\s+)?add\s+(?:.+?\s+)?to\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i, make: () => [action('I click "Add to cart"')] },
  // Outcomes: negative first, so "should not see" is not read as "should see".
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:should not see|shouldn't see|should no longer see|no longer see|do not see|don't see|cannot see|can't see|verify (?:that )?(?:the )?page does not (?:show|contain))\s+${VALUE}$`,
      'i',
    ),
    make: (m) => [outcome(`I should not see ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:the\s+)?(?:url|address)\s+(?:should\s+)?(?:contain|contains|include|includes|has)\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`the URL should contain ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:should be|am|end up)\s+on\s+${VALUE}$`, 'i'),
    make: (m) => [outcome(`the URL should contain ${q(pagePath(pick(m, 1)).replace(/^\//, ''))}`)],
  },
  {
    re: new RegExp(
      String.raw`^(?:i\s+)?(?:should see|should still see|still see|see|expect(?: to see)?|verify(?: that)?(?: the page shows)?|assert(?: that)?(?: the page shows)?|check that(?: the page shows)?|(?:the )?page (?:should )?(?:show|shows|contain|contains))\s+${VALUE}(?:\s+is (?:shown|visible|displayed))?$`,
      'i',
    ),
    make: (m) => [outcome(`I should see ${q(pick(m, 1))}`)],
  },
  // Waiting.
  {
    re: /^(?:i\s+)?wait\s+(?:for\s+)?(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i,
    make: (m) => [action(`I wait for "${Math.round(Number(m[1]) * (/^m/i.test(m[2]!) ? 1 : 1000))}"`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?wait\s+(?:for|until)\s+${VALUE}(?:\s+(?:appears|is shown|shows))?$`, 'i'),
    make: (m) => [action(`I wait for ${q(pick(m, 1))}`)],
  },
  // "the heading should say X", "the page says X": text the page shows, wherever it is.
  {
    re: new RegExp(
      String.raw`^(?:the\s+)?(?:heading|page|screen|message|notice|banner|status|text)\s+(?:should\s+)?(?:say|says|read|reads|show|shows|display|displays)\s+${VALUE}$`,
      'i',
    ),
    make: (m) => [outcome(`I should see ${q(pick(m, 1))}`)],
  },
  // Click, last: "click", "press", "tap", "hit", "submit", "open the Cart menu".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:click|clicks|press|tap|hit|select|choose|submit|follow)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I click ${q(elementNamed(m, 1))}`)],
  },
];

function keyName(raw: string): string {
  const key = raw.toLowerCase().replace(/\s+/g, '');
  const names: Record<string, string> = {
    enter: 'Enter',
    return: 'Enter',
    delete: 'Delete',
    tab: 'Tab',
    escape: 'Escape',
    esc: 'Escape',
    space: 'Space',
    backspace: 'Backspace',
    arrowup: 'ArrowUp',
    arrowdown: 'ArrowDown',
    arrowleft: 'ArrowLeft',
    arrowright: 'ArrowRight',
  };
  return names[key] ?? raw;
}

/** The runner's built-in step patterns as regular expressions, for lines already written as steps. */
// A step that needs a data table cannot come from one line of prose.
const BUILT_IN = BUILT_IN_STEP_PATTERNS.filter((pattern) => !pattern.endsWith(':')).map(builtInStepRegExp);
const KEYWORD = /^(?:given|when|then|and|but|\*)\s+/i;

/** "then", "and then", or "and" before a verb of the grammar, as a clause separator. */
const WORD_SEPARATOR =
  /^\s+(?:and then|then|and(?=\s+(?:i\s+)?(?:open|go|navigate|visit|click|double-click|right-click|hover|press|tap|fill|type|enter|select|choose|check|uncheck|tick|untick|clear|search|add|wait|see|should|verify|expect|log|sign|submit|reload|refresh|drag|upload|scroll|accept|dismiss|switch|hit|mark|complete|delete|remove|edit|rename|change|replace|filter|show|untick|tap)\b))\s+/i;

/** Splits a line at commas, semicolons and "then"/"and then", but not inside quotes or `{{…}}`. */
export function splitClauses(line: string): string[] {
  const clauses: string[] = [];
  let current = '';
  let quote: string | null = null;
  const closing: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      current += ch;
      continue;
    }
    // An apostrophe inside a word ("don't") is not a quote.
    if (ch in closing && !(ch === "'" && /\w/.test(line[i - 1] ?? '') && /\w/.test(line[i + 1] ?? ''))) {
      quote = closing[ch]!;
      current += ch;
      continue;
    }
    const rest = line.slice(i);
    const separator = ch === ',' || ch === ';' ? 1 : (WORD_SEPARATOR.exec(rest)?.[0].length ?? 0);
    if (separator > 0) {
      clauses.push(current);
      current = '';
      i += separator - 1;
      continue;
    }
    current += ch;
  }
  clauses.push(current);
  return clauses
    .map((clause) =>
      clause
        .trim()
        .replace(/^(?:then|and then|and|finally|next|first)\s+/i, '')
        .replace(/[.!]+$/, '')
        .trim(),
    )
    .filter((clause) => clause !== '');
}

const PRONOUN = /(^|\s)(?:it|this one|that one)(?=\s|$)/i;

/**
 * Translates one clause, or undefined when the grammar does not know it. `state` carries what the
 * flow's earlier clauses named (for "it" and an open edit box); it is updated by the clause.
 */
export function translateClause(clause: string, state: FlowState = {}): TranslatedStep[] | undefined {
  // "mark "dust" as done too": the trailing "too" says nothing a step needs.
  const text = clause
    .replace(KEYWORD, '')
    .trim()
    .replace(/,?\s+(?:too|as well|also)$/i, '');
  // Already a built-in step: keep it as written.
  if (BUILT_IN.some((re) => re.test(text))) {
    const isOutcome = /\bshould\b/.test(text);
    return [{ kind: /^I open /.test(text) ? 'context' : isOutcome ? 'outcome' : 'action', text }];
  }
  const attempt = (said: string) => {
    for (const rule of [...ITEM_RULES, ...RULES]) {
      const match = rule.re.exec(said);
      if (!match) continue;
      const trial: FlowState = { ...state };
      const steps = rule.make(match, trial);
      // A clause whose value came out empty ("click the"), or that made no step, is not understood
      // (an escaped quote closing a value, `"Say \"hi\""`, is no empty value).
      if (steps && steps.length > 0 && steps.every((step) => !/(?:^|[^\\])""/.test(step.text))) {
        Object.assign(state, trial);
        return steps;
      }
    }
    return undefined;
  };
  // "it" is the item the flow named last: "mark it as done", "it should be checked".
  return attempt(text) ?? (state.last ? attempt(text.replace(PRONOUN, (_all, before: string) => `${before}${q(state.last!)}`)) : undefined);
}

/**
 * Translates every line of a flow; lines (clauses) the grammar cannot read go to `unmatched`, or to
 * `fallback` first (the model's translation of that clause) when one is given.
 */
export function translateFlow(flow: readonly string[], fallback?: (clause: string) => TranslatedStep[] | undefined): Translation {
  const lines: Translation['lines'] = [];
  const state: FlowState = {};
  for (const line of flow) {
    const read: Translation['lines'][number] = { line, steps: [], unmatched: [] };
    lines.push(read);
    const whole = translateLine(line, state);
    if (whole) {
      read.steps.push(...whole);
      continue;
    }
    for (const clause of splitClauses(line)) {
      const translated = translateClause(clause, state) ?? fallback?.(clause);
      if (!translated) {
        read.unmatched.push(clause);
        continue;
      }
      read.steps.push(...translated);
      // The item a step of the general grammar acted on is what a later "it" means.
      const acted = [...translated]
        .reverse()
        .map((step) => /^I (?:check|uncheck|double-click|hover over) "((?:[^"\\]|\\.)*)"$/.exec(step.text)?.[1]);
      const named = acted.find((name) => name !== undefined);
      if (named) state.last = unescapeStepValue(named);
      // Enter, Escape or leaving the box ends an edit.
      if (state.editing && translated.some((step) => /^I (?:press|blur|click) /.test(step.text))) delete state.editing;
    }
  }
  return { steps: lines.flatMap((read) => read.steps), unmatched: lines.flatMap((read) => read.unmatched), lines };
}

/** A line about several items at once ("add a, b and c", "the list shows a, b in order"), read whole. */
function translateLine(line: string, state: FlowState): TranslatedStep[] | undefined {
  const text = line
    .trim()
    .replace(KEYWORD, '')
    .replace(/[.!]+$/, '');
  for (const rule of LINE_RULES) {
    const match = rule.re.exec(text);
    const trial: FlowState = { ...state };
    const steps = match ? rule.make(match, trial) : undefined;
    if (steps && steps.length > 0) {
      Object.assign(state, trial);
      return steps;
    }
  }
  return undefined;
}

/** Given/When/Then by kind, And for a repeat of the same kind. */
export function withKeywords(steps: readonly TranslatedStep[]): string[] {
  let previous: StepKind | undefined;
  return steps.map((step) => {
    const keyword = step.kind === previous ? 'And' : step.kind === 'context' ? 'Given' : step.kind === 'action' ? 'When' : 'Then';
    previous = step.kind;
    return `${keyword} ${step.text}`;
  });
}
