import { compileFunction } from 'node:vm';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { findStepFunction, StepFunctionError } from '@rehearse/codegen';
import { applyQuickPrompt, CLICK_TIMEOUT_MS, quickPromptOf, RETRY_ATTEMPTS } from './quick-prompts.js';
import { SAMPLES, type Sample } from './quick-prompts.samples.js';

interface Call {
  method: string;
  args: unknown[];
  world: unknown;
}

const nameOf = (ref: unknown): string | undefined =>
  typeof ref === 'string' ? ref : ref && typeof ref === 'object' && 'name' in ref ? String(ref.name) : undefined;

/**
 * A stand-in for `context.web` that records every call. `failures(call, n)` decides whether the
 * n-th call (0-based) throws; `missing` names elements that are not on the page.
 */
function fakeWeb(options: { missing?: Set<string>; fails?: (call: Call, index: number) => boolean } = {}) {
  const calls: Call[] = [];
  const web = new Proxy(
    {},
    {
      get:
        (_target, method: string) =>
        async (...args: unknown[]) => {
          const call = { method, args, world: args[3] };
          if (method === 'isFound') {
            calls.push(call);
            return !options.missing?.has(nameOf(args[0]) ?? '');
          }
          const index = calls.filter((c) => c.method !== 'isFound').length;
          calls.push(call);
          if (options.missing?.has(nameOf(args[0]) ?? '')) throw new Error(`${nameOf(args[0])} not found`);
          if (options.fails?.(call, index)) throw new Error(`${method} failed`);
          return undefined;
        },
    },
  );
  return { web, calls, commands: () => calls.filter((c) => c.method !== 'isFound') };
}

/**
 * Runs a step file the way cucumber would call one of its steps, with `@cucumber/cucumber` and
 * `@rehearse/runner` replaced by recorders: import declarations become reads of those fakes.
 */
async function runStep(code: string, sample: Sample, web: object): Promise<void> {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as {
    body: Array<{
      type: string;
      start: number;
      end: number;
      source?: { value: string };
      specifiers?: Array<{ local: { name: string }; imported?: { name: string } }>;
    }>;
  };
  let body = code;
  for (const node of [...program.body].reverse()) {
    if (node.type !== 'ImportDeclaration') continue;
    const names = node.specifiers!.map((s) => `${s.imported?.name ?? s.local.name}: ${s.local.name}`).join(', ');
    body = `${body.slice(0, node.start)}const { ${names} } = deps[${JSON.stringify(node.source!.value)}];${body.slice(node.end)}`;
  }
  const steps = new Map<string, (...args: unknown[]) => unknown>();
  const define = (pattern: string | RegExp, fn: (...args: unknown[]) => unknown) =>
    steps.set(typeof pattern === 'string' ? pattern : pattern.source, fn);
  const deps = { '@cucumber/cucumber': { Given: define, When: define, Then: define }, '@rehearse/runner': { context: { web } } };
  // compileFunction runs the file in this realm, so its objects compare with the test's.
  (compileFunction(body, ['deps']) as (d: typeof deps) => void)(deps);
  const fn = steps.get(sample.pattern);
  if (!fn) throw new Error(`step ${sample.pattern} not defined`);
  await fn.apply(WORLD, sample.args);
}

const WORLD = { kind: 'world' };

async function outcome(code: string, sample: Sample, web: object): Promise<'passed' | 'failed'> {
  return runStep(code, sample, web).then(
    () => 'passed',
    () => 'failed',
  );
}

/** The function's own text must be the only part of the file that changed. */
function expectOnlyFunctionChanged(before: string, after: string, sample: Sample) {
  const { fn } = findStepFunction(before, sample.functionName);
  expect(after.slice(0, fn.start)).toBe(before.slice(0, fn.start));
  expect(after.slice(after.length - (before.length - fn.end))).toBe(before.slice(fn.end));
}

const ACTIONS = new Set(['click', 'fill', 'select', 'check', 'hover', 'press']);

