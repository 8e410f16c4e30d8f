import {
  effectMismatch,
  visibleLinesOfPage,
  type Command,
  type CommandHealing,
  type RecordedEffect,
  type ScopeContainer,
} from '@rehearse/contract';
import type { Locator, Page } from 'playwright-core';
import { MediaTypes } from '../attachments.js';
import { candidateLocator, containerSelector, describeCandidate, type Element, type LocatorCandidate } from './elements.js';
import { healElement, type ElementNeed } from './healing.js';
import { nearestNames, type ShownName } from './nearest.js';
import { pageTitle } from './cdp.js';
import { pageSettled, poll, untilPageChanges } from './poll.js';
import type { ResolvedValue } from './test-data.js';
import type { RehearseWorld } from './world.js';

/** Options every `context.web` command accepts (generated code passes them through). */
export interface CommandOptions {
  /** How long to wait for the element, text or URL, in ms; the project's commandTimeoutMs by default. */
  timeout?: number;
  /** Treat the value as a secret: typed as given, shown as `mask:****`. */
  mask?: boolean;
  /** false: no screenshot for this command whatever the policy. */
  screenshot?: boolean;
  /** Whole-string match for text, URL and title checks. */
  exact?: boolean;
}

/** Values a step passes for `{{name}}` placeholders (its parameters); test data fills the rest. */
export type StepParams = Readonly<Record<string, unknown>> | undefined;

let currentWorld: RehearseWorld | undefined;

/** Makes `world` the one commands use when a step does not pass `this` (Before hook). */
export function setCurrentWorld(world: RehearseWorld | undefined): void {
  currentWorld = world;
}

export function worldOf(world: RehearseWorld | undefined): RehearseWorld {
  const found = world ?? currentWorld;
  if (!found) throw new Error('No scenario is running: context.web commands work inside cucumber steps');
  return found;
}

/** What a command does once its element (if any) is found; may add to the command's info. */
type Act = (target: Locator | undefined) => Promise<Partial<NonNullable<Command['info']>> | void>;

interface CommandSpec {
  type: string;
  element?: Element;
  value?: ResolvedValue;
  text?: string;
  info?: NonNullable<Command['info']>;
  payload?: Command['payload'];
  options?: CommandOptions;
  /** false: the command is not about the page (API), so no page URL or title in its info. */
  page?: boolean;
  /** For `{{…}}` placeholders in the element's locator candidates. */
  params?: StepParams;
}

/** An element that could not be resolved, with what each candidate found. */
export class ElementNotFoundError extends Error {
  override readonly name: string = 'ElementNotFoundError';
}

/** An element whose words match several visible elements: never a guess, and the message says which. */
export class ElementAmbiguousError extends ElementNotFoundError {
  override readonly name = 'ElementAmbiguousError';
}

/** The little of the DOM that whereMatches reads (the runner compiles without the DOM's types). */
interface DomNode {
  tagName: string;
  id: string;
  innerText?: string;
  parentElement: DomNode | null;
  children: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  closest(selector: string): DomNode | null;
}

/** The first candidate that matched several visible elements in a pass, kept to judge later ones and to say where they are. */
interface Ambiguity {
  locator: Locator;
  count: number;
  description: string;
}

/**
 * Tries the element's locator candidates in order until one matches exactly one visible element
 * (or, for "the 2nd …", at least that many), going through them again until the timeout (the page
 * may still be loading). A scoped element is looked for only inside its one container. Each
 * candidate's outcome in the deciding pass goes to `log`.
 *
 * Ambiguity is never resolved by a guess: once a candidate has matched several elements, a later
 * candidate matching one is used only when its element is one of those (it narrows the choice, as
 * an exact name narrows a substring); one elsewhere on the page would act on something the earlier,
 * better candidate did not even mean. Giving up after an ambiguity throws ElementAmbiguousError,
 * saying how many matched and where.
 */
