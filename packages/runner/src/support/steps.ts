import { defineParameterType, Given, Then, When, type DataTable } from '@cucumber/cucumber';
import {
  API_STEP_PATTERNS,
  BUILT_IN_STEPS,
  ELEMENT_PARAMETER,
  elementPhrase,
  STORAGE_PARAMETER,
  type BuiltInStepId,
  type ElementPhrase,
  type ReusableStep,
} from '@rehearse/contract';
import { parse as parseYaml } from 'yaml';
import { api, type ApiRequestSpec, type BodyType } from './api.js';
import { compileReusableSteps, fillPlaceholders, readReusableSteps } from './reusable-steps.js';
import { web } from './web.js';
import type { RehearseWorld } from './world.js';

type El = ElementPhrase;
type Storage = 'local' | 'session';
// Each implementation takes the step's parameters in pattern order ({element} arrives as an ElementPhrase).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StepFn = (this: RehearseWorld, ...args: any[]) => Promise<void>;

/**
 * The implementation of every step of the contract's BUILT_IN_STEPS catalogue, by id: the
 * catalogue says what a step reads like, this says what it does. Elements are named by their
 * visible words and found by role + accessible name, label, placeholder, text, then test id.
 */
const BUILT_IN_IMPLEMENTATIONS = {
  open: async function (url: string) {
    await web.navigate(url, undefined, undefined, this);
  },
  reload: async function () {
    await web.reload(undefined, this);
  },
  back: async function () {
    await web.history('back', undefined, this);
  },
  forward: async function () {
    await web.history('forward', undefined, this);
  },
  switchTab: async function () {
    await web.switchToNewTab(undefined, this);
  },
  acceptDialog: async function () {
    await web.answerNextDialog('accept', undefined, this);
  },
  dismissDialog: async function () {
    await web.answerNextDialog('dismiss', undefined, this);
  },
  dialogSaid: async function (message: string) {
    await web.verifyDialog(message, undefined, undefined, this);
  },
  click: async function (element: El) {
    await web.click(element, undefined, undefined, this);
  },
  doubleClick: async function (element: El) {
    await web.doubleClick(element, undefined, undefined, this);
  },
  rightClick: async function (element: El) {
    await web.rightClick(element, undefined, undefined, this);
  },
  hover: async function (element: El) {
    await web.hover(element, undefined, undefined, this);
  },
  scrollTo: async function (element: El) {
    await web.scrollTo(element, undefined, undefined, this);
  },
  fill: async function (element: El, value: string) {
    await web.fill(element, value, undefined, undefined, this);
  },
  clear: async function (element: El) {
    await web.fill(element, '', undefined, undefined, this);
  },
  type: async function (text: string, element: El) {
    await web.type(element, text, undefined, undefined, this);
  },
  pressIn: async function (key: string, element: El) {
    await web.press(element, key, undefined, undefined, this);
  },
  press: async function (key: string) {
    await web.press(null, key, undefined, undefined, this);
  },
  focus: async function (element: El) {
    await web.focus(element, undefined, undefined, this);
  },
  blur: async function (element: El) {
    await web.blur(element, undefined, undefined, this);
  },
  check: async function (element: El) {
    await web.check(element, undefined, undefined, this);
  },
  uncheck: async function (element: El) {
    await web.check(element, undefined, { checked: false }, this);
  },
  select: async function (option: string, element: El) {
    await web.select(element, option, undefined, undefined, this);
  },
  upload: async function (file: string, element: El) {
    await web.upload(element, file, undefined, undefined, this);
  },
  drag: async function (element: El, to: El) {
    await web.dragTo(element, to, undefined, undefined, this);
  },
  see: async function (text: string) {
    await web.verifyText(text, undefined, undefined, this);
  },
  notSee: async function (text: string) {
    await web.verifyNoText(text, undefined, undefined, this);
  },
  seeIn: async function (text: string, element: El) {
    await web.verifyTextIn(element, text, undefined, undefined, this);
  },
  hasText: async function (element: El, text: string) {
    await web.verifyTextIn(element, text, undefined, { exact: true }, this);
  },
  visible: async function (element: El) {
    await web.verifyVisible(element, undefined, undefined, this);
  },
  hidden: async function (element: El) {
    await web.verifyHidden(element, undefined, undefined, this);
  },
  value: async function (element: El, value: string) {
    await web.verifyValue(element, value, undefined, undefined, this);
  },
  empty: async function (element: El) {
    await web.verifyValue(element, '', undefined, undefined, this);
  },
  checked: async function (element: El) {
    await web.verifyState(element, { kind: 'checked', checked: true }, undefined, undefined, this);
  },
  unchecked: async function (element: El) {
    await web.verifyState(element, { kind: 'checked', checked: false }, undefined, undefined, this);
  },
  enabled: async function (element: El) {
    await web.verifyState(element, { kind: 'enabled', enabled: true }, undefined, undefined, this);
  },
  disabled: async function (element: El) {
    await web.verifyState(element, { kind: 'enabled', enabled: false }, undefined, undefined, this);
  },
  hasClass: async function (element: El, value: string) {
    await web.verifyState(element, { kind: 'class', value }, undefined, undefined, this);
  },
  notHasClass: async function (element: El, value: string) {
    await web.verifyState(element, { kind: 'no-class', value }, undefined, undefined, this);
  },
  focused: async function (element: El) {
    await web.verifyState(element, { kind: 'focused' }, undefined, undefined, this);
  },
  hasAttribute: async function (element: El, name: string, value: string) {
    await web.verifyState(element, { kind: 'attribute', name, value }, undefined, undefined, this);
  },
  count: async function (count: number, list: string) {
    await web.verifyCount(list, count, undefined, undefined, this);
  },
  listIs: async function (list: string, table: DataTable) {
    await web.verifyItems(
      list,
      table.raw().map((row) => row[0] ?? ''),
      undefined,
      undefined,
      this,
    );
  },
  urlContains: async function (text: string) {
    await web.verifyUrl(text, undefined, undefined, this);
  },
  urlIs: async function (url: string) {
    await web.verifyUrlIs(url, undefined, undefined, this);
  },
  titleIs: async function (title: string) {
    await web.verifyTitle(title, undefined, { exact: true }, this);
  },
  titleContains: async function (text: string) {
    await web.verifyTitle(text, undefined, undefined, this);
  },
  rememberText: async function (element: El, name: string) {
    await web.remember(element, 'text', name, undefined, undefined, this);
  },
  rememberValue: async function (element: El, name: string) {
    await web.remember(element, 'value', name, undefined, undefined, this);
  },
  setStorage: async function (storage: Storage, key: string, value: string) {
    await web.setStorage(storage, key, value, undefined, undefined, this);
  },
  storageIs: async function (storage: Storage, key: string, value: string) {
    await web.verifyStorage(storage, key, value, 'is', undefined, undefined, this);
  },
  storageHas: async function (storage: Storage, key: string, text: string) {
    await web.verifyStorage(storage, key, text, 'contains', undefined, undefined, this);
  },
  clearStorage: async function (storage: Storage) {
    await web.clearStorage(storage, undefined, this);
  },
  setCookie: async function (name: string, value: string) {
    await web.setCookie(name, value, undefined, undefined, this);
  },
  cookieIs: async function (name: string, value: string) {
    await web.verifyCookie(name, value, undefined, undefined, this);
  },
  clearCookies: async function () {
    await web.clearCookies(undefined, this);
  },
  wait: async function (msOrText: string) {
    await web.wait(msOrText, undefined, undefined, this);
  },
} satisfies Record<BuiltInStepId, StepFn>;