describe('quick prompts on twenty step functions', () => {
  it('has twenty varied samples', () => {
    expect(SAMPLES).toHaveLength(20);
  });

  for (const sample of SAMPLES) {
    describe(sample.name, () => {
      it('"Continue if step fails" lets the step pass when a command fails, and changes nothing when none does', async () => {
        const after = applyQuickPrompt(sample.code, sample.functionName, 'Continue if step fails');
        expectOnlyFunctionChanged(sample.code, after, sample);
        expect(applyQuickPrompt(after, sample.functionName, 'Continue if step fails')).toBe(after);

        const plain = fakeWeb();
        await runStep(sample.code, sample, plain.web);
        const wrapped = fakeWeb();
        await runStep(after, sample, wrapped.web);
        expect(wrapped.calls).toEqual(plain.calls);

        if (plain.calls.length > 0) {
          expect(await outcome(sample.code, sample, fakeWeb({ fails: () => true }).web)).toBe('failed');
          expect(await outcome(after, sample, fakeWeb({ fails: () => true }).web)).toBe('passed');
        }
      });

      it('"Retry step" passes after one failure and fails after three', async () => {
        const after = applyQuickPrompt(sample.code, sample.functionName, 'Retry step');
        expectOnlyFunctionChanged(sample.code, after, sample);
        expect(applyQuickPrompt(after, sample.functionName, 'Retry step')).toBe(after);

        const plain = fakeWeb();
        await runStep(sample.code, sample, plain.web);
        if (plain.calls.length === 0) {
          expect(await outcome(after, sample, fakeWeb().web)).toBe('passed');
          return;
        }
        const onceOriginal = fakeWeb({ fails: (_call, index) => index === 0 });
        expect(await outcome(sample.code, sample, onceOriginal.web)).toBe('failed');
        const once = fakeWeb({ fails: (_call, index) => index === 0 });
        expect(await outcome(after, sample, once.web)).toBe('passed');
        // The failed attempt, then the whole step again.
        expect(once.commands().slice(-plain.calls.length)).toEqual(plain.calls);

        const first = plain.calls[0]!.method;
        const always = fakeWeb({ fails: (call) => call.method === first });
        expect(await outcome(after, sample, always.web)).toBe('failed');
        expect(always.commands().filter((c) => c.method === first)).toHaveLength(RETRY_ATTEMPTS);
      });

      it('"Perform action only if element found" skips actions on missing elements and keeps every check', async () => {
        const after = applyQuickPrompt(sample.code, sample.functionName, 'Perform action only if element found');
        expectOnlyFunctionChanged(sample.code, after, sample);
        expect(applyQuickPrompt(after, sample.functionName, 'Perform action only if element found')).toBe(after);

        const plain = fakeWeb();
        await runStep(sample.code, sample, plain.web);
        const present = fakeWeb();
        await runStep(after, sample, present.web);
        expect(present.commands()).toEqual(plain.calls);

        const acted = plain.calls.filter((c) => ACTIONS.has(c.method) && c.args[0] !== null).map((c) => nameOf(c.args[0])!);
        const checked = new Set(plain.calls.filter((c) => !ACTIONS.has(c.method)).map((c) => nameOf(c.args[0])));
        const missing = new Set(acted.filter((name) => !checked.has(name)));
        if (missing.size === 0) return;
        expect(await outcome(sample.code, sample, fakeWeb({ missing }).web)).toBe('failed');
        const guarded = fakeWeb({ missing });
        expect(await outcome(after, sample, guarded.web)).toBe('passed');
        expect(guarded.commands().filter((c) => missing.has(nameOf(c.args[0]) ?? ''))).toEqual([]);
        expect(guarded.commands().filter((c) => !ACTIONS.has(c.method))).toEqual(plain.calls.filter((c) => !ACTIONS.has(c.method)));
        // The guard asks with the same element, parameters and world the action would have used.
        for (const ask of guarded.calls.filter((c) => c.method === 'isFound')) {
          const action = plain.calls.find((c) => ACTIONS.has(c.method) && nameOf(c.args[0]) === nameOf(ask.args[0]))!;
          const [paramsAt, worldAt] = ['fill', 'select', 'press'].includes(action.method) ? [2, 4] : [1, 3];
          expect(ask.args[1]).toEqual(action.args[paramsAt]);
          expect(ask.args[3]).toBe(action.args[worldAt]);
        }
      });

      it('"Set click timeout to 2 minutes" gives every click a 120000 ms timeout and keeps its other options', async () => {
        const after = applyQuickPrompt(sample.code, sample.functionName, 'Set click timeout to 2 minutes');
        expectOnlyFunctionChanged(sample.code, after, sample);
        expect(applyQuickPrompt(after, sample.functionName, 'Set click timeout to 2 minutes')).toBe(after);

        const plain = fakeWeb();
        await runStep(sample.code, sample, plain.web);
        const timed = fakeWeb();
        await runStep(after, sample, timed.web);
        expect(timed.calls.map((c) => c.method)).toEqual(plain.calls.map((c) => c.method));
        timed.calls.forEach((call, i) => {
          const original = plain.calls[i]!;
          if (call.method !== 'click') return expect(call).toEqual(original);
          expect(call.args[0]).toEqual(original.args[0]);
          expect(call.args[1]).toEqual(original.args[1]);
          expect(call.args[2]).toEqual({ ...(original.args[2] as object | undefined), timeout: CLICK_TIMEOUT_MS });
          expect(call.args[3]).toBe(original.args[3]);
        });
      });
    });
  }
});