export async function resolveElement(
  page: Page,
  element: Element,
  timeoutMs: number,
  log: string[],
  resolveText: (text: string) => string,
): Promise<Locator> {
  if (element.locators.length === 0) throw new ElementNotFoundError(`Element "${element.name}" has no locator candidates`);
  const candidates = element.locators.map((candidate) => resolveCandidate(candidate, resolveText));
  const scopeText = element.scope && resolveText(element.scope.text);
  const nth = element.nth;
  let lastPass: string[] = [];
  let ambiguity: Ambiguity | undefined;
  let passes = 0;
  const startedAt = Date.now();
  const found = await poll(
    timeoutMs,
    async () => {
      passes += 1;
      lastPass = [];
      ambiguity = undefined;
      let root: Page | Locator = page;
      if (element.scope && scopeText !== undefined) {
        const container = await findContainer(page, element.scope.container, scopeText);
        if (typeof container === 'string') {
          lastPass.push(container);
          return undefined;
        }
        root = container;
      }
      // One candidate at a time, in order: the first usually wins, and every query of a role or
      // text engine walks the whole page.
      for (const candidate of candidates) {
        const description = describeCandidate(candidate);
        const locator = candidateLocator(root, candidate);
        const count = await locator.count().catch((error: Error) => error);
        if (count instanceof Error) {
          lastPass.push(`${description}: invalid (${firstLine(count.message)})`);
        } else if (nth !== undefined && count >= nth) {
          lastPass.push(`${description}: ${count} visible matches, used number ${nth}`);
          return locator.nth(nth - 1);
        } else if (nth === undefined && count === 1) {
          if (ambiguity && (await ambiguity.locator.and(locator).count()) === 0) {
            lastPass.push(`${description}: 1 visible match, not one of the ${ambiguity.count} of ${ambiguity.description}`);
            continue;
          }
          lastPass.push(`${description}: 1 visible match, used`);
          return locator;
        } else {
          lastPass.push(`${description}: ${count} visible matches`);
          if (nth === undefined && count > 1) ambiguity ??= { locator, count, description };
        }
      }
      return undefined;
    },
    untilPageChanges(page),
  );
  log.push(...lastPass);
  if (passes > 1) log.push(`${found ? 'found' : 'gave up'} after ${passes} attempts in ${Date.now() - startedAt} ms`);
  if (found) return found;
  const settled = ambiguity;
  if (settled) {
    throw new ElementAmbiguousError(
      `${settled.count} visible elements match "${element.name}" (${shortened(settled.description)}): ${await whereMatches(settled.locator)}. ` +
        `Say which one: "the 2nd …", "… in the row containing …", or words only it shows. (${lastPass.join('; ')})`,
    );
  }
  const wanted = nth === undefined ? 'exactly one visible element' : `at least ${nth} visible elements`;
  const named = element.named ? ` ${await whatIsNamed(page, resolveText(element.named.words), element.named.expects)}` : '';
  throw new ElementNotFoundError(
    `Element "${element.name}" not found: no locator candidate matched ${wanted} within ${timeoutMs} ms.${named} (${lastPass.join('; ')})`,
  );
}

/**
 * The first of the element's candidates that finds any visible element, for "should be hidden":
 * an element is hidden only when none does. A scoped element is looked for in every container of
 * its kind showing the scope's text (none such: nothing to see).
 */
export async function firstVisibleMatch(
  page: Page,
  element: Element,
  resolveText: (text: string) => string,
): Promise<Ambiguity | undefined> {
  const root = element.scope
    ? page.locator(containerSelector(element.scope.container)).filter({ visible: true, hasText: resolveText(element.scope.text) })
    : page;
  for (const candidate of element.locators.map((each) => resolveCandidate(each, resolveText))) {
    const locator = candidateLocator(root, candidate);
    const count = await locator.count().catch(() => 0);
    if (count > 0) return { locator, count, description: describeCandidate(candidate) };
  }
  return undefined;
}

/**
 * Where each of several matches is, for an ambiguity's message: its tag and words, and the
 * repeated row or landmark it sits in (`<label> "buy milk" in <li> 2 of 3 "buy milk"`). Five at most.
 */
