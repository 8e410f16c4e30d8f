import {
  CucumberExpression,
  ParameterType,
  ParameterTypeRegistry,
  RegularExpression,
  type Expression,
} from '@cucumber/cucumber-expressions';
import { parse, type Comment, type Node } from 'acorn';
import { ancestor } from 'acorn-walk';
import { STEP_PARAMETER_TYPES } from '@rehearse/contract';

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

const STEP_FUNCTIONS = new Set(['Given', 'When', 'Then', 'defineStep']);

interface CallNode extends Node {
  callee: Node & { name?: string };
  arguments: (Node & { value?: unknown; regex?: { pattern: string; flags: string }; expressions?: unknown[]; quasis?: { value: { cooked: string } }[] })[];
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
  const comments: Comment[] = [];
  let program: Node;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true, onComment: comments, allowHashBang: true });
  } catch (error) {
    return { definitions: [], error: (error as Error).message };
  }
  const definitions: StepDefinition[] = [];
  ancestor(program, {
    CallExpression(node, _state, ancestors) {
      const call = node as unknown as CallNode;
      const name = call.callee.type === 'Identifier' ? call.callee.name : undefined;
      if (!name || !STEP_FUNCTIONS.has(name)) return;
      const first = call.arguments[0];
      if (!first) return;
      let pattern: string | undefined;
      let isRegex = false;
      if (first.type === 'Literal' && first.regex) {
        pattern = first.regex.pattern;
        isRegex = true;
      } else if (first.type === 'Literal' && typeof first.value === 'string') {
        pattern = first.value;
      } else if (first.type === 'TemplateLiteral' && first.expressions?.length === 0) {
        pattern = first.quasis?.[0]?.value.cooked;
      }
      if (pattern === undefined) return;
      const statement = [...ancestors].reverse().find((n) => n.type === 'ExpressionStatement') ?? node;
      const doc = comments.filter((c) => c.end <= statement.start && code.slice(c.end, statement.start).trim() === '').at(-1);
      definitions.push({
        uri,
        keyword: name,
        pattern,
        isRegex,
        line: node.loc?.start.line ?? 0,
        start: doc && code.slice(doc.end, statement.start).split('\n').length <= 2 ? doc.start : statement.start,
        end: statement.end,
        ...stampsOf(doc ? code.slice(doc.start, doc.end) : undefined),
      });
    },
  });
  return { definitions, error: null };
}

/** Removes definitions from a module's source, with their doc comments and the line they stood on. */
export function removeDefinitions(code: string, definitions: readonly StepDefinition[]): string {
  let result = code;
  for (const definition of [...definitions].sort((a, b) => b.start - a.start)) {
    const lineStart = result.lastIndexOf('\n', definition.start - 1) + 1;
    const before = result.slice(lineStart, definition.start).trim() === '' ? lineStart : definition.start;
    let after = definition.end;
    while (after < result.length && (result[after] === ' ' || result[after] === '\t' || result[after] === ';')) after += 1;
    if (result[after] === '\r') after += 1;
    if (result[after] === '\n') after += 1;
    result = result.slice(0, before) + result.slice(after);
  }
  return result.replace(/\n{3,}/g, '\n\n');
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
    for (const type of STEP_PARAMETER_TYPES) registry.defineParameterType(new ParameterType(type.name, type.regexp, null, (...groups: unknown[]) => groups, false, false));
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