export { API_STEP_PATTERNS };

const DOC_STRING_TYPES: Record<string, BodyType> = { json: 'json', yaml: 'yaml', yml: 'yaml', xml: 'xml', text: 'text', txt: 'text' };

function bodyTypeOf(world: RehearseWorld): BodyType | undefined {
  const mediaType = world.docStringMediaType?.toLowerCase();
  return mediaType ? DOC_STRING_TYPES[mediaType] : undefined;
}

/** Reads the declarative form: a YAML (or JSON) document with method, url, headers, body, expect. */
function parseRequestDocument(text: string): ApiRequestSpec {
  const raw = parseYaml(text) as Partial<ApiRequestSpec> | null;
  if (!raw || typeof raw !== 'object' || typeof raw.method !== 'string' || typeof raw.url !== 'string') {
    throw new Error('An API request needs at least "method" and "url"');
  }
  return raw as ApiRequestSpec;
}

/**
 * Registers the workspace's reusable steps (the `.steps` files under features/, see reusable-steps.ts): each
 * runs its steps through the built-in implementations, or through another reusable step. A file
 * that cannot be used stops the run at load with its file and line.
 */
function defineReusableSteps(workspaceDir: string): void {
  const steps = readReusableSteps(workspaceDir);
  if (steps.length === 0) return;
  const resolve = compileReusableSteps(steps);
  const run = async (world: RehearseWorld, step: ReusableStep, values: readonly string[]): Promise<void> => {
    for (const line of step.body) {
      const resolved = resolve(fillPlaceholders(line.text, step, values))!;
      if (resolved.kind === 'reusable') await run(world, resolved.step, resolved.values);
      else await (BUILT_IN_IMPLEMENTATIONS[resolved.id] as StepFn).apply(world, resolved.args);
    }
  };
  for (const step of steps) {
    const fn = async function (this: RehearseWorld, ...values: string[]) {
      await run(this, step, values);
    };
    // Cucumber checks a step function's arity against its pattern; a rest parameter has none.
    Object.defineProperty(fn, 'length', { value: step.params.length });
    Given(step.pattern, fn);
  }
}

