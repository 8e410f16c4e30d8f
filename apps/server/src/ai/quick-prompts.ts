import { applySourceEdits, findStepFunction, nameOfNode, parseStepModule, type FoundFunction, type SourceEdit } from '@rehearse/codegen';
import { QUICK_PROMPTS } from '@rehearse/contract';
import type { CallExpression, Node } from 'acorn';
import { ancestor, simple } from 'acorn-walk';

/**
 * The four quick step edits (spec 02 §9, DESIGN §8) as exact transforms of one step function.
 *
 * They splice the source by node ranges rather than re-printing the whole tree: the user's
 * formatting, comments and the rest of the file stay byte for byte as they were, so the review
 * diff shows only the edit. Each transform is idempotent: asking twice changes nothing more.
 */

export type QuickPrompt = (typeof QUICK_PROMPTS)[number];

/** Two minutes, the click timeout the fourth prompt sets. */
export const CLICK_TIMEOUT_MS = 120_000;
/** How many times "Retry step" runs the body in all before the step fails. */
export const RETRY_ATTEMPTS = 3;

/** A request is a quick prompt when it says the same words, whatever the case and punctuation. */
export function quickPromptOf(request: string): QuickPrompt | undefined {
  const norm = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const wanted = norm(request);
  return QUICK_PROMPTS.find((prompt) => norm(prompt) === wanted);
}

/** The indentation of the line `offset` is on. */
function indentAt(code: string, offset: number): string {
  const lineStart = code.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(code.slice(lineStart))![0];
}

/** The file's indentation unit, guessed from its first indented line (two spaces when none). */
function indentUnit(code: string): string {
  const match = /\n([ \t]+)\S/.exec(code);
  if (!match) return '  ';
  return match[1]!.startsWith('\t') ? '\t' : match[1]!.length >= 4 && match[1]!.length % 4 === 0 && !/\n {2}\S/.test(code) ? '    ' : '  ';
}

/** Re-indents a block's inner text one level deeper. */
function indentMore(text: string, unit: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? line : unit + line))
    .join('\n');
}

/**
 * Wraps the statements of the function's block in `wrap(inner, indent)`. An expression-bodied
 * arrow becomes a block first. Returns the edit for the body.
 */
function wrapBody(code: string, found: FoundFunction, wrap: (inner: string, indent: string, unit: string) => string): SourceEdit {
  const unit = indentUnit(code);
  const { body } = found;
  if (body.type !== 'BlockStatement') {
    const indent = indentAt(code, found.fn.start);
    const inner = `${indent}${unit}${unit}await ${code.slice(body.start, body.end)};`;
    return { start: body.start, end: body.end, text: `{\n${wrap(inner, indent + unit, unit)}\n${indent}}` };
  }
  const statements = body.body;
  const closingIndent = indentAt(code, body.end - 1);
  const first = statements[0];
  const last = statements.at(-1);
  const innerIndent = first ? indentAt(code, first.start) : closingIndent + unit;
  // Everything between the braces except the surrounding blank space, one level deeper.
  const innerStart = first ? code.lastIndexOf('\n', first.start) + 1 : body.start + 1;
  const innerEnd = last ? last.end : body.start + 1;
  const inner = indentMore(code.slice(innerStart, innerEnd), unit);
  return { start: body.start + 1, end: body.end - 1, text: `\n${wrap(inner, innerIndent, unit)}\n${closingIndent}` };
}

/** The statements of the function as they stand, to detect a wrapper already present. */
function onlyStatement(found: FoundFunction): Node | undefined {
  return found.body.type === 'BlockStatement' && found.body.body.length === 1 ? found.body.body[0] : undefined;
}

const CONTINUE_MARK = 'Continue if step fails';
const RETRY_MARK = 'Retry step';

function continueIfFails(code: string, found: FoundFunction): SourceEdit[] {
  const only = onlyStatement(found);
  if (only?.type === 'TryStatement' && code.slice(found.body.start, found.body.end).includes(CONTINUE_MARK)) return [];
  return [
    wrapBody(code, found, (inner, indent, unit) =>
      [
        `${indent}try {`,
        inner,
        `${indent}} catch (error) {`,
        `${indent}${unit}// ${CONTINUE_MARK}: the failure is logged and the scenario goes on.`,
        `${indent}${unit}console.warn('Step failed, continuing:', error instanceof Error ? error.message : error);`,
        `${indent}}`,
      ].join('\n'),
    ),
  ];
}

function retryStep(code: string, found: FoundFunction): SourceEdit[] {
  const only = onlyStatement(found);
  if (only?.type === 'ForStatement' && code.slice(found.body.start, found.body.end).includes(RETRY_MARK)) return [];
  return [
    wrapBody(code, found, (inner, indent, unit) =>
      [
        `${indent}// ${RETRY_MARK}: runs the step up to ${RETRY_ATTEMPTS} times before it fails.`,
        `${indent}for (let attempt = 1; ; attempt += 1) {`,
        `${indent}${unit}try {`,
        indentMore(inner, unit),
        `${indent}${unit}${unit}break;`,
        `${indent}${unit}} catch (error) {`,
        `${indent}${unit}${unit}if (attempt >= ${RETRY_ATTEMPTS}) throw error;`,
        `${indent}${unit}}`,
        `${indent}}`,
      ].join('\n'),
    ),
  ];
}

