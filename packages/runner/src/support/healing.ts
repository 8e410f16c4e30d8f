import type { Locator, Page } from 'playwright-core';
import {
  candidateLocator,
  checkableBeside,
  xpathLiteral,
  type Element,
  type ElementFingerprint,
  type LocatorCandidate,
} from './elements.js';

/**
 * Self-healing of element locators (DESIGN §8, §11): when every recorded candidate of an element
 * fails, score the live elements of the page against the element's recorded fingerprint and, when
 * the best one is clearly the same element, act on it and propose new candidates for it.
 *
 * Scoring runs in Node over plain data the page hands back, so it is testable and the same for
 * every browser; only the collection of live elements runs in the page.
 */

/** A live element as the page describes it: a fingerprint plus its slot in the page's list. */
export interface LiveElement extends ElementFingerprint {
  slot: number;
  /** Whether it accepts typed text (input, textarea, contenteditable). */
  editable: boolean;
  /**
   * A control the page hides (a switch's checkbox) that a person reaches through its visible
   * label: described as the control, placed where the label is, and acted on through the label.
   */
  viaLabel?: string;
}

/** What an action needs of the element it is healed to. */
export type ElementNeed = 'any' | 'fill' | 'select' | 'check';

/** Below this the best match is not trusted at all. */
export const HEAL_THRESHOLD = 0.6;
/** An element of an assertion is only healed when it is this sure: a check must not pass on a look-alike. */
export const ASSERTION_THRESHOLD = 0.78;
/**
 * How far an assertion's match must clear ASSERTION_THRESHOLD. The weakest clues, where the
 * element sits on the page and its index among look-alikes, each carry up to 0.5 of about 10 in
 * weight, so either alone moves a score by up to 0.05: a match closer to the threshold than that
 * (one passed at 0.789) is a check that passes or fails by where the redesign drew the element.
 */
export const ASSERTION_CLEARANCE = 0.05;
/** The best match must beat the runner-up by this much, or the page is ambiguous and nothing is healed. */
export const HEAL_MARGIN = 0.06;

