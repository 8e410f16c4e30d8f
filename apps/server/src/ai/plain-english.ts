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
}

const q = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

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
  // "click the" names nothing: an empty name makes the clause unmatched.
  return /^(?:the|a|an|on|it|this|that)$/i.test(name) ? '' : name;
};

/** Where "open the shop" and friends go: the environment's base URL. */
const HOME = /^(?:the\s+)?(?:[\w-]+\s+)?(?:shop|site|app|application|home ?page|home|start page|website|main page|store)$/i;

const pagePath = (raw: string) => {
  const value = raw.trim();
  if (HOME.test(value)) return '/';
  if (/^(?:https?:\/\/|\/|\{\{)/i.test(value) || /\.\w+($|\?)/.test(value)) return value;
  // "the login page" → "login.html" is a guess the shop's layout supports but others may not; keep
  // the words as a path the user can correct.
  const page = /^(?:the\s+)?([\w-]+)\s+page$/i.exec(value)?.[1];
  return page ? `${page.toLowerCase()}.html` : value;
};

interface Rule {
  re: RegExp;
  make: (m: RegExpExecArray) => TranslatedStep[];
}

const action = (text: string): TranslatedStep => ({ kind: 'action', text });
const outcome = (text: string): TranslatedStep => ({ kind: 'outcome', text });

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
    make: (m) => [action(`I double-click ${q(elementName(pick(m, 1)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?right[- ]?click(?:s)?(?:\s+on)?\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I right-click ${q(elementName(pick(m, 1)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:hover|mouse ?over|move the mouse (?:over|to)|point at)(?:\s+(?:over|on))?\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I hover over ${q(elementName(pick(m, 1)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?scroll(?:\s+down)?\s+(?:to|until)\s+${ELEMENT}(?:\s+is visible)?$`, 'i'),
    make: (m) => [action(`I scroll to ${q(elementName(pick(m, 1)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?drag\s+${ELEMENT}\s+(?:to|onto|on|into|over to)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I drag ${q(elementName(pick(m, 1)))} to ${q(elementName(pick(m, 7)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:upload|attach)\s+(?:the\s+file\s+)?${VALUE}\s+(?:to|in|into|as|with|using)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I upload ${q(pick(m, 1))} to ${q(elementName(pick(m, 7)))}`)],
  },
  // Fields and boxes: clearing and unticking, before "check" and "fill" read them.
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:clear|empty|blank out)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I clear ${q(elementName(pick(m, 1)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:uncheck|untick|unselect|deselect|un-check|un-tick)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I uncheck ${q(elementName(pick(m, 1)))}`)],
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
      const name = q(elementName(pick(m, 1)));
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
    make: (m) => [outcome(`${q(elementName(pick(m, 1)))} should have the value ${q(pick(m, 7))}`)],
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
    re: new RegExp(String.raw`^(?:i\s+)?search (?:for\s+)?${VALUE}$`, 'i'),
    make: (m) => [action(`I fill "Search" with ${q(pick(m, 1))}`), action('I press "Enter"')],
  },
  // Fill: "fill Email with x", "type x into Email", "enter x in the Email field", "set Email to x".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:fill(?: in| out)?|complete)\s+${ELEMENT}\s+with\s+${VALUE}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementName(pick(m, 1)))} with ${q(pick(m, 7))}`)],
  },
  // "type" types key by key, as the words say: a field that counts keystrokes or suggests as you type sees every key.
  {
    re: new RegExp(String.raw`^(?:i\s+)?type\s+${VALUE}\s+(?:in|into)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I type ${q(pick(m, 1))} into ${q(elementName(pick(m, 7)))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:enter|input|put|write)\s+${VALUE}\s+(?:in|into|as)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementName(pick(m, 7)))} with ${q(pick(m, 1))}`)],
  },
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:set|change)\s+${VALUE}\s+to\s+${VALUE}$`, 'i'),
    make: (m) => [action(`I fill ${q(elementName(pick(m, 1)))} with ${q(pick(m, 7))}`)],
  },
  // Select: "select Slate from Colour", "choose Slate in the Colour dropdown".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:select|choose|pick)\s+${VALUE}\s+(?:from|in|as)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I select ${q(pick(m, 1))} from ${q(elementName(pick(m, 7)))}`)],
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
    make: (m) => [action(`I check ${q(elementName(pick(m, 1)))}`)],
  },
  // Cart paraphrases: "add it / the first result / Trail Backpack to the cart".
  { re: /^(?:i\s+)?add\s+.+?\s+to\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i, make: () => [action('I click "Add to cart"')] },
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
  // Click, last: "click", "press", "tap", "hit", "submit", "open the Cart menu".
  {
    re: new RegExp(String.raw`^(?:i\s+)?(?:click|clicks|press|tap|hit|select|choose|submit|follow)\s+${ELEMENT}$`, 'i'),
    make: (m) => [action(`I click ${q(elementName(pick(m, 1)))}`)],
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
  /^\s+(?:and then|then|and(?=\s+(?:i\s+)?(?:open|go|navigate|visit|click|double-click|right-click|hover|press|tap|fill|type|enter|select|choose|check|uncheck|tick|untick|clear|search|add|wait|see|should|verify|expect|log|sign|submit|reload|refresh|drag|upload|scroll|accept|dismiss|switch)\b))\s+/i;

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

/** Translates one clause, or undefined when the grammar does not know it. */
export function translateClause(clause: string): TranslatedStep[] | undefined {
  const text = clause.replace(KEYWORD, '').trim();
  // Already a built-in step: keep it as written.
  if (BUILT_IN.some((re) => re.test(text))) {
    const isOutcome = /\bshould\b/.test(text);
    return [{ kind: /^I open /.test(text) ? 'context' : isOutcome ? 'outcome' : 'action', text }];
  }
  for (const rule of RULES) {
    const match = rule.re.exec(text);
    if (match) {
      const steps = rule.make(match);
      // A clause whose value came out empty ("click the") is not understood.
      if (steps.every((step) => !/""/.test(step.text))) return steps;
    }
  }
  return undefined;
}

/** Translates every line of a flow; lines (clauses) the grammar cannot read go to `unmatched`. */
export function translateFlow(flow: readonly string[]): Translation {
  const steps: TranslatedStep[] = [];
  const unmatched: string[] = [];
  for (const line of flow) {
    for (const clause of splitClauses(line)) {
      const translated = translateClause(clause);
      if (translated) steps.push(...translated);
      else unmatched.push(clause);
    }
  }
  return { steps, unmatched };
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
