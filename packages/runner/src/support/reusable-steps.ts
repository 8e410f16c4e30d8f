import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CucumberExpression, ParameterType, ParameterTypeRegistry } from '@cucumber/cucumber-expressions';
import { BUILT_IN_STEPS, ELEMENT_PARAMETER, elementPhrase, STORAGE_PARAMETER, suggestSteps, type BuiltInStepId } from '@rehearse/contract';
import { UsageError } from './settings.js';

/**
 * Reusable steps made of steps, without code: a `.steps` file under `features/` holds, in Gherkin,
 * one scenario per step, whose name is the step's wording with its parameters as quoted
 * placeholders and whose steps are what it does:
 *
 *     Feature: Todo steps
 *       Scenario: I add the todo "<title>"
 *         When I fill "What needs to be done?" with "<title>"
 *         And I press "Enter"
 *
 * A scenario may then say `Given I add the todo "feed the cat"`. The steps inside are built-in
 * steps or other reusable ones; each runs as it would on its own, so its commands are the report's.
 * `.steps` files are not features: cucumber never runs them as scenarios.
 */

export interface ReusableStep {
  /** The wording, with `"<name>"` placeholders, as written. */
  wording: string;
  /** The cucumber expression it registers (`I add the todo {string}`). */
  pattern: string;
  /** Placeholder names, in the order the pattern's `{string}`s take them. */
  params: string[];
  body: { text: string; line: number }[];
  file: string;
  line: number;
}

/** A `.steps` file that cannot be used, with the file and line that say why: the run stops as for a bad option (exit 2). */
export class ReusableStepError extends UsageError {
  override readonly name = 'ReusableStepError';
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
  }
}

const STEP_LINE = /^(?:Given|When|Then|And|But|\*)\s+(.*)$/;
const escapeExpression = (text: string) => text.replace(/([\\(){}/])/g, '\\$1');

/** Reads one `.steps` file's text; `file` is how errors name it. */
export function parseReusableSteps(text: string, file: string): ReusableStep[] {
  const steps: ReusableStep[] = [];
  let current: ReusableStep | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('@')) continue;
    if (/^Feature:/.test(trimmed)) continue;
    const scenario = /^Scenario:\s*(.*)$/.exec(trimmed);
    if (scenario) {
      current = reusableStep(scenario[1]!.trim(), file, line);
      steps.push(current);
      continue;
    }
    const step = STEP_LINE.exec(trimmed);
    if (!current) {
      if (step)
        throw new ReusableStepError(file, line, 'a step before any "Scenario:" (each reusable step starts with "Scenario: <its wording>")');
      continue; // a feature's description
    }
    if (!step) throw new ReusableStepError(file, line, `expected a step (Given, When, Then, And, But or *), found "${trimmed}"`);
    checkQuotes(step[1]!, file, line);
    for (const [, name] of step[1]!.matchAll(/<([^<>]+)>/g)) {
      if (!current.params.includes(name!))
        throw new ReusableStepError(
          file,
          line,
          `"<${name}>" is not a parameter of "${current.wording}" (it has ${current.params.map((p) => `<${p}>`).join(', ') || 'none'})`,
        );
    }
    current.body.push({ text: step[1]!, line });
  }
  for (const each of steps) if (each.body.length === 0) throw new ReusableStepError(file, each.line, `"${each.wording}" has no steps`);
  return steps;
}

function checkQuotes(text: string, file: string, line: number): void {
  const quotes = text.replace(/\\"/g, '').split('"').length - 1;
  if (quotes % 2 === 1) throw new ReusableStepError(file, line, `unclosed quote in "${text}"`);
}

function reusableStep(wording: string, file: string, line: number): ReusableStep {
  if (!wording) throw new ReusableStepError(file, line, 'a reusable step needs its wording after "Scenario:"');
  checkQuotes(wording, file, line);
  const params: string[] = [];
  const parts = wording.split(/("<[^<>"]+>")/);
  const pattern = parts
    .map((part) => {
      const placeholder = /^"<([^<>"]+)>"$/.exec(part);
      if (!placeholder) {
        if (/[<>]/.test(part)) throw new ReusableStepError(file, line, `a parameter is written in quotes, as "<name>": "${wording}"`);
        return escapeExpression(part);
      }
      if (params.includes(placeholder[1]!)) throw new ReusableStepError(file, line, `"<${placeholder[1]}>" appears twice in "${wording}"`);
      params.push(placeholder[1]!);
      return '{string}';
    })
    .join('');
  return { wording, pattern, params, body: [], file, line };
}