// The page side, as source text: `page.evaluate(fn)` would ship whatever helpers the TypeScript
// loader wrapped the function in, which do not exist in the page.
const PAGE_SCRIPT = String.raw`(() => {
  const IMPLICIT = { a: (e) => e.hasAttribute('href') ? 'link' : '', button: () => 'button', select: (e) => e.multiple || e.size > 1 ? 'listbox' : 'combobox',
    textarea: () => 'textbox', h1: () => 'heading', h2: () => 'heading', h3: () => 'heading', h4: () => 'heading', h5: () => 'heading', h6: () => 'heading',
    nav: () => 'navigation', main: () => 'main', header: () => 'banner', footer: () => 'contentinfo', form: () => 'form', ul: () => 'list', ol: () => 'list',
    li: () => 'listitem', table: () => 'table', tr: () => 'row', td: () => 'cell', th: () => 'columnheader', dialog: () => 'dialog', img: (e) => e.getAttribute('alt') === '' ? 'presentation' : 'img',
    section: (e) => e.hasAttribute('aria-label') || e.hasAttribute('aria-labelledby') ? 'region' : '', option: () => 'option', aside: () => 'complementary',
    input: (e) => { const t = (e.getAttribute('type') || 'text').toLowerCase();
      return ({ button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', hidden: '' })[t] ?? 'textbox'; } };
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const roleOf = (e) => e.getAttribute('role') || (IMPLICIT[e.localName] ? IMPLICIT[e.localName](e) : '');
  const textOf = (e) => norm(e.innerText ?? e.textContent).slice(0, 200);
  const nameOf = (e) => {
    const label = e.getAttribute('aria-label'); if (label) return norm(label);
    const by = e.getAttribute('aria-labelledby');
    if (by) return norm(by.split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' '));
    if (e.labels && e.labels.length) return norm([...e.labels].map((l) => l.innerText).join(' '));
    if (e.localName === 'img' || (e.localName === 'input' && e.type === 'image')) return norm(e.getAttribute('alt'));
    if (e.localName === 'input' && ['submit', 'button', 'reset'].includes(e.type)) return norm(e.value);
    if (['input', 'textarea', 'select'].includes(e.localName)) return norm(e.getAttribute('placeholder') || e.getAttribute('title'));
    return norm(e.innerText ?? e.textContent) || norm(e.getAttribute('title'));
  };
  const ATTRS = ['id', 'class', 'name', 'type', 'href', 'data-testid', 'placeholder', 'aria-label', 'title', 'alt'];
  const visible = (e) => { const r = e.getBoundingClientRect(); if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(e); return s.visibility !== 'hidden' && s.display !== 'none' && !e.closest('[aria-hidden="true"],[hidden]'); };
  // The row, item or card around an element, by its first own text: as the recorder keeps it.
  const ownText = (box, visibleOnly) => { for (const e of box.querySelectorAll('*')) { if (/^(SCRIPT|STYLE)$/.test(e.tagName) || (visibleOnly && !visible(e))) continue;
    const own = norm([...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('')); if (own) return own; } return ''; };
  const containerOf = (e) => { const box = e.matches('li,tr,[role=row],[role=listitem],[role=option],article') ? e : e.parentElement?.closest('li,tr,[role=row],[role=listitem],[role=option],article');
    if (!box || !box.parentElement) return undefined;
    if (box.localName === 'article' && [...box.parentElement.children].filter((c) => c.localName === 'article').length < 2) return undefined;
    const field = box.querySelector('input:not([type]),input[type="text"],textarea');
    const heading = box.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]');
    const text = (heading && visible(heading) ? textOf(heading) : '') || ownText(box, true) || ownText(box, false) || norm(field?.value) || textOf(box);
    return text ? { tag: box.localName, text: text.slice(0, 200) } : { tag: box.localName, text: '' }; };
  const fingerprint = (e) => {
    const attributes = {};
    for (const a of ATTRS) { const v = e.getAttribute(a); if (v !== null && v !== '') attributes[a] = a === 'class' ? norm(v) : v; }
    if (e.localName === 'button' && e.value) attributes.value = e.value;
    const ancestors = [];
    for (let p = e.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) ancestors.unshift(roleOf(p) || p.localName);
    const r = e.getBoundingClientRect();
    const role = roleOf(e), name = nameOf(e), text = textOf(e), container = containerOf(e);
    return { tag: e.localName, ...(role ? { role } : {}), ...(name ? { name } : {}), ...(text ? { text } : {}), ...(container ? { container } : {}), attributes, ancestors,
      rect: { x: Math.round(r.x + scrollX), y: Math.round(r.y + scrollY), width: Math.round(r.width), height: Math.round(r.height) },
      editable: e.isContentEditable || e.localName === 'textarea' || (e.localName === 'input' && !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'hidden', 'file'].includes(e.type)) };
  };
  const SELECTOR = 'a,button,input,select,textarea,label,summary,[role],[data-testid],[id],[tabindex],h1,h2,h3,h4,h5,h6,p,li,td,th,dt,dd,span,strong,img,output,legend';
  window.__rehearseFingerprint = fingerprint;
  // A hidden control's visible label (<label for>, a wrapping <label>, aria-labelledby): a switch
  // or custom checkbox hides its input, and a person clicks the label.
  const visibleLabelOf = (e) => {
    const by = (e.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
    return [...(e.labels || []), ...by].find((l) => l && l.localName === 'label' && visible(l) && norm(l.innerText)); };
  window.__rehearseCollect = () => {
    // Plus any element with text of its own (a counter's <div>): what a person reads is an element.
    const hasOwnText = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const all = [...document.querySelectorAll('body *')].filter((e) => (e.matches(SELECTOR) || hasOwnText(e)) && !/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(e.tagName)).filter(visible);
    const reached = [...document.querySelectorAll('input,select,textarea')].filter((e) => e.type !== 'hidden' && !visible(e))
      .map((e) => [e, visibleLabelOf(e)]).filter(([, label]) => label);
    // The slot of a label-reached control holds its label: that is what is clicked and verified.
    window.__rehearseLive = [...all, ...reached.map(([, label]) => label)];
    const prints = [...all.map((e, slot) => ({ ...fingerprint(e), slot })),
      ...reached.map(([e, label], i) => { const l = fingerprint(label);
        return { ...fingerprint(e), rect: l.rect, slot: all.length + i, viaLabel: norm(label.innerText).slice(0, 200) }; })];
    // Index among elements of the same role and name, as the recorder counts it.
    const seen = new Map();
    for (const p of prints) { const k = (p.role || p.tag) + '|' + (p.name || ''); const n = seen.get(k) ?? 0; p.index = n; seen.set(k, n + 1); }
    return prints;
  };
})()`;