/** `context.web.click(...)`, `web.click(...)`, `this.web.click(...)`: a web command of that name. */
function webCommand(node: CallExpression, names: ReadonlySet<string>): string | undefined {
  const callee = node.callee;
  if (callee.type !== 'MemberExpression' || callee.computed) return undefined;
  const method = nameOfNode(callee.property);
  if (!method || !names.has(method)) return undefined;
  const object = callee.object;
  const objectName = object.type === 'MemberExpression' && !object.computed ? nameOfNode(object.property) : nameOfNode(object);
  return objectName === 'web' ? method : undefined;
}

const slice = (code: string, node: Node) => code.slice(node.start, node.end);

/** Sets `timeout` in the options (third) argument of every click of the function. */
function clickTimeout(code: string, found: FoundFunction): SourceEdit[] {
  const edits: SourceEdit[] = [];
  simple(found.body, {
    CallExpression(call) {
      if (!webCommand(call, new Set(['click']))) return;
      const args = call.arguments;
      const options = args[2];
      const last = args.at(-1);
      const value = String(CLICK_TIMEOUT_MS);
      if (!options || nameOfNode(options) === 'undefined') {
        if (options) edits.push({ start: options.start, end: options.end, text: `{ timeout: ${value} }` });
        // Fill the missing positions so the options land third: (ref, params, options, world).
        else if (last)
          edits.push({ start: last.end, end: last.end, text: `${args.length === 1 ? ', undefined' : ''}, { timeout: ${value} }` });
        return;
      }
      if (options.type === 'ObjectExpression') {
        const existing = options.properties.find(
          (p) =>
            p.type === 'Property' &&
            !p.computed &&
            (nameOfNode(p.key) ?? (p.key.type === 'Literal' ? p.key.value : undefined)) === 'timeout',
        );
        if (existing?.type === 'Property') {
          if (slice(code, existing.value) !== value) edits.push({ start: existing.value.start, end: existing.value.end, text: value });
        } else if (options.properties.length === 0) {
          edits.push({ start: options.start, end: options.end, text: `{ timeout: ${value} }` });
        } else {
          const lastProperty = options.properties.at(-1)!;
          edits.push({ start: lastProperty.end, end: lastProperty.end, text: `, timeout: ${value}` });
        }
        return;
      }
      // Options from a variable or a call: keep them and override the timeout.
      edits.push({ start: options.start, end: options.end, text: `{ ...${slice(code, options)}, timeout: ${value} }` });
    },
  });
  return edits;
}

/** Commands that act on an element (first argument), as opposed to checks, which must keep failing. */
const ELEMENT_ACTIONS = new Set(['click', 'fill', 'select', 'check', 'hover', 'press']);
const VALUE_FIRST = new Set(['fill', 'select', 'press']);

/**
 * Guards every element action of the function with `web.isFound`: the action runs only when its
 * element is on the page. Checks (`verify*`) are left alone: an assertion that cannot find its
 * element must still fail.
 */
function actOnlyIfFound(code: string, found: FoundFunction): SourceEdit[] {
  const edits: SourceEdit[] = [];
  ancestor(found.body, {
    CallExpression(call, _state, ancestors) {
      if (!webCommand(call, ELEMENT_ACTIONS) || call.callee.type !== 'MemberExpression') return;
      const args = call.arguments;
      const ref = args[0];
      if (!ref || (ref.type === 'Literal' && ref.value === null)) return; // a page-level key press has no element
      const chain = [...ancestors].reverse();
      const method = nameOfNode(call.callee.property)!;
      // fill, select and press take a value second: (ref, value, params, options, world).
      const [paramsAt, worldAt] = VALUE_FIRST.has(method) ? [2, 4] : [1, 3];
      const paramsNode = args[paramsAt];
      const worldNode = args[worldAt];
      const webObject = slice(code, call.callee.object);
      const params = paramsNode ? slice(code, paramsNode) : 'undefined';
      const world = worldNode ? `, ${slice(code, worldNode)}` : '';
      const test = `await ${webObject}.isFound(${slice(code, ref)}, ${params}, undefined${world})`;
      const statementIndex = chain.findIndex((n) => n.type === 'ExpressionStatement');
      const statement = chain[statementIndex];
      if (statementIndex === -1 || !statement) {
        // `async () => web.click(...)`: the call is the arrow's whole body.
        if (found.body !== call || chain[1]?.type === 'ConditionalExpression') return;
        edits.push({ start: call.start, end: call.end, text: `(${test}) ? ${slice(code, call)} : undefined` });
        return;
      }
      const parent = chain[statementIndex + 1];
      // Already guarded: `if (await x.web.isFound(...)) statement`.
      if (parent?.type === 'IfStatement' && slice(code, parent.test).includes('.isFound(')) return;
      edits.push({ start: statement.start, end: statement.start, text: `if (${test}) ` });
    },
  });
  return edits;
}

const TRANSFORMS: Record<QuickPrompt, (code: string, found: FoundFunction) => SourceEdit[]> = {
  'Continue if step fails': continueIfFails,
  'Perform action only if element found': actOnlyIfFound,
  'Retry step': retryStep,
  'Set click timeout to 2 minutes': clickTimeout,
};

/** Applies a quick prompt to the function `functionName` of `code`; the rest of the file is untouched. */
export function applyQuickPrompt(code: string, functionName: string, prompt: QuickPrompt): string {
  const found = findStepFunction(code, functionName);
  const result = applySourceEdits(code, TRANSFORMS[prompt](code, found));
  // A transform must leave a module that still parses; anything else is a bug, not a result.
  parseStepModule(result);
  return result;
}
