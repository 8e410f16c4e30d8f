import { isDeepStrictEqual } from 'node:util';
import type { Command } from '@rehearse/contract';
import { parse as parseYaml } from 'yaml';
import { runCommand, worldOf, type CommandOptions, type StepParams } from './commands.js';
import { resolveUrl } from './web.js';
import type { ApiResponseRecord, RehearseWorld } from './world.js';
import { useEgressProxyFromEnv } from '@rehearse/egress';

export type BodyType = 'json' | 'yaml' | 'xml' | 'text';

/** What an API response must show; each key becomes one named test in the report. */
export interface ApiExpectations {
  status?: number;
  /** Header name → text its value must contain. */
  headers?: Record<string, string>;
  /** JSON path (`products[0].name`, `$.ok`) → expected value (a string also matches a number or boolean of that text). */
  json?: Record<string, unknown>;
  /** Text the raw body must contain. */
  contains?: string;
}

/** One HTTP request of an API step (spec 02 §2 "apitest"). */
export interface ApiRequestSpec {
  method: string;
  /** Absolute, or relative to the environment's baseUrl. */
  url: string;
  headers?: Record<string, string>;
  /** A string is a template (`{{key}}` resolved); an object is sent as JSON. */
  body?: string | Record<string, unknown> | unknown[];
  /** How `body` is written. yaml is converted to JSON before sending, xml and text go as they are. */
  bodyType?: BodyType;
  expect?: ApiExpectations;
}

type ApiTest = NonNullable<NonNullable<Command['info']>['tests']>[number];

const CONTENT_TYPES: Record<BodyType, string> = {
  json: 'application/json',
  yaml: 'application/json',
  xml: 'application/xml',
  text: 'text/plain; charset=utf-8',
};

/** Reads a value at a JSON path: `a.b[0].c`, optionally starting with `$` or `$.`. */
export function jsonPath(data: unknown, path: string): unknown {
  const parts = path
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '');
  let current: unknown = data;
  for (const part of parts) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A step's expected text matches a number, boolean or null of the same spelling, too. */
export function matchesExpected(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'string' && typeof actual !== 'string') {
    return actual !== undefined && JSON.stringify(actual) === expected;
  }
  return isDeepStrictEqual(actual, expected);
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** The tests an expectation set stands for, run against a response. */
export function runExpectations(expect: ApiExpectations, response: ApiResponseRecord): ApiTest[] {
  const tests: ApiTest[] = [];
  if (expect.status !== undefined) {
    const passed = response.status === expect.status;
    tests.push({ name: `status is ${expect.status}`, passed, ...(passed ? {} : { message: `status was ${response.status}` }) });
  }
  for (const [name, text] of Object.entries(expect.headers ?? {})) {
    const actual = response.headers[name.toLowerCase()];
    const passed = actual !== undefined && actual.includes(text);
    tests.push({ name: `header ${name} contains "${text}"`, passed, ...(passed ? {} : { message: `${name} was ${show(actual)}` }) });
  }
  for (const [path, expected] of Object.entries(expect.json ?? {})) {
    const actual = jsonPath(response.data, path);
    const passed = matchesExpected(actual, expected);
    tests.push({ name: `JSON ${path} is ${show(expected)}`, passed, ...(passed ? {} : { message: `${path} was ${show(actual)}` }) });
  }
  if (expect.contains !== undefined) {
    const passed = response.text.includes(expect.contains);
    tests.push({ name: `body contains "${expect.contains}"`, passed, ...(passed ? {} : { message: 'not found in the body' }) });
  }
  return tests;
}

function failedTests(tests: ApiTest[]): string {
  return tests
    .filter((test) => !test.passed)
    .map((test) => `${test.name}: ${test.message ?? 'failed'}`)
    .join('; ');
}

function encodeBody(world: RehearseWorld, spec: ApiRequestSpec, params: StepParams): { body?: string; type: BodyType; template?: string } {
  if (spec.body === undefined) return { type: spec.bodyType ?? 'json' };
  if (typeof spec.body !== 'string') {
    const template = JSON.stringify(spec.body);
    return { body: world.data.resolve(template, params).value, type: 'json', template };
  }
  const template = spec.body;
  const resolved = world.data.resolve(template, params).value;
  const type = spec.bodyType ?? guessType(template);
  if (type === 'yaml') return { body: JSON.stringify(parseYaml(resolved)), type, template };
  return { body: resolved, type, template };
}

