import { BUILT_IN_STEPS, type BuiltInStep } from '@rehearse/contract';

/**
 * Steps as a person reads and types them: the catalogue's cucumber expressions written out with
 * their parameters' names (`I fill "element" with "value"`), and as editor snippets whose fields
 * sit inside the quotes. Used by the editor's completion and the Steps reference page.
 */

const PARAMETER = /\{(string|element|int|float|word)\}|\(([^)]*)\)/g;

/** What a parameter is called where the catalogue gives no name: "element", "text", or its type. */
const parameterName = (type: string, given: string | undefined) =>
  given ?? (type === 'element' ? 'element' : type === 'string' ? 'text' : type);

/** `I fill {element} with {string}` → `I fill "element" with "value"`, with the step's parameter names. */
export function readableStep(pattern: string, names: readonly string[] = []): string {
  let at = 0;
  return pattern.replace(PARAMETER, (_, type: string | undefined, optional: string | undefined) => {
    if (type === undefined) return optional ?? '';
    const name = parameterName(type, names[at++]);
    return type === 'int' || type === 'float' ? (type === 'int' ? '2' : '1.5') : type === 'word' ? name : `"${name}"`;
  });
}

/** The same as a CodeMirror snippet template: each parameter is a field, quoted values keep their quotes. */
export function stepSnippet(pattern: string, names: readonly string[] = []): string {
  let at = 0;
  const escape = (text: string) => text.replace(/[\\{}$#]/g, '\\$&');
  return pattern
    .split(PARAMETER)
    .reduce<string[]>((parts, part, index) => {
      // split with two groups yields [text, type, optional, text, type, optional, …].
      const slot = index % 3;
      if (slot === 0) parts.push(escape(part));
      else if (slot === 1 && part !== undefined) {
        const name = parameterName(part, names[at++]);
        parts.push(part === 'int' || part === 'float' || part === 'word' ? `\${${name}}` : `"\${${name}}"`);
      } else if (slot === 2 && part !== undefined) parts.push(escape(part));
      return parts;
    }, [])
    .join('');
}

/** Where a line's step text begins (after `Given`, `And`, `*` …), or -1 when the line is no step. */
export function stepTextStart(line: string): number {
  const match = /^(\s*)(?:Given|When|Then|And|But|\*) /.exec(line);
  return match ? match[0].length : -1;
}

export interface StepChoice {
  pattern: string;
  label: string;
  snippet: string;
  /** The family for built-in steps, the file for the project's own. */
  detail: string;
  description: string;
  example?: string;
}

const builtInChoice = (step: BuiltInStep): StepChoice => {
  const names = step.parameters.map((parameter) => parameter.name);
  return {
    pattern: step.pattern,
    label: readableStep(step.pattern, names),
    snippet: stepSnippet(step.pattern, names),
    detail: step.family,
    description: step.description,
    example: step.example,
  };
};

/** Every built-in step, in catalogue order. */
export const BUILT_IN_CHOICES: readonly StepChoice[] = BUILT_IN_STEPS.map(builtInChoice);

/** The project's own steps (the server sends cucumber expressions only), each once. */
export function projectChoices(steps: readonly { pattern: string; file: string }[]): StepChoice[] {
  const seen = new Set<string>();
  return steps
    .filter((step) => !seen.has(step.pattern) && seen.add(step.pattern))
    .map((step) => ({
      pattern: step.pattern,
      label: readableStep(step.pattern),
      snippet: stepSnippet(step.pattern),
      detail: step.file.replace(/^features\/step_definitions\//, ''),
      description: '',
    }));
}

/** The text with the step on a 1-based line replaced, keeping the line's indentation and keyword. */
export function replaceStepOnLine(text: string, line: number, step: string): string {
  const lines = text.split('\n');
  const current = lines[line - 1];
  if (current === undefined) return text;
  const start = stepTextStart(current);
  if (start < 0) return text;
  lines[line - 1] = current.slice(0, start) + step;
  return lines.join('\n');
}

/** Step completion and "did you mean" for the Gherkin editor. */
export interface GherkinHelp {
  /** The built-in steps and the project's own, offered after a step keyword. */
  choices: readonly StepChoice[];
  /** Steps nobody implements, found in `forText`: shown only while the editor still holds that text. */
  undefinedSteps: readonly { line: number; text: string; suggestions: readonly string[] }[];
  forText: string;
}