describe('quick prompt results, exactly', () => {
  const sample = SAMPLES[1]!;
  const step = (body: string) =>
    sample.code.replace(/When\('I add it to the cart'[\s\S]*$/, `When('I add it to the cart', async function () {\n${body}\n});\n`);

  it('wraps the body in try/catch to continue', () => {
    expect(applyQuickPrompt(sample.code, sample.functionName, 'Continue if step fails')).toBe(
      step(`  try {
    await context.web.click(elements.add_to_cart, {}, {}, this);
  } catch (error) {
    // Continue if step fails: the failure is logged and the scenario goes on.
    console.warn('Step failed, continuing:', error instanceof Error ? error.message : error);
  }`),
    );
  });

  it('wraps the body in a retry loop', () => {
    expect(applyQuickPrompt(sample.code, sample.functionName, 'Retry step')).toBe(
      step(`  // Retry step: runs the step up to 3 times before it fails.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await context.web.click(elements.add_to_cart, {}, {}, this);
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }`),
    );
  });

  it('guards the action with isFound', () => {
    expect(applyQuickPrompt(sample.code, sample.functionName, 'Perform action only if element found')).toBe(
      step(
        `  if (await context.web.isFound(elements.add_to_cart, {}, undefined, this)) await context.web.click(elements.add_to_cart, {}, {}, this);`,
      ),
    );
  });

  it('sets the click timeout in the options object', () => {
    expect(applyQuickPrompt(sample.code, sample.functionName, 'Set click timeout to 2 minutes')).toBe(
      step(`  await context.web.click(elements.add_to_cart, {}, { timeout: 120000 }, this);`),
    );
  });

  it('reads a quick prompt whatever its case and punctuation, and nothing else', () => {
    expect(quickPromptOf('retry step')).toBe('Retry step');
    expect(quickPromptOf('Set click timeout to 2 minutes.')).toBe('Set click timeout to 2 minutes');
    expect(quickPromptOf('retry the step twice')).toBeUndefined();
  });

  it('refuses a function the file does not have, and a file that does not parse', () => {
    expect(() => applyQuickPrompt(sample.code, 'no_such_step', 'Retry step')).toThrow(StepFunctionError);
    expect(() => applyQuickPrompt('function (', 'x', 'Retry step')).toThrow(StepFunctionError);
  });
});