export async function whereMatches(matches: Locator): Promise<string> {
  const places = await matches
    // No named functions inside: the loader that runs support code names them with a helper the page lacks.
    .evaluateAll((elements: DomNode[]) =>
      elements.map((node) => {
        const row = node.parentElement?.closest('li, tr, [role=row], [role=listitem], [role=option], article');
        const [own, rowWords] = [node, row].map((each) =>
          each
            ? (each.getAttribute('aria-label') ?? each.innerText ?? each.getAttribute('placeholder') ?? each.getAttribute('title') ?? '')
                .replace(/\s+/g, ' ')
                .trim()
                .slice(0, 60)
            : '',
        );
        const tag = `<${node.tagName.toLowerCase()}>${own ? ` "${own}"` : ''}`;
        if (row?.parentElement) {
          const siblings = Array.from(row.parentElement.children).filter((child) => child.tagName === row.tagName);
          return `${tag} in <${row.tagName.toLowerCase()}> ${siblings.indexOf(row) + 1} of ${siblings.length} "${rowWords!.split(' ').slice(0, 8).join(' ')}"`;
        }
        const landmark = node.parentElement?.closest('form, dialog, [role=dialog], nav, header, footer, aside, main, section');
        return landmark ? `${tag} in <${landmark.tagName.toLowerCase()}${landmark.id ? ` id="${landmark.id}"` : ''}>` : tag;
      }),
    )
    .catch(() => [] as string[]);
  if (places.length === 0) return 'they are gone now';
  const shown = places.slice(0, 5).map((place, i) => `${i + 1}. ${place}`);
  return `${shown.join('; ')}${places.length > 5 ? `; and ${places.length - 5} more` : ''}`;
}

/**
 * What the page shows under the words a step used, for the failure message: "feed the cat" is a
 * <label>, not the checkbox the step needs, tells the author what to write instead.
 */
async function whatIsNamed(page: Page, words: string, expects: string | undefined): Promise<string> {
  const named = page
    .getByText(words, { exact: true })
    .or(page.getByLabel(words, { exact: true }))
    .or(page.getByPlaceholder(words, { exact: true }))
    .or(page.getByTitle(words, { exact: true }))
    .filter({ visible: true });
  const tags = await named
    .evaluateAll((elements: Array<{ tagName: string; getAttribute(name: string): string | null }>) =>
      elements.map((node) => {
        const role = node.getAttribute('role');
        const type = node.getAttribute('type');
        return `<${node.tagName.toLowerCase()}${type ? ` type="${type}"` : ''}${role ? ` role="${role}"` : ''}>`;
      }),
    )
    .catch(() => [] as string[]);
  const need = expects ? ` (the step needs one ${expects} named by these words or sitting beside them)` : '';
  if (tags.length === 0) {
    const nearest = nearestNames(words, await shownNames(page));
    const offer = nearest.length ? ` Nearest on the page: ${nearest.map(({ kind, name }) => `${kind} "${name}"`).join(', ')}.` : '';
    // "id=cart", "role=button": a way to find elements that the steps do not have, read as words.
    const kind = /^([a-z][\w-]*)=\S/i.exec(words)?.[1];
    const unknownKind = kind
      ? ` "${kind}=" is not a way to find an element: a step names it by its words, or by its markup as "css=…" or "xpath=…".`
      : '';
    return `Nothing visible on the page is named "${words}"${need}.${unknownKind}${offer}`;
  }
  const shown = tags.length > 5 ? `${tags.slice(0, 5).join(', ')} and ${tags.length - 5} more` : tags.join(', ');
  return `The page shows "${words}" on ${tags.length === 1 ? 'one element' : `${tags.length} elements`}: ${shown}${need}.`;
}

/** The names of the page's visible controls, labels and headings, with their kind, for "nearest on the page". */
async function shownNames(page: Page): Promise<ShownName[]> {
  return page
    .locator('a[href], button, input, select, textarea, label, summary, h1, h2, h3, h4, h5, h6, [role], [aria-label], [title]')
    .filter({ visible: true })
    .evaluateAll((nodes: DomNode[]) =>
      nodes.slice(0, 1_000).map((node) => {
        const tag = node.tagName.toLowerCase();
        const type = node.getAttribute('type') ?? 'text';
        const kinds: Record<string, string> = { a: 'link', button: 'button', select: 'drop-down', textarea: 'text field', label: 'label' };
        const kind =
          node.getAttribute('role') ??
          (tag === 'input'
            ? ['checkbox', 'radio'].includes(type)
              ? type
              : type === 'submit' || type === 'button'
                ? 'button'
                : 'text field'
            : undefined) ??
          kinds[tag] ??
          (/^h\d$/.test(tag) ? 'heading' : tag);
        const name =
          node.getAttribute('aria-label') ??
          (node.innerText?.trim() || undefined) ??
          node.getAttribute('placeholder') ??
          node.getAttribute('title') ??
          node.getAttribute('value') ??
          '';
        return { kind, name: name.replace(/\s+/g, ' ').trim().slice(0, 80) };
      }),
    )
    .then((names) => names.filter((each) => each.name !== ''))
    .catch(() => []);
}