function guessType(text: string): BodyType {
  const trimmed = text.trim();
  if (trimmed.startsWith('<')) return 'xml';
  try {
    JSON.parse(trimmed);
    return 'json';
  } catch {
    return 'text';
  }
}

/** API commands: a request with its checks, and single checks on the last response. */
export const api = {
  /** Sends a request; any expectation that fails fails the command (after it is recorded). */
  async request(spec: ApiRequestSpec, params?: StepParams, options?: CommandOptions, world?: RehearseWorld): Promise<ApiResponseRecord> {
    const w = worldOf(world);
    const method = spec.method.toUpperCase();
    const url = resolveUrl(w.data.resolve(spec.url, params).value, w.settings.env.baseUrl);
    let record: ApiResponseRecord | undefined;
    const encoded = encodeBody(w, spec, params);
    await runCommand(
      w,
      {
        type: 'api_request',
        text: `${method} ${url}`,
        ...(encoded.template !== undefined ? { payload: { type: encoded.type, content: encoded.template } } : {}),
        options: { ...options, screenshot: false },
        page: false,
      },
      async () => {
        // DESIGN §9: never a cloud provider's metadata service, checked on the address connected to
        // (through a job's egress proxy, or a filtering lookup on the user's own machine).
        const proxied = (await useEgressProxyFromEnv()) !== null;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries({ ...w.apiHeaders, ...spec.headers }))
          headers[name.toLowerCase()] = w.data.resolve(value, params).value;
        if (encoded.body !== undefined && !headers['content-type']) headers['content-type'] = CONTENT_TYPES[encoded.type];
        const startedAt = Date.now();
        const startTime = new Date(startedAt).toISOString();
        const timeout = options?.timeout ?? Math.max(w.settings.commandTimeoutMs, 30_000);
        let response: Response;
        try {
          response = await fetch(url, {
            method,
            headers,
            body: encoded.body ?? null,
            signal: AbortSignal.timeout(timeout),
            redirect: 'follow',
          });
        } catch (error) {
          let reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
          // The proxy's refusal of a tunnel reaches fetch only as a cancelled request.
          if (proxied && !(error instanceof Error && error.name === 'TimeoutError'))
            reason = `${reason} (the egress proxy refused the connection or could not reach ${new URL(url).host}; cloud metadata and link-local addresses are always refused)`;
          w.capture.record({
            requestUrl: url,
            method,
            status: null,
            responseTime: null,
            size: null,
            type: 'api',
            failed: true,
            failureText: reason,
            startTime,
          });
          throw new Error(`${method} ${url} failed: ${reason}`);
        }
        const text = await response.text();
        const responseHeaders = Object.fromEntries(response.headers.entries());
        let data: unknown = text;
        try {
          data = text ? (JSON.parse(text) as unknown) : null;
        } catch {
          // Not JSON: the text itself is the data.
        }
        record = { method, url, status: response.status, statusText: response.statusText, headers: responseHeaders, text, data };
        w.lastResponse = record;
        w.capture.record({
          requestUrl: url,
          method,
          status: response.status,
          statusText: response.statusText,
          responseTime: Date.now() - startedAt,
          size: Buffer.byteLength(text),
          type: 'api',
          startTime,
        });
        const tests = spec.expect ? runExpectations(spec.expect, record) : [];
        const info = {
          url,
          tests,
          testsPassed: tests.filter((test) => test.passed).length,
          status: record.status,
          statusText: record.statusText,
          data,
          headers: responseHeaders,
        };
        if (tests.some((test) => !test.passed)) throw Object.assign(new Error(`${method} ${url}: ${failedTests(tests)}`), { info });
        return info;
      },
    );
    return record!;
  },

  /** Checks the last response of this scenario against expectations (one command, one test each). */
  async verify(expect: ApiExpectations, options?: CommandOptions, world?: RehearseWorld): Promise<void> {
    const w = worldOf(world);
    await runCommand(w, { type: 'api_assert', options: { ...options, screenshot: false }, page: false }, async () => {
      const last = w.lastResponse;
      if (!last) throw new Error('No API response yet: send a request first');
      const tests = runExpectations(expect, last);
      const info = {
        url: last.url,
        tests,
        testsPassed: tests.filter((test) => test.passed).length,
        status: last.status,
        statusText: last.statusText,
      };
      if (tests.some((test) => !test.passed)) throw Object.assign(new Error(failedTests(tests)), { info });
      return info;
    });
  },
};