async function install(page: Page): Promise<void> {
  await page.evaluate(PAGE_SCRIPT);
}

/** The live, visible elements of the page, described like recorded fingerprints. */
export async function collectLiveElements(page: Page): Promise<LiveElement[]> {
  await install(page);
  return page.evaluate('window.__rehearseCollect()');
}

/** Records the fingerprint of the one element `locator` finds (the recorder's job; the bench and tests use it). */
export async function fingerprintOf(page: Page, locator: Locator): Promise<ElementFingerprint> {
  await install(page);
  // The function runs in the page, where the script above defined the fingerprint helper.
  const print = await locator.evaluate((element) =>
    (globalThis as unknown as { __rehearseFingerprint: (e: unknown) => LiveElement }).__rehearseFingerprint(element),
  );
  const index = await sameRoleAndNameIndex(page, print);
  const { editable: _editable, ...fingerprint } = print;
  return { ...fingerprint, index };
}

async function sameRoleAndNameIndex(page: Page, print: LiveElement): Promise<number> {
  const live = await collectLiveElements(page);
  const same = live.filter((e) => (e.role || e.tag) === (print.role || print.tag) && (e.name ?? '') === (print.name ?? ''));
  const at = same.findIndex((e) => e.rect?.x === print.rect?.x && e.rect?.y === print.rect?.y && e.tag === print.tag);
  return Math.max(0, at);
}

// ---- Scoring ----

const words = (text: string | undefined) =>
  new Set(
    (text ?? '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const item of a) if (b.has(item)) both += 1;
  return both / (a.size + b.size - both);
}

function levenshteinRatio(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return 1 - row[b.length]! / Math.max(a.length, b.length);
}

/** How alike two texts are, 0..1: the better of word overlap and character edit distance. */
export function textSimilarity(a: string | undefined, b: string | undefined): number {
  const x = (a ?? '').toLowerCase().trim();
  const y = (b ?? '').toLowerCase().trim();
  if (x === y) return 1;
  if (!x || !y) return 0;
  return Math.max(jaccard(words(x), words(y)), levenshteinRatio(x.slice(0, 120), y.slice(0, 120)));
}

// Wrappers with no role: a redesign adds and drops them for layout, and they say nothing of where an element is.
const GENERIC = new Set(['div', 'span']);
const meaningful = (ancestors: readonly string[]) => ancestors.filter((each) => !GENERIC.has(each));

function sequenceSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  // Longest common subsequence: a wrapper added or removed costs one, not the whole path.
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1)
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  }
  return dp[a.length]![b.length]! / Math.max(a.length, b.length);
}

const TAG_FAMILIES = [
  ['a', 'button', 'summary'],
  ['input', 'textarea'],
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  ['p', 'span', 'strong', 'div', 'output'],
];
const ROLE_FAMILIES = [
  ['button', 'link', 'menuitem', 'tab'],
  ['textbox', 'searchbox', 'spinbutton', 'combobox'],
];
const sameFamily = (families: string[][], a: string, b: string) => families.some((family) => family.includes(a) && family.includes(b));

/** Identifying attributes compared one by one; class is compared as a set of words. */
function attributeSimilarity(recorded: Record<string, string>, live: Record<string, string>): number | undefined {
  const keys = Object.keys(recorded);
  if (keys.length === 0) return undefined;
  let sum = 0;
  for (const key of keys) {
    const a = recorded[key]!;
    const b = live[key];
    if (b === undefined) continue;
    if (key === 'class') sum += jaccard(new Set(a.split(' ')), new Set(b.split(' ')));
    else sum += a === b ? 1 : 0.6 * textSimilarity(a.replace(/[-_]/g, ' '), b.replace(/[-_]/g, ' '));
  }
  return sum / keys.length;
}

/**
 * How likely `live` is the element `recorded` describes, 0..1: a weighted mean of role, accessible
 * name, text, tag, identifying attributes, the ancestor path in the accessibility tree, the index
 * among look-alikes and the position on the page. Parts the recording lacks do not count.
 */
