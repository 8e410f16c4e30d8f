import gherkinLanguages from '@cucumber/gherkin/dist/gherkin-languages.json';
import { BUILT_IN_STEPS, type BuiltInStep } from '@rehearse/contract';
import { FeatureStrings as S } from './strings';

/**
 * Steps as a person reads and types them: the catalogue's cucumber expressions written out with
 * their parameters' names (`I fill "element" with "value"`), and as editor snippets whose fields
 * sit inside the quotes. Used by the editor's completion and the Steps reference page.
 */

const PARAMETER = /\{(string|element|int|float|word|storage)\}|\(([^)]*)\)/g;

/** What a parameter is called where the catalogue gives no name: "element", "text", or its type. */
const parameterName = (type: string, given: string | undefined) =>
  given ?? (type === 'element' ? 'element' : type === 'string' ? 'text' : type);

/** `I fill {element} with {string}` → `I fill "element" with "value"`, with the step's parameter names. */
export function readableStep(pattern: string, names: readonly string[] = []): string {
  let at = 0;
  return pattern.replace(PARAMETER, (_, type: string | undefined, optional: string | undefined) => {
    if (type === undefined) return optional ?? '';
    const name = parameterName(type, names[at++]);
    // {storage} is the word "local" or "session", unquoted: the reference shows the usual one.
    if (type === 'storage') return 'local';
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
        parts.push(part === 'int' || part === 'float' || part === 'word' || part === 'storage' ? `\${${name}}` : `"\${${name}}"`);
      } else if (slot === 2 && part !== undefined) parts.push(escape(part));
      return parts;
    }, [])
    .join('');
}

type Dialect = Record<'given' | 'when' | 'then' | 'and' | 'but', string[]>;
const DIALECTS = gherkinLanguages as unknown as Record<string, Dialect>;

/**
 * The step keywords of a Gherkin text's dialect, as Gherkin's own language table spells them
 * (`Given `, `Soit `, `Etant donné qu'`, `假如`, `* `), longest first: its `# language:` header
 * names the dialect, English without one.
 */
export function stepKeywords(text: string): string[] {
  const language = /^\s*#\s*language\s*:\s*(\S+)/m.exec(text.split('\n', 20).join('\n'))?.[1] ?? 'en';
  const dialect = DIALECTS[language] ?? DIALECTS.en!;
  const keywords = [...dialect.given, ...dialect.when, ...dialect.then, ...dialect.and, ...dialect.but];
  return [...new Set(keywords)].sort((a, b) => b.length - a.length);
}

/** Where a line's step text begins (after its keyword), or -1 when the line is no step. */
export function stepTextStart(line: string, keywords: readonly string[]): number {
  const indent = line.length - line.trimStart().length;
  const keyword = keywords.find((candidate) => line.startsWith(candidate, indent));
  return keyword === undefined ? -1 : indent + keyword.length;
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

/** The text with the step text at `at` (1-based line, and the column the server read its text at) replaced; indentation and keyword stay. */
export function replaceStepOnLine(text: string, at: { line: number; column: number }, step: string): string {
  const lines = text.split('\n');
  const current = lines[at.line - 1];
  if (current === undefined || at.column < 1 || at.column > current.length + 1) return text;
  lines[at.line - 1] = current.slice(0, at.column - 1) + step;
  return lines.join('\n');
}

/** Step completion and "did you mean" for the Gherkin editor. */
export interface GherkinHelp {
  /** The built-in steps and the project's own, offered after a step keyword. */
  choices: readonly StepChoice[];
  /** Steps nobody implements, found in `forText`: shown only while the editor still holds that text. */
  /** `column`: where the step's text begins (1-based), as the server's Gherkin parser read it in any dialect. */
  undefinedSteps: readonly UndefinedStep[];
  forText: string;
}

/** A step nobody implements: where it is, why its text is no step when that is the reason, what it may have meant. */
export interface UndefinedStep {
  line: number;
  column: number;
  text: string;
  problem?: string | undefined;
  suggestions: readonly string[];
}

/** What the editor says of an undefined step: why it is none, else the nearest phrasing, else that nothing matches. */
export function undefinedStepMessage(step: UndefinedStep): string {
  const [first] = step.suggestions;
  if (step.problem) return S.undefinedStepProblem(step.problem, first);
  return first ? S.undefinedStepDidYouMean(first) : S.undefinedStep;
}
