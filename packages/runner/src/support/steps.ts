import { Given, Then, When } from '@cucumber/cucumber';
import { API_STEP_PATTERNS, type BUILT_IN_STEP_PATTERNS } from '@rehearse/contract';
import { parse as parseYaml } from 'yaml';
import { api, type ApiRequestSpec, type BodyType } from './api.js';
import { elementByName, ROLES_FOR } from './elements.js';
import { web } from './web.js';
import type { RehearseWorld } from './world.js';

type BuiltInPattern = (typeof BUILT_IN_STEP_PATTERNS)[number];
type StepFn = (this: RehearseWorld, ...args: string[]) => Promise<void>;

/**
 * The plain-English steps of BUILT_IN_STEP_PATTERNS. Elements are named by their visible words and
 * found by role + accessible name, then label, then placeholder, then text.
 */
const BUILT_IN_STEPS = {
  'I open {string}': async function (url) {
    await web.navigate(url, undefined, undefined, this);
  },
  'I click {string}': async function (name) {
    await web.click(elementByName(name, ROLES_FOR.click), undefined, undefined, this);
  },
  'I fill {string} with {string}': async function (field, value) {
    await web.fill(elementByName(field, ROLES_FOR.fill), value, undefined, undefined, this);
  },
  'I select {string} from {string}': async function (option, field) {
    await web.select(elementByName(field, ROLES_FOR.select), option, undefined, undefined, this);
  },
  'I check {string}': async function (name) {
    await web.check(elementByName(name, ROLES_FOR.check), undefined, undefined, this);
  },
  'I press {string}': async function (key) {
    await web.press(null, key, undefined, undefined, this);
  },
  'I should see {string}': async function (text) {
    await web.verifyText(text, undefined, undefined, this);
  },
  'I should not see {string}': async function (text) {
    await web.verifyNoText(text, undefined, undefined, this);
  },
  'the URL should contain {string}': async function (text) {
    await web.verifyUrl(text, undefined, undefined, this);
  },
  'I wait for {string}': async function (msOrText) {
    await web.wait(msOrText, undefined, undefined, this);
  },
} satisfies Record<BuiltInPattern, StepFn>;

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

/** Registers the built-in and API steps into the current cucumber support library. */
export function defineSteps(): void {
  for (const [pattern, fn] of Object.entries(BUILT_IN_STEPS)) Given(pattern, fn);

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
