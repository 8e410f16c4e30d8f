import {
  CucumberExpression,
  ParameterType,
  ParameterTypeRegistry,
  RegularExpression,
  type Expression,
} from '@cucumber/cucumber-expressions';
import { STEP_PARAMETER_TYPES } from '@rehearse/contract';
import {
  parse,
  type AnyNode,
  type BlockStatement,
  type Comment,
  type Expression as JsExpression,
  type Function as FunctionNode,
  type Node,
  type Program,
} from 'acorn';
import { ancestor, simple } from 'acorn-walk';
import { applySourceEdits } from './source-edits.js';

/**
 * The step-file toolkit: one way to read a step definition module (parsed, never pattern-matched
 * as text), to find its steps and functions, to match step text as cucumber-js does, to remove
 * definitions, and to splice the recorder's blocks. The steps listing, the AI engine's quick
 * prompts and the recorder's generator all go through it.
 */

/** Parses a step module as cucumber loads it (an ES module, hashbang allowed), with comments and lines. */
export function parseStepModule(code: string): { program: Program; comments: Comment[] } {
  const comments: Comment[] = [];
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true, onComment: comments, allowHashBang: true });
  return { program, comments };
}

/** The functions that define steps. */
export const STEP_FUNCTIONS: ReadonlySet<string> = new Set(['Given', 'When', 'Then', 'defineStep']);

/** The text a step pattern argument stands for: a string, a regular expression's source, or a plain template. */
export function stepPatternOf(node: AnyNode | undefined): { pattern: string; isRegex: boolean } | undefined {
  if (node?.type === 'Literal' && node.regex) return { pattern: node.regex.pattern, isRegex: true };
  if (node?.type === 'Literal' && typeof node.value === 'string') return { pattern: node.value, isRegex: false };
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) {
    const cooked = node.quasis[0]?.value.cooked;
    return cooked === undefined || cooked === null ? undefined : { pattern: cooked, isRegex: false };
  }
  return undefined;
}

export const nameOfNode = (node: Node | null | undefined): string | undefined =>
  node && node.type === 'Identifier' ? (node as Node & { name: string }).name : undefined;

export type StepSource = 'user' | 'api' | 'recorder';

/** One `Given/When/Then/defineStep(pattern, fn)` found in a step definition file. */
export interface StepDefinition {
  uri: string;
  keyword: string;
  pattern: string;
  isRegex: boolean;
  line: number;
  /** Character range of the whole statement, with its leading doc comment, for removal. */
  start: number;
  end: number;
  source: StepSource;
  implementedAt: string | null;
}

/** Reads the stamps generated code carries in its doc comment: `@recorder`, `@api`, `@implemented_at=`. */
function stampsOf(comment: string | undefined): { source: StepSource; implementedAt: string | null } {
  const text = comment ?? '';
  const source: StepSource = /@recorder\b/.test(text) ? 'recorder' : /@api\b/.test(text) ? 'api' : 'user';
  const date = /@implemented_at[=\s]+(\S+)/.exec(text)?.[1] ?? null;
  return { source, implementedAt: date };
}

/**
 * Finds the step definitions of one JavaScript module by parsing it (not by pattern matching
 * text), so strings, comments and template literals cannot fool it. A file that does not parse
 * yields its syntax error and no definitions.
 */
export function scanStepDefinitions(uri: string, code: string): { definitions: StepDefinition[]; error: string | null } {
  let parsed: ReturnType<typeof parseStepModule>;
  try {
    parsed = parseStepModule(code);
  } catch (error) {
    return { definitions: [], error: (error as Error).message };
  }
  const { program, comments } = parsed;
  const definitions: StepDefinition[] = [];
  ancestor(program, {
    CallExpression(node, _state, ancestors) {
      const name = nameOfNode(node.callee);
      if (!name || !STEP_FUNCTIONS.has(name)) return;
      const found = stepPatternOf(node.arguments[0]);
      if (!found) return;
      const statement = [...ancestors].reverse().find((n) => n.type === 'ExpressionStatement') ?? node;
      const doc = comments.filter((c) => c.end <= statement.start && code.slice(c.end, statement.start).trim() === '').at(-1);
      // The comments right above the statement, one after another: a recorder block's head is a
      // doc comment and a `// @step` line, and its stamps sit in the first.
      const head: Comment[] = [];
      for (let at = statement.start, i = comments.length - 1; i >= 0; i -= 1) {
        const comment = comments[i]!;
        if (comment.end > at) continue;
        if (code.slice(comment.end, at).trim() !== '') break;
        head.unshift(comment);
        at = comment.start;
      }
      definitions.push({
        uri,
        keyword: name,
        ...found,
        line: node.loc?.start.line ?? 0,
        start: doc && code.slice(doc.end, statement.start).split('\n').length <= 2 ? doc.start : statement.start,
        end: statement.end,
        ...stampsOf(head.map((comment) => code.slice(comment.start, comment.end)).join('\n') || undefined),
      });
    },
  });
  return { definitions, error: null };
}

/** Removes definitions from a module's source, with their doc comments and the line they stood on. */
export function removeDefinitions(code: string, definitions: readonly StepDefinition[]): string {
  const removals = definitions.map((definition) => {
    const lineStart = code.lastIndexOf('\n', definition.start - 1) + 1;
    const start = code.slice(lineStart, definition.start).trim() === '' ? lineStart : definition.start;
    let end = definition.end;
    while (end < code.length && (code[end] === ' ' || code[end] === '\t' || code[end] === ';')) end += 1;
    if (code[end] === '\r') end += 1;
    if (code[end] === '\n') end += 1;
    return { start, end, text: '' };
  });
  return applySourceEdits(code, removals).replace(/\n{3,}/g, '\n\n');
}