/**
 * The one visible container of a kind ("row") showing `text`: one holding an element whose whole
 * text is `text` wins over one merely containing it, and of nested matches the innermost. Answers
 * a description of what was found instead when there is not exactly one.
 */
async function findContainer(page: Page, container: ScopeContainer, text: string): Promise<Locator | string> {
  const all = page.locator(containerSelector(container)).filter({ visible: true });
  for (const [how, candidates] of [
    ['showing exactly', all.filter({ has: page.getByText(text, { exact: true }) })],
    ['containing', all.filter({ hasText: text })],
  ] as const) {
    // Of nested containers (a list item inside a list item) keep those with no matching container inside.
    const innermost = candidates.filter({ hasNot: candidates });
    const count = await innermost.count();
    if (count === 1) return innermost;
    if (count > 1) return `${count} ${container}s ${how} "${text}": say which with "the 2nd …" or a longer text`;
  }
  return `no visible ${container} contains "${text}"`;
}

function resolveCandidate(candidate: LocatorCandidate, resolveText: (text: string) => string): LocatorCandidate {
  if (candidate.kind === 'role') return candidate.name === undefined ? candidate : { ...candidate, name: resolveText(candidate.name) };
  return { ...candidate, value: resolveText(candidate.value) };
}

/** A candidate's description cut to a glance for a message's first words (the log keeps it whole). */
const shortened = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

const firstLine = (text: string) => text.split('\n')[0] ?? text;

/**
 * Runs one command: finds its element, acts, takes the screenshot the policy asks for and sends
 * the command record. A failure is recorded, then rethrown with every secret scrubbed from it.
 */
export async function runCommand(world: RehearseWorld, spec: CommandSpec, act: Act): Promise<void> {
  const startTime = new Date().toISOString();
  const locatorLog: string[] = [];
  const timeout = spec.options?.timeout ?? world.settings.commandTimeoutMs;
  let failure: unknown;
  let extra: Partial<NonNullable<Command['info']>> | void = undefined;
  let healing: CommandHealing | undefined;
  const element = spec.element && withOverride(world, spec.element);
  // The confirming rerun runs on the candidates a fix would write.
  const overridden = element !== spec.element;
  try {
    if (spec.type.startsWith('verify_') && world.page && !world.page.isClosed()) await pageSettled(world.page);
    let target: Locator | undefined;
    if (element) {
      try {
        target = await resolveElement(world.page, element, timeout, locatorLog, (text) => world.data.resolve(text, spec.params).value);
      } catch (error) {
        if (!world.settings.heal || !(error instanceof ElementNotFoundError)) throw error;
        const outcome =
          (await healedBefore(world, element, spec.type.startsWith('verify_'), locatorLog)) ??
          (await heal(world, spec.type, element, locatorLog));
        healing = outcome.healing;
        if (!outcome.target) throw error;
        target = outcome.target;
      }
    }
    // A step acting on a healed element is judged by what it does to the app, not by having found
    // something: it must change the page as it did when recorded (the step's intent).
    const effect = element && (healing?.healed || overridden) ? world.stepEffect : undefined;
    const before = effect ? await visibleLines(world) : undefined;
    extra = await act(target);
    if (effect && before) {
      const mismatch = await effectAfter(world, effect, before);
      if (mismatch) {
        locatorLog.push(`The step did not do what it did when recorded: ${mismatch}`);
        if (healing) {
          healing = { ...healing, healed: false, reason: `the healed element did not do what the recorded step did: ${mismatch}` };
          if (element?.source) world.healedElements.delete(healedKey(element.source));
        }
        throw new Error(
          `${healing ? 'AI recovery found an element, but' : 'With the fixed locators'} the step did not do what it did when recorded: ${mismatch}`,
        );
      }
    }
  } catch (error) {
    failure = error;
    // An element that was found but refused the value (an option that does not exist) is a data
    // failure: healing must not hide it, and the report says so.
    if (world.settings.heal && !healing && element && !(error instanceof ElementNotFoundError)) {
      healing = {
        classification: classifyFailure(world, error),
        healed: false,
        confidence: 0,
        reason: 'the element was found; the action failed',
        element: element.name,
      };
    }
  }
  const endTime = new Date().toISOString();
  const policy = world.settings.screenshots;
  const wantsScreenshot =
    spec.options?.screenshot !== false && (policy === 'every-command' || (policy === 'on-failure' && failure !== undefined));
  const page = world.page as Page | undefined;
  const pageOpen = spec.page !== false && page !== undefined && !page.isClosed();
  // The screenshot and the title are independent round trips: ask for both at once.
  const [screenshotId, title] = await Promise.all([
    wantsScreenshot ? world.screenshot().catch(() => undefined) : undefined,
    pageOpen ? pageTitle(page) : undefined,
  ]);
  // A failing check still has findings worth showing (the API tests that failed).
  const failureInfo = failure instanceof Error && 'info' in failure ? (failure.info as Partial<NonNullable<Command['info']>>) : {};
  const command: Command = {
    type: spec.type,
    ...(spec.element ? { element_name: spec.element.name } : {}),
    ...(spec.value ? { value: spec.value.display } : {}),
    ...(spec.text !== undefined ? { text: spec.text } : {}),
    ...(screenshotId ? { screenshotId } : {}),
    ...(spec.payload ? { payload: spec.payload } : {}),
    info: {
      ...(element ? { selectors: element.locators.map(describeCandidate) } : {}),
      ...(pageOpen ? { url: page.url(), title } : {}),
      ...spec.info,
      ...(extra ?? {}),
      ...failureInfo,
    },
    ...(locatorLog.length > 0 ? { locatorLog } : {}),
    ...(healing ? { healing } : {}),
    result: {
      status: failure === undefined ? 'PASSED' : 'FAILED',
      ...(failure === undefined ? {} : { message: world.data.redact(messageOf(failure)) }),
      startTime,
      endTime,
    },
  };
  world.attachJson(MediaTypes.command, command);
  if (failure !== undefined) {
    const error = new Error(world.data.redact(messageOf(failure)));
    error.name = failure instanceof Error ? failure.name : 'Error';
    throw error;
  }
}