export function scoreFingerprint(recorded: ElementFingerprint, live: ElementFingerprint & { editable?: boolean }): number {
  const parts: Array<[weight: number, value: number | undefined]> = [
    [1, recorded.tag === live.tag ? 1 : sameFamily(TAG_FAMILIES, recorded.tag, live.tag) ? 0.5 : 0],
    [
      2,
      recorded.role === undefined
        ? undefined
        : recorded.role === live.role
          ? 1
          : sameFamily(ROLE_FAMILIES, recorded.role, live.role ?? '')
            ? 0.4
            : 0,
    ],
    // An element recorded without a name is not one that has a name of its own now (the edit box
    // of a row is not the "What needs to be done?" box beside it).
    [3, recorded.name === undefined ? (live.editable && live.name ? 0 : undefined) : textSimilarity(recorded.name, live.name)],
    [1.5, recorded.text === undefined ? undefined : textSimilarity(recorded.text, live.text)],
    [2, attributeSimilarity(recorded.attributes, live.attributes)],
    [1, sequenceSimilarity(meaningful(recorded.ancestors), meaningful(live.ancestors))],
    // Which row it sits in: the row's text tells look-alike rows apart, and a row showing other
    // text is another row (squared: a shared word or two is not the same row).
    [
      3,
      recorded.container === undefined
        ? undefined
        : live.container === undefined
          ? 0
          : textSimilarity(recorded.container.text, live.container.text) ** 2,
    ],
    [0.5, recorded.index === undefined ? undefined : recorded.index === live.index ? 1 : 0],
    [
      0.5,
      recorded.rect && live.rect
        ? Math.max(0, 1 - Math.hypot(recorded.rect.x - live.rect.x, recorded.rect.y - live.rect.y) / 800)
        : undefined,
    ],
  ];
  let weights = 0;
  let total = 0;
  for (const [weight, value] of parts) {
    if (value === undefined) continue;
    weights += weight;
    total += weight * value;
  }
  return weights === 0 ? 0 : total / weights;
}

function fits(need: ElementNeed, live: LiveElement): boolean {
  switch (need) {
    case 'fill':
      return live.editable;
    case 'select':
      return live.tag === 'select' || live.role === 'combobox' || live.role === 'listbox';
    case 'check':
      return ['checkbox', 'radio', 'switch'].includes(live.role ?? '');
    default:
      return true;
  }
}

export interface Match {
  live: LiveElement;
  score: number;
  runnerUp: number;
}

/** The live elements that suit the action, each scored once, best first (page order among equals). */
function rank(recorded: ElementFingerprint, live: readonly LiveElement[], need: ElementNeed): Array<{ live: LiveElement; score: number }> {
  return live
    .filter((element) => fits(need, element))
    .map((element) => ({ live: element, score: scoreFingerprint(recorded, element) }))
    .sort((a, b) => b.score - a.score);
}

function matchOf(ranked: ReadonlyArray<{ live: LiveElement; score: number }>): Match | undefined {
  const [best, second] = ranked;
  return best && { ...best, runnerUp: second?.score ?? 0 };
}

// ---- New candidates ----

/** Candidates for the healed element, best first, as the recorder would rank them. */
function proposedCandidates(live: LiveElement): LocatorCandidate[] {
  // The control itself is hidden, so only its label can be found (and clicked, and read as checked).
  if (live.viaLabel && live.viaLabel.length <= 80)
    return [
      { kind: 'text', value: live.viaLabel, exact: true },
      { kind: 'css', value: `xpath=//label[normalize-space(.)=${xpathLiteral(live.viaLabel)}]` },
    ];
  const out: LocatorCandidate[] = [];
  const a = live.attributes;
  if (a['data-testid']) out.push({ kind: 'testId', value: a['data-testid'] });
  if (live.role && live.name) out.push({ kind: 'role', role: live.role, name: live.name, exact: true });
  if (live.editable && live.name) out.push({ kind: 'label', value: live.name, exact: true });
  if (a.placeholder) out.push({ kind: 'placeholder', value: a.placeholder, exact: true });
  if (a.id && /^[A-Za-z][\w-]*$/.test(a.id)) out.push({ kind: 'css', value: `#${a.id}` });
  if (a.name && ['input', 'select', 'textarea'].includes(live.tag)) out.push({ kind: 'css', value: `${live.tag}[name="${a.name}"]` });
  if (!live.editable && live.text && live.text.length <= 80) out.push({ kind: 'text', value: live.text, exact: true });
  out.push(...scopedCandidates(live));
  return out;
}