/** Registers the built-in and API steps, and the workspace's reusable steps, into the current cucumber support library. */
export function defineSteps(workspaceDir: string): void {
  defineParameterType({
    name: ELEMENT_PARAMETER.name,
    regexp: ELEMENT_PARAMETER.regexp,
    transformer: (nth?: string, name?: string, container?: string, text?: string, itself?: string, itselfText?: string) =>
      elementPhrase(nth, name, container, text, itself, itselfText),
    useForSnippets: false,
  });
  defineParameterType({
    name: STORAGE_PARAMETER.name,
    regexp: STORAGE_PARAMETER.regexp,
    transformer: (which: string) => which as Storage,
    useForSnippets: false,
  });
  const patterns = new Map<string, string>(BUILT_IN_STEPS.map((step) => [step.id, step.pattern]));
  for (const [id, fn] of Object.entries(BUILT_IN_IMPLEMENTATIONS)) Given(patterns.get(id)!, fn);
  defineReusableSteps(workspaceDir);

  Given(API_STEP_PATTERNS[0], function (this: RehearseWorld, name: string, value: string) {
    this.apiHeaders[name] = value;
  });
  When(API_STEP_PATTERNS[1], async function (this: RehearseWorld, method: string, url: string) {
    await api.request({ method, url }, undefined, undefined, this);
  });
  When(API_STEP_PATTERNS[2], async function (this: RehearseWorld, method: string, url: string, body: string) {
    const bodyType = bodyTypeOf(this);
    await api.request({ method, url, body, ...(bodyType ? { bodyType } : {}) }, undefined, undefined, this);
  });
  When(API_STEP_PATTERNS[3], async function (this: RehearseWorld, document: string) {
    await api.request(parseRequestDocument(document), undefined, undefined, this);
  });
  Then(API_STEP_PATTERNS[4], async function (this: RehearseWorld, status: number) {
    await api.verify({ status }, undefined, this);
  });
  Then(API_STEP_PATTERNS[5], async function (this: RehearseWorld, name: string, text: string) {
    await api.verify({ headers: { [name]: text } }, undefined, this);
  });
  Then(API_STEP_PATTERNS[6], async function (this: RehearseWorld, path: string, expected: string) {
    await api.verify({ json: { [path]: this.data.resolve(expected).value } }, undefined, this);
  });
  Then(API_STEP_PATTERNS[7], async function (this: RehearseWorld, text: string) {
    await api.verify({ contains: this.data.resolve(text).value }, undefined, this);
  });
}
