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

/** A `.steps` file that cannot be used, with the file and line that say why. */
export class ReusableStepError extends Error {
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