/**
 * Matches step text to definitions the way cucumber-js does: cucumber expressions with the
 * default parameter types, or regular expressions. Matches are memoised per text.
 */
export class StepMatcher {
  private readonly expressions: { definition: { pattern: string; isRegex: boolean }; expression: Expression | null }[];
  private readonly memo = new Map<string, number>();

  constructor(definitions: readonly { pattern: string; isRegex: boolean }[]) {
    const registry = new ParameterTypeRegistry();
    // The built-in steps' own parameter types ({element}), as the runner registers them.
    for (const type of STEP_PARAMETER_TYPES)
      registry.defineParameterType(new ParameterType(type.name, type.regexp, null, (...groups: unknown[]) => groups, false, false));
    this.expressions = definitions.map((definition) => {
      try {
        const expression = definition.isRegex
          ? new RegularExpression(new RegExp(definition.pattern), registry)
          : new CucumberExpression(definition.pattern, registry);
        return { definition, expression };
      } catch {
        return { definition, expression: null };
      }
    });
  }

  /** Index of the first definition matching `text`, or -1. */
  match(text: string): number {
    const known = this.memo.get(text);
    if (known !== undefined) return known;
    const index = this.expressions.findIndex(({ expression }) => {
      try {
        return (expression?.match(text) ?? null) !== null;
      } catch {
        return false;
      }
    });
    this.memo.set(text, index);
    return index;
  }
}

/**
 * The cucumber expression a new definition for one step text gets: its quoted values become
 * `{string}`, and what cucumber expressions read as syntax (parentheses, braces, slash,
 * backslash) is escaped, so the expression matches the very text it was made for.
 */
export function expressionForStep(text: string): string {
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? '{string}' : part.replace(/[\\(){}/]/g, '\\$&')))
    .join('');
}

/** The step function is not in the file, or the file does not parse. */
export class StepFunctionError extends Error {
  override readonly name = 'StepFunctionError';
}

export interface FoundFunction {
  fn: FunctionNode;
  body: BlockStatement | JsExpression;
}

/**
 * Finds the function `name` designates: a function declaration or a variable holding a function
 * of that name, or the function given to `Given/When/Then(name, fn)` when `name` is the step's
 * pattern (generated code names functions; hand-written code often passes them inline).
 */
export function findStepFunction(code: string, name: string): FoundFunction {
  let program: Program;
  try {
    program = parseStepModule(code).program;
  } catch (error) {
    throw new StepFunctionError(`The step file does not parse: ${(error as Error).message}`);
  }
  const found: FunctionNode[] = [];
  const isFunction = (node: AnyNode | null | undefined): node is FunctionNode & AnyNode =>
    !!node && (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' || node.type === 'FunctionDeclaration');
  simple(program, {
    FunctionDeclaration(node) {
      if (node.id?.name === name) found.push(node);
    },
    VariableDeclarator(node) {
      if (nameOfNode(node.id) === name && isFunction(node.init)) found.push(node.init);
    },
    CallExpression(node) {
      const callee = nameOfNode(node.callee);
      if (!callee || !STEP_FUNCTIONS.has(callee)) return;
      // Cucumber's (pattern, fn) or (pattern, options, fn): recorded steps carry their timeout as options.
      const args = node.arguments as AnyNode[];
      const [pattern, fn] = [args[0], args.at(-1)];
      if (stepPatternOf(pattern)?.pattern === name && isFunction(fn)) found.push(fn);
    },
  });
  const fn = found[0];
  if (!fn) throw new StepFunctionError(`No step function "${name}" in the file`);
  return { fn, body: fn.body };
}

// ---- the recorder's blocks ----
// The recorder writes each step it generates between a `/** @recorder … */ // @step "<pattern>"`
// head and an `// @end` line, so recording it again replaces that block alone.

const BLOCK = /\/\*\* @recorder[^\n]*\*\/\n\/\/ @step (.+)\n[\s\S]*?\/\/ @end\n/g;

function patternOfMarker(marker: string): string | undefined {
  try {
    return JSON.parse(marker) as string;
  } catch {
    // A hand-edited marker line: leave that block out of the merge rather than guess.
    return undefined;
  }
}

/** The step blocks of a generated page file, keyed by their cucumber expression. */
export function parseStepFile(content: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of content.matchAll(BLOCK)) {
    const pattern = patternOfMarker(match[1]!);
    if (pattern !== undefined) blocks.set(pattern, match[0]);
  }
  return blocks;
}

/**
 * Writes `blocks` into a page's step file without touching anything else in it: a block recorded
 * again replaces its old text where it stands, a new one goes at the end, and every line the
 * recorder did not write (helpers, imports, hand-written steps, comments) stays byte for byte.
 */
export function spliceStepFile(existing: string | undefined, header: string, blocks: ReadonlyMap<string, string>): string {
  if (existing === undefined) return header + [...blocks.values()].join('\n');
  const pending = new Map(blocks);
  const kept = existing.replace(BLOCK, (whole, marker: string) => {
    const pattern = patternOfMarker(marker);
    const next = pattern === undefined ? undefined : pending.get(pattern);
    if (next === undefined) return whole;
    pending.delete(pattern!);
    return next;
  });
  if (pending.size === 0) return kept;
  return `${kept.replace(/\n*$/, '\n')}${kept.trim() === '' ? header : '\n'}${[...pending.values()].join('\n')}`;
}
