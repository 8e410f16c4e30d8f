import { randomUUID } from 'node:crypto';
import { authCalls, buildPath, type CallDefinition } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequest, freshSession, projectFixtures, type ProjectFixture } from '../testing/call-fixtures.js';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

/** What every string field gets in turn: NUL bytes, lone surrogates, prototype keys, and dates that are not dates. */
const BAD_STRINGS = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '__proto__',
  'constructor',
  'prototype',
  'not-a-date',
  '2026-02-31T25:61:00Z',
  '0000-01-01T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  // Text that reaches SQL, HTML, paths, headers, git and shells.
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '--upload-pack=touch /tmp/pwned',
  'a\r\nSet-Cookie: x=1',
  '%00%2e%2e%2f',
  '${process.env.REHEARSE_SECRET_KEY}',
  '\ufeff\u202e\uffff',
  '   ',
  'x'.repeat(100_000),
  '🚀'.repeat(1000),
  'http://169.254.169.254/latest/meta-data/',
  '{"__proto__":{"polluted":true}}',
  '-1',
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Part = 'body' | 'query' | 'params';
interface Case {
  body: Json | undefined;
  query: Record<string, string> | undefined;
  params: Record<string, string> | undefined;
  /** Raw JSON text instead of `body`, for keys JSON.stringify would drop (`__proto__`). */
  raw?: string;
  label: string;
}

/** Every path to a string leaf of a JSON value. */
function stringPaths(value: Json | undefined, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [prefix];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringPaths(item, [...prefix, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...prefix, key]));
  return [];
}

function withValue(value: Json | undefined, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, Json>;
  let cursor = copy;
  for (const step of path.slice(0, -1)) cursor = cursor[step] as Record<string | number, Json>;
  cursor[path[path.length - 1]!] = replacement;
  return copy;
}

/** Top-level field names a call's zod object schema declares (so absent optional fields get fuzzed too). */
function declaredFields(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

/** The fuzz cases of one call, built from its valid example. */
function casesFor(
  call: CallDefinition,
  base: { body: Json | undefined; query: Record<string, string> | undefined; params: Record<string, string> | undefined },
): Case[] {
  const cases: Case[] = [];
  for (const part of ['body', 'query', 'params'] as Part[]) {
    const value = base[part];
    const paths = stringPaths(value);
    // Fields the schema declares but the example leaves out are fuzzed at the top level too.
    const schema = part === 'body' ? call.body : part === 'query' ? call.query : call.params;
    for (const field of declaredFields(schema)) {
      if (!paths.some((path) => path.length === 1 && path[0] === field)) paths.push([field]);
    }
    for (const path of paths) {
      for (const bad of BAD_STRINGS) {
        const changed = withValue(value ?? {}, path, bad);
        cases.push({ ...base, [part]: changed, label: `${part}.${path.join('.')}=${JSON.stringify(bad)}` });
      }
    }
  }
  if (call.method !== 'GET') {
    const body = (base.body && typeof base.body === 'object' && !Array.isArray(base.body) ? base.body : {}) as Record<string, Json>;
    for (const key of ['constructor', 'prototype']) {
      cases.push({ ...base, body: { ...body, [key]: { polluted: true } }, label: `body key ${key}` });
    }
    cases.push({
      ...base,
      body: undefined,
      raw: JSON.stringify(body).replace(/^\{/, '{"__proto__":{"polluted":true},').replace(',}', '}'),
      label: 'body key __proto__',
    });
  }
  return cases;
}

describe.each(testBackends())('input fuzz on %s', (backend) => {
  let test: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  /** A real project of the admin with one of each sub-resource, so calls about them reach their handlers. */
  let fixture: () => Promise<ProjectFixture>;
  beforeAll(async () => {
    test = await startTestApp(backend);
    admin = await signUp(test, { email: 'fuzz-admin@acme.test' });
    await test.services.users.update(admin.user.id, { allowedProjectsCount: 10_000 });
    fixture = projectFixtures(test, admin, 'fuzz');
  });
  afterAll(async () => test?.close());

  it('answers at least 10,000 hostile requests over every call without a single 5xx', { timeout: 1_200_000 }, async () => {
    const calls = test.routes.filter((route) => route.call && route.method !== 'HEAD').map((route) => route.call!);
    expect(calls.length).toBeGreaterThanOrEqual(Object.keys(authCalls).length);
    const failures: string[] = [];
    let sent = 0;
    let current: ProjectFixture | undefined;
    for (const call of calls) {
      // Calls share a fixture until one may have deleted part of it (a DELETE, or an ended recorder
      // session); the one left behind ends its recorder session, so the recorder's capacity never answers.
      if (!current || call.method === 'DELETE' || call.project?.resource === 'recorderSession') {
        await current?.close();
        current = await fixture();
      }
      const started = Date.now();
      const request = exampleRequest(call, current);
      const body = request.body as Json | undefined;
      const { params, query } = request;
      const pathParams = params ?? Object.fromEntries([...call.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => [match[1]!, randomUUID()]));
      for (const fuzz of casesFor(call, { body, query, params: pathParams })) {
        // A fresh session each time: logout is among the calls and ends the one it is made with.
        const token = await freshSession(test, admin.user.id);
        let url: string;
        try {
          url = buildPath(call.path, fuzz.params) + (fuzz.query ? `?${new URLSearchParams(fuzz.query).toString()}` : '');
        } catch {
          continue;
        }
        const response = await test.app.inject({
          method: call.method,
          url,
          headers: { authorization: `Bearer ${token}`, ...(fuzz.raw ? { 'content-type': 'application/json' } : {}) },
          ...(fuzz.raw !== undefined
            ? { payload: fuzz.raw }
            : fuzz.body !== undefined && call.method !== 'GET'
              ? { payload: fuzz.body as object }
              : {}),
        });
        sent += 1;
        if (response.statusCode >= 500) {
          failures.push(`${call.method} ${call.path} ${fuzz.label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          console.warn(failures.at(-1));
        }
      }
      if (Date.now() - started > 5_000) console.warn(`slow fuzz call ${call.method} ${call.path}: ${Date.now() - started} ms`);
    }
    console.warn(`input fuzz: ${sent} requests over ${calls.length} calls`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(10_000);
  });
});