/** How long a judged step may take to show its recorded effect. */
const EFFECT_WAIT_MS = 1_500;

async function visibleLines(world: RehearseWorld): Promise<string[]> {
  return world.page.evaluate(visibleLinesOfPage).catch(() => []);
}

/** Why the page did not change as recorded within EFFECT_WAIT_MS, or undefined once it has. */
async function effectAfter(world: RehearseWorld, effect: RecordedEffect, before: readonly string[]): Promise<string | undefined> {
  let mismatch: string | undefined;
  await poll(EFFECT_WAIT_MS, async () => {
    mismatch = effectMismatch(effect, before, await visibleLines(world));
    return mismatch === undefined ? true : undefined;
  });
  return mismatch;
}

/** The element with the candidates of a confirming rerun (settings.locatorOverrides), when it has some. */
function withOverride(world: RehearseWorld, element: Element): Element {
  const source = element.source;
  const override = source && world.settings.locatorOverrides?.[`${source.file}#${source.key}`];
  return override ? { ...element, locators: override } : element;
}

/**
 * Why a command failed (DESIGN §11): the server answered the step's requests with a 5xx, the
 * element is missing (locator), the element was there but refused the value (data), or unknown.
 */
export function classifyFailure(world: RehearseWorld, error: unknown): CommandHealing['classification'] {
  if (world.capture.serverErrorsOfCurrentStep().length > 0) return 'server';
  if (error instanceof ElementNotFoundError) return 'locator';
  const message = error instanceof Error ? error.message : String(error);
  if (/did not find some options|not a valid|Malformed value|Cannot type|not an <input>|expected .*value/i.test(message)) return 'data';
  return 'unknown';
}

const NEED_OF: Record<string, ElementNeed> = {
  fill_element: 'fill',
  select_combobox: 'select',
  check_element: 'check',
  uncheck_element: 'check',
  verify_element_value: 'fill',
};

/**
 * Heals a locator failure: classifies it, and for a locator failure looks for the element by its
 * fingerprint. Only locator failures are healed; a server or unknown failure is reported as such.
 */