const FIELD_TAGS = new Set(['input', 'textarea', 'select', 'button', 'a', 'label']);

/**
 * Candidates that find an element by the row it sits in (a todo's checkbox, its edit box, a
 * table row's button): the row by its text, then the element inside it by kind and own text.
 * Look-alike rows have nothing else that tells their elements apart.
 */
function scopedCandidates(live: LiveElement): LocatorCandidate[] {
  const row = live.container;
  if (!row?.text || row.text.length > 120) return [];
  const out: LocatorCandidate[] = [];
  const checkable = ['checkbox', 'radio', 'switch'].includes(live.role ?? '');
  if (checkable) out.push(checkableBeside(row.text));
  const predicates: string[] = [];
  if (live.tag === 'input' && live.attributes.type) predicates.push(`@type=${xpathLiteral(live.attributes.type)}`);
  if (live.tag === 'input' && !live.attributes.type) predicates.push('not(@type)');
  if (!live.editable && !checkable && live.text && live.text.length <= 80) predicates.push(`normalize-space(.)=${xpathLiteral(live.text)}`);
  const tag = FIELD_TAGS.has(live.tag) ? live.tag : live.role ? `*[@role=${xpathLiteral(live.role)}]` : live.tag;
  const inside = `${tag}${predicates.map((p) => `[${p}]`).join('')}`;
  out.push({
    kind: 'css',
    value: `xpath=//${row.tag}[.//text()[normalize-space(.)=${xpathLiteral(row.text)}] or .//input[@value=${xpathLiteral(row.text)}]]//${inside}`,
  });
  return out;
}

/** Keeps the candidates that find exactly the healed element (slot `slot`) and nothing else. */
async function verifiedCandidates(page: Page, slot: number, candidates: readonly LocatorCandidate[]): Promise<LocatorCandidate[]> {
  const verified: LocatorCandidate[] = [];
  for (const candidate of candidates) {
    const locator = candidateLocator(page, candidate);
    const count = await locator.count().catch(() => 0);
    if (count !== 1) continue;
    const same = await locator
      .evaluate((element, at) => (globalThis as unknown as { __rehearseLive: unknown[] }).__rehearseLive[at] === element, slot)
      .catch(() => false);
    if (same) verified.push(candidate);
  }
  return verified;
}

export interface Healed {
  locator: Locator;
  /** Verified candidates for the element, best first (what a reviewed fix writes to the locator file). */
  locators: LocatorCandidate[];
  fingerprint: ElementFingerprint;
  confidence: number;
  /**
   * Whether a later assertion may check this element without healing it again: it was healed for
   * an assertion, or it scored as an assertion's match must. An action's heal is held to what the
   * action did; a check that reused a weaker heal would pass below the assertion's bar.
   */
  assertable: boolean;
}

export interface HealAttempt {
  healed?: Healed;
  confidence: number;
  reason: string;
  /** The best-scoring elements weighed, best first, as a person would name them. */
  considered?: Array<{ element: string; confidence: number }>;
}

/** An element as a report names it: `button "Add to cart"`, in its row when it has one. */
export function describeLive(element: LiveElement): string {
  const what = element.role ?? element.tag;
  const shown = element.name ?? element.text;
  const row = element.container?.text
    ? ` in the ${element.container.tag === 'tr' ? 'row' : 'item'} “${element.container.text.slice(0, 60)}”`
    : '';
  return `${what}${shown ? ` “${shown.slice(0, 80)}”` : ''}${row}`;
}

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * Finds the element again by its fingerprint. Nothing is healed without a fingerprint, below the
 * threshold (a stricter one for assertions), when the page holds two near-equal matches, or when
 * no stable locator finds the match alone.
 */
