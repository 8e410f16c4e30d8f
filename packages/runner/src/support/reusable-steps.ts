/**
 * The runner's side of reusable steps (the `.steps` format and its reader are the contract's,
 * `parseReusableSteps`): reading a workspace's files, checking them as a whole, and filling a
 * step's placeholders. A refused file stops the run as a bad option does (exit 2, cli/run.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CucumberExpression, ParameterType, ParameterTypeRegistry } from '@cucumber/cucumber-expressions';
import {
  BUILT_IN_STEPS,
  ELEMENT_PARAMETER,
  elementPhrase,
  parseReusableSteps,
  ReusableStepError,
  STORAGE_PARAMETER,
  stepTextProblem,
  suggestSteps,
  type BuiltInStepId,
  type ReusableStep,
} from '@rehearse/contract';

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
      const problem = stepTextProblem(line.text);
      throw new ReusableStepError(
        step.file,
        line.line,
        `"${line.text}" is neither a built-in step nor a reusable one (a reusable step is made of those)${problem ? `: ${problem}` : ''}${closest.length ? `. Did you mean: ${closest.join(' | ')}` : ''}`,
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