async function heal(
  world: RehearseWorld,
  type: string,
  element: Element,
  log: string[],
): Promise<{ target?: Locator; healing: CommandHealing }> {
  const classification = classifyFailure(world, new ElementNotFoundError(''));
  const base = { classification, element: element.name, ...(element.source ? { source: element.source } : {}) };
  if (classification !== 'locator') {
    log.push(`AI recovery: not healed, the step's requests failed on the server (${classification})`);
    return { healing: { ...base, healed: false, confidence: 0, reason: "the server answered the step's requests with an error" } };
  }
  const beforeScreenshotId = await world.screenshot().catch(() => undefined);
  const assertion = type.startsWith('verify_');
  const attempt = await healElement(world.page, element, NEED_OF[type] ?? 'any', assertion).catch((error: Error) => ({
    healed: undefined,
    confidence: 0,
    reason: `healing failed: ${firstLine(error.message)}`,
  }));
  log.push(
    `AI recovery: ${attempt.healed ? `healed with ${describeCandidate(attempt.healed.locators[0]!)}` : 'not healed'} (${attempt.reason}, confidence ${attempt.confidence})`,
  );
  const healing: CommandHealing = {
    ...base,
    healed: attempt.healed !== undefined,
    confidence: attempt.confidence,
    reason: attempt.reason,
    ...(beforeScreenshotId ? { beforeScreenshotId } : {}),
    ...(attempt.healed
      ? { locators: attempt.healed.locators, fingerprint: attempt.healed.fingerprint as unknown as Record<string, unknown> }
      : {}),
    ...('considered' in attempt && attempt.considered ? { considered: attempt.considered } : {}),
  };
  if (attempt.healed && element.source)
    world.healedElements.set(healedKey(element.source), {
      locators: attempt.healed.locators,
      healing,
      assertable: attempt.healed.assertable,
    });
  return { ...(attempt.healed ? { target: attempt.healed.locator } : {}), healing };
}

const healedKey = (source: NonNullable<Element['source']>) => `${source.file}#${source.key}`;

/**
 * The element healed earlier in this scenario, found by the candidates healing chose then (the
 * same element across a fill and its Enter); undefined when it was not healed, they find nothing,
 * or an `assertion` would check it on a heal that was not sure enough for one.
 */
async function healedBefore(
  world: RehearseWorld,
  element: Element,
  assertion: boolean,
  log: string[],
): Promise<{ target: Locator; healing: CommandHealing } | undefined> {
  const earlier = element.source && world.healedElements.get(healedKey(element.source));
  if (!earlier || (assertion && !earlier.assertable)) return undefined;
  const target = await resolveElement(world.page, { ...element, locators: earlier.locators }, 1_000, log, (text) => text).catch(
    () => undefined,
  );
  if (!target) return undefined;
  log.push(`AI recovery: found as healed earlier in this scenario (${describeCandidate(earlier.locators[0]!)})`);
  const { beforeScreenshotId: _screenshot, ...healing } = earlier.healing;
  return { target, healing: { ...healing, reason: 'healed earlier in this scenario' } };
}

/** Playwright dims its call log with terminal colours (ESC [ … m). */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`, 'g');

/** Call-log lines that say why Playwright could not act: what stood in the way, or what the element was not. */
const PLAYWRIGHT_REASON =
  /intercepts pointer events|element is not (?:visible|enabled|stable|editable|attached)|element was detached|outside of the viewport|not an? <|is not a <|element is disabled/i;

/**
 * The message of a failure. Playwright appends a call log to its messages: the first paragraph says
 * what went wrong ("Timeout 10000ms exceeded"), and the log's last reason line says why
 * ("<label for="toggle-all">…</label> intercepts pointer events"), which is what the user can fix.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const [head, log] = error.message.split('\nCall log:');
  const reason = log
    ?.split('\n')
    .map((line) => line.replace(ANSI_COLOUR, '').trim().replace(/^-\s*/, ''))
    .filter((line) => PLAYWRIGHT_REASON.test(line))
    .at(-1)
    ?.replace(/,?\s*retrying.*$/i, '');
  const first = head!.trim().replace(/\.$/, '');
  return reason ? `${first}: ${reason}` : head!.trim();
}