export async function healElement(page: Page, element: Element, need: ElementNeed, assertion: boolean): Promise<HealAttempt> {
  const recorded = element.fingerprint;
  if (!recorded) return { confidence: 0, reason: 'the element has no recorded fingerprint' };
  const all = await collectLiveElements(page);
  // A check must not pass on an element showing something else: an assertion only considers
  // elements showing the recorded text.
  const live = assertion && recorded.text ? all.filter((element) => showsSameText(recorded.text!, element.text)) : all;
  if (assertion && recorded.text && live.length === 0) return { confidence: 0, reason: `no element shows “${recorded.text.slice(0, 80)}”` };
  const ranked = rank(recorded, live, need);
  const attempt = await healAgainst(page, recorded, ranked, live, assertion);
  const considered = ranked
    .slice(0, 3)
    .map((candidate) => ({ element: describeLive(candidate.live), confidence: rounded(candidate.score) }));
  return considered.length > 0 ? { ...attempt, considered } : attempt;
}

async function healAgainst(
  page: Page,
  recorded: ElementFingerprint,
  ranked: ReadonlyArray<{ live: LiveElement; score: number }>,
  live: readonly LiveElement[],
  assertion: boolean,
): Promise<HealAttempt> {
  const match = matchOf(ranked);
  if (!match) return { confidence: 0, reason: 'no element on the page suits the action' };
  const confidence = rounded(match.score);
  const threshold = assertion ? rounded(ASSERTION_THRESHOLD + ASSERTION_CLEARANCE) : HEAL_THRESHOLD;
  const only = assertion ? onlyOneLike(recorded, live) : undefined;
  const onlyOne = only?.element === match.live;
  if (match.score < threshold && !onlyOne) return { confidence, reason: `the best match scored ${confidence}, below ${threshold}` };
  if (match.score - match.runnerUp < HEAL_MARGIN)
    return { confidence, reason: `two elements match almost equally (${confidence} and ${match.runnerUp.toFixed(3)})` };
  const locators = await verifiedCandidates(page, match.live.slot, proposedCandidates(match.live));
  if (locators.length === 0) return { confidence, reason: 'no stable locator finds the matched element alone' };
  const { slot: _slot, editable: _editable, ...fingerprint } = match.live;
  const reason = match.score < threshold && only ? `healed: ${only.why}` : 'healed';
  const assertable = assertion || match.score >= ASSERTION_THRESHOLD + ASSERTION_CLEARANCE;
  return { healed: { locator: candidateLocator(page, locators[0]!), locators, fingerprint, confidence, assertable }, confidence, reason };
}

/**
 * What an assertion checks is a thing a person identifies by what it shows or what it is called:
 * one innermost element showing exactly the recorded text is that element, however its markup
 * changed; so is the one element of the recorded role with exactly the recorded name (a checkbox
 * called "Mark all as complete"). Undefined when the page has no such single element.
 */
function onlyOneLike(recorded: ElementFingerprint, live: readonly LiveElement[]): { element: LiveElement; why: string } | undefined {
  if (recorded.text !== undefined) {
    const showing = innermost(live);
    if (showing.length === 1) return { element: showing[0]!, why: `the only element showing “${recorded.text.slice(0, 80)}”` };
  }
  if (recorded.role && recorded.name) {
    const same = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    const named = live.filter((element) => element.role === recorded.role && same(element.name) === same(recorded.name));
    if (named.length === 1) return { element: named[0]!, why: `the only ${recorded.role} named “${recorded.name.slice(0, 80)}”` };
  }
  return undefined;
}

/** Short texts must be equal (spacing and case aside); a long one (a whole card) nearly so. */
function showsSameText(recorded: string, live: string | undefined): boolean {
  const a = recorded.replace(/\s+/g, ' ').trim().toLowerCase();
  const b = (live ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  return a.length <= 80 ? a === b : textSimilarity(a, b) >= 0.8;
}

/** The elements none of whose descendants in the list shows the same text (a counter, not its row). */
function innermost(elements: readonly LiveElement[]): LiveElement[] {
  const inside = (inner: LiveElement, outer: LiveElement) =>
    inner !== outer &&
    !!inner.rect &&
    !!outer.rect &&
    inner.rect.x >= outer.rect.x &&
    inner.rect.y >= outer.rect.y &&
    inner.rect.x + inner.rect.width <= outer.rect.x + outer.rect.width &&
    inner.rect.y + inner.rect.height <= outer.rect.y + outer.rect.height &&
    // The same box: the one later in the page is the child.
    (inner.slot > outer.slot || inner.rect.width !== outer.rect.width || inner.rect.height !== outer.rect.height);
  return elements.filter((outer) => !elements.some((inner) => inside(inner, outer) && inner.text === outer.text));
}