/** Every `.steps` file below `<workspace>/features`, parsed; files are named workspace-relative. */
export function readReusableSteps(workspaceDir: string): ReusableStep[] {
  const root = path.join(workspaceDir, 'features');
  let files: string[];
  try {
    files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.steps'));
  } catch {
    return [];
  }
  return files
    .sort()
    .flatMap((name) => parseReusableSteps(readFileSync(path.join(root, name), 'utf8'), `features/${name.split(path.sep).join('/')}`));
}

/** What a step text runs: a built-in step with its arguments, or a reusable step with its values. */
type Resolved = { kind: 'builtIn'; id: BuiltInStepId; args: unknown[] } | { kind: 'reusable'; step: ReusableStep; values: string[] };

function registry(): ParameterTypeRegistry {
  const types = new ParameterTypeRegistry();
  types.defineParameterType(
    new ParameterType(
      ELEMENT_PARAMETER.name,
      ELEMENT_PARAMETER.regexp,
      null,
      (nth?: string, name?: string, container?: string, text?: string, itself?: string, itselfText?: string) =>
        elementPhrase(nth, name, container, text, itself, itselfText),
      false,
      false,
    ),
  );
  types.defineParameterType(
    new ParameterType(STORAGE_PARAMETER.name, STORAGE_PARAMETER.regexp, null, (which: string) => which, false, false),
  );
  return types;
}

/**
 * The reusable steps, checked as a whole before any runs: every step inside is a built-in or a
 * reusable step (else the line, and the closest phrasings), none reads like a built-in step, and
 * none calls itself, directly or through others (else the chain).
 */
export function compileReusableSteps(steps: readonly ReusableStep[]): (text: string) => Resolved | undefined {
  const types = registry();
  const builtIns = BUILT_IN_STEPS.filter((step) => !step.parameters.some((parameter) => parameter.type === 'table')).map((step) => ({
    id: step.id,
    expression: new CucumberExpression(step.pattern, types),
  }));
  const reusable = steps.map((step) => ({ step, expression: new CucumberExpression(step.pattern, types) }));
  const resolve = (text: string): Resolved | undefined => {
    for (const { step, expression } of reusable) {
      const match = expression.match(text);
      if (match) return { kind: 'reusable', step, values: match.map((arg) => String(arg.getValue(null))) };
    }
    for (const { id, expression } of builtIns) {
      const match = expression.match(text);
      if (match) return { kind: 'builtIn', id, args: match.map((arg) => arg.getValue(null)) };
    }
    return undefined;
  };
  for (const step of steps) {
    const clash = builtIns.find(({ expression }) => expression.match(step.wording.replace(/"<[^<>"]+>"/g, '"x"')));
    if (clash)
      throw new ReusableStepError(
        step.file,
        step.line,
        `"${step.wording}" reads like the built-in step "${BUILT_IN_STEPS.find((b) => b.id === clash.id)!.pattern}": word it differently`,
      );
    for (const line of step.body) {
      if (resolve(line.text)) continue;
      const closest = suggestSteps(line.text, [...BUILT_IN_STEPS.map((b) => b.pattern), ...steps.map((s) => s.pattern)]);
      throw new ReusableStepError(
        step.file,
        line.line,
        `"${line.text}" is neither a built-in step nor a reusable one (a reusable step is made of those)${closest.length ? `. Did you mean: ${closest.join(' | ')}` : ''}`,
      );
    }
  }
  const calls = (step: ReusableStep) =>
    step.body.flatMap((line) => {
      const resolved = resolve(line.text);
      return resolved?.kind === 'reusable' ? [{ callee: resolved.step, line: line.line }] : [];
    });
  const visit = (step: ReusableStep, chain: ReusableStep[]) => {
    for (const { callee, line } of calls(step)) {
      if (callee === chain[0]) {
        const chainText = [...chain, callee].map((each) => `"${each.wording}"`).join(' → ');
        throw new ReusableStepError(step.file, line, `the reusable step "${callee.wording}" calls itself (${chainText})`);
      }
      if (!chain.includes(callee)) visit(callee, [...chain, callee]);
    }
  };
  for (const step of steps) visit(step, [step]);
  return resolve;
}

/** A step's text with its placeholders filled: a value's own quotes are escaped, as a step writes them. */
export function fillPlaceholders(text: string, step: ReusableStep, values: readonly string[]): string {
  return text.replace(/<([^<>]+)>/g, (whole, name: string) => {
    const index = step.params.indexOf(name);
    return index === -1 ? whole : values[index]!.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  });
}
