/**
 * Reads a `.feature` text with @cucumber/gherkin into what the workspace lists and edits: the feature,
 * its Background and Rules, and every scenario with its exact source block.
 *
 * Scenario blocks (what `content` holds and what the splice operations replace or remove):
 * - A block starts at the comment lines directly above the scenario (no blank line between), else at
 *   its first tag line, else at its keyword line.
 * - It ends at the last line the parser gives the scenario (step, doc string delimiter, table row,
 *   Examples, description), followed by the comment lines directly below that line (commented-out
 *   steps), unless those comments run without a blank line into the next block: then they sit
 *   "directly above" the next scenario or Rule and belong to it.
 * - Blank lines between blocks, and comments with blank lines on both sides, belong to no block: an
 *   edit of either neighbour leaves them where they are.
 * The same rule cuts the Feature header, Backgrounds and Rule headers, so every line of a file is in
 * at most one block.
 */
import { AstBuilder, Errors, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { dedent, dominantEol, isBlank, splitLines, type SourceLine } from './source-lines.js';

type GherkinDocument = ReturnType<Parser<unknown>['parse']>;
type AstFeature = NonNullable<GherkinDocument['feature']>;
type AstChild = AstFeature['children'][number];
type AstRule = NonNullable<AstChild['rule']>;
type AstScenario = NonNullable<AstChild['scenario']>;
type AstBackground = NonNullable<AstChild['background']>;
type AstStep = AstScenario['steps'][number];
type AstTag = AstScenario['tags'][number];

/** A 1-based, inclusive range of lines. */
export interface LineRange {
  start: number;
  end: number;
}

/** A parser error as @cucumber/gherkin reports it. */
export interface GherkinError {
  line: number;
  /** Absent when the parser gives none (errors at the end of the file). */
  column?: number;
  /** Exactly the parser's message, including its `(line:column): ` prefix. */
  message: string;
  /** The message without that prefix, for "line N: reason". */
  reason: string;
}

/** How Gherkin classifies a step keyword (Given = Context, When = Action, Then = Outcome, And/But = Conjunction, `*` = Unknown). */
export type StepKeywordType = 'Context' | 'Action' | 'Outcome' | 'Conjunction' | 'Unknown';

export interface ParsedStep {
  /** The keyword as written, trimmed: 'Given', 'Soit', 'Etant donné qu'', '*'. */
  keyword: string;
  keywordType: StepKeywordType;
  /** The type a runner gives the step: a conjunction takes the type of the step before it within the same list (Unknown at the start). */
  effectiveType: Exclude<StepKeywordType, 'Conjunction'>;
  text: string;
  line: number;
  /** The 1-based column where the step's text begins, after the keyword of whatever dialect (`Given `, `Soit `, `假如`). */
  textColumn: number;
  hasDocString: boolean;
  hasDataTable: boolean;
}

export interface ParsedBackground {
  keyword: string;
  name: string;
  line: number;
  range: LineRange;
  steps: ParsedStep[];
}

export interface ParsedExamples {
  keyword: string;
  name: string;
  /** With `@`; they apply only to this table's rows. */
  tags: string[];
  line: number;
  /** Rows under the header row. */
  rowCount: number;
}

export interface ParsedRule {
  index: number;
  keyword: string;
  name: string;
  tags: string[];
  line: number;
  background: ParsedBackground | null;
}

/**
 * 'Scenario Outline' when the scenario has at least one Examples section, whatever keyword it uses:
 * that is when cucumber runs it once per example row. So `Scenario:` with Examples is an outline, and
 * `Scenario Outline:` without Examples runs as a plain scenario.
 */
export type ScenarioType = 'Scenario' | 'Scenario Outline';

export interface ParsedScenario {
  /** Position among all scenarios of the file, Rules included, in file order (the spec's scenarioIndex). */
  index: number;
  type: ScenarioType;
  /** As written: 'Scenario', 'Example', 'Scenario Outline', 'Scénario', ... */
  keyword: string;
  name: string;
  description: string;
  /** The scenario's own tags, with `@`. */
  tags: string[];
  /** Tags the scenario inherits: the feature's, then its Rule's. */
  inheritedTags: { feature: string[]; rule: string[] };
  /** Feature, rule and own tags, each once, in that order: what applies to every run of the scenario. */
  effectiveTags: string[];
  /** Index into `ParsedFeature.rules`, or null for a scenario directly under the feature. */
  ruleIndex: number | null;
  /** The keyword line. */
  line: number;
  /** The block; see the module comment. */
  range: LineRange;
  /** The block's lines exactly as in the file, with their line endings, without the last line's ending. */
  content: string;
  steps: ParsedStep[];
  examples: ParsedExamples[];
}

export interface ParsedFeature {
  keyword: string;
  name: string;
  /** The description with its common indentation removed. */
  description: string;
  /** The dialect: 'en' unless a `# language:` header says otherwise. */
  language: string;
  tags: string[];
  line: number;
  background: ParsedBackground | null;
  rules: ParsedRule[];
  scenarios: ParsedScenario[];
}

export type ParseResult =
  | {
      ok: true;
      /** Null for a file without a Feature (empty, or only comments): valid Gherkin with no scenarios. */
      feature: ParsedFeature | null;
      /** The line ending new lines get in this file. */
      eol: '\n' | '\r\n';
    }
  | { ok: false; errors: GherkinError[] };

/**
 * Parses a feature file. On failure returns every error the parser collects (it stops after 11), in
 * its order (a table's cell-count error comes when the table ends, after later lines' errors), with the
 * parser's own line, column and message, so the caller can refuse the file with "line N: reason".
 */
export function parseFeature(text: string): ParseResult {
  const analysis = analyseFeature(text);
  if (!analysis.ok) return analysis;
  return { ok: true, feature: analysis.feature, eol: analysis.eol };
}

/** "line N: reason", the way a refused file is reported. */
export function formatGherkinError(error: GherkinError): string {
  return `line ${error.line}: ${error.reason}`;
}

/** Builds an error in the parser's shape for problems found outside the parser. */
export function gherkinError(line: number, reason: string, column?: number): GherkinError {
  return { line, column, message: `(${line}:${column ?? 0}): ${reason}`, reason };
}

const LOCATION_PREFIX = /^\(\d+:\d+\): /;

function toGherkinError(error: unknown): GherkinError | null {
  if (!(error instanceof Errors.GherkinException)) return null;
  return {
    line: error.location.line,
    column: error.location.column,
    message: error.message,
    reason: error.message.replace(LOCATION_PREFIX, ''),
  };
}

type ParserRun = { ok: true; document: GherkinDocument } | { ok: false; errors: GherkinError[] };

function runParser(text: string): ParserRun {
  let nextId = 0;
  const parser = new Parser(new AstBuilder(() => String(nextId++)), new GherkinClassicTokenMatcher());
  parser.stopAtFirstError = false;
  try {
    return { ok: true, document: parser.parse(text) };
  } catch (error) {
    // With stopAtFirstError off the parser throws one composite error; anything else is a bug to surface.
    const causes = error instanceof Errors.CompositeParserException ? error.errors : [error];
    const errors = causes.map(toGherkinError);
    if (errors.some((e) => e === null)) throw error;
    return { ok: false, errors: errors as GherkinError[] };
  }
}

/** What the splice operations need beyond the public summary. Internal to this folder. */
export interface FeatureAnalysis {
  ok: true;
  lines: SourceLine[];
  eol: '\n' | '\r\n';
  feature: ParsedFeature | null;
  /** Per scenario index: the lines holding its tags, in order. */
  scenarioTagLines: number[][];
  /** Last line of the last block in the file (0 when there is no Feature). Appended scenarios go after it. */
  lastBlockEnd: number;
}

interface LayoutNode {
  head: number;
  keywordLine: number;
  range: LineRange;
}

/** Parses and lays out a feature file; `parseFeature` is the public face of this. */
export function analyseFeature(text: string): FeatureAnalysis | { ok: false; errors: GherkinError[] } {
  const run = runParser(text);
  if (!run.ok) return run;
  const lines = splitLines(text);
  const eol = dominantEol(lines);
  const feature = run.document.feature;
  if (!feature) {
    return { ok: true, lines, eol, feature: null, scenarioTagLines: [], lastBlockEnd: 0 };
  }

  const commentLines = new Set(run.document.comments.map((c) => c.location.line));
  const nodes: LayoutNode[] = [];
  const node = (tags: readonly AstTag[], keywordLine: number): LayoutNode => {
    const created = { head: Math.min(keywordLine, ...tags.map((t) => t.location.line)), keywordLine, range: { start: 0, end: 0 } };
    nodes.push(created);
    return created;
  };

  node(feature.tags, feature.location.line);
  const featureTags = tagNames(feature.tags);
  const rules: ParsedRule[] = [];
  const pending: { ast: AstScenario; layout: LayoutNode; rule: AstRule | null; ruleIndex: number | null }[] = [];
  const backgrounds: { ast: AstBackground; layout: LayoutNode; ruleIndex: number | null }[] = [];

  for (const child of feature.children) {
    if (child.background) backgrounds.push({ ast: child.background, layout: node([], child.background.location.line), ruleIndex: null });
    if (child.scenario)
      pending.push({ ast: child.scenario, layout: node(child.scenario.tags, child.scenario.location.line), rule: null, ruleIndex: null });
    if (child.rule) {
      const rule = child.rule;
      const ruleIndex = rules.length;
      node(rule.tags, rule.location.line);
      rules.push({
        index: ruleIndex,
        keyword: rule.keyword,
        name: rule.name,
        tags: tagNames(rule.tags),
        line: rule.location.line,
        background: null,
      });
      for (const ruleChild of rule.children) {
        if (ruleChild.background)
          backgrounds.push({ ast: ruleChild.background, layout: node([], ruleChild.background.location.line), ruleIndex });
        if (ruleChild.scenario)
          pending.push({
            ast: ruleChild.scenario,
            layout: node(ruleChild.scenario.tags, ruleChild.scenario.location.line),
            rule,
            ruleIndex,
          });
      }
    }
  }

  layOut(nodes, lines, commentLines);

  let featureBackground: ParsedBackground | null = null;
  for (const { ast, layout, ruleIndex } of backgrounds) {
    const parsed: ParsedBackground = {
      keyword: ast.keyword,
      name: ast.name,
      line: ast.location.line,
      range: layout.range,
      steps: toSteps(ast.steps),
    };
    if (ruleIndex === null) featureBackground = parsed;
    else rules[ruleIndex]!.background = parsed;
  }

  const scenarios = pending.map(({ ast, layout, rule, ruleIndex }, index): ParsedScenario => {
    const tags = tagNames(ast.tags);
    const ruleTags = rule ? tagNames(rule.tags) : [];
    return {
      index,
      type: ast.examples.length > 0 ? 'Scenario Outline' : 'Scenario',
      keyword: ast.keyword,
      name: ast.name,
      description: dedent(ast.description),
      tags,
      inheritedTags: { feature: featureTags, rule: ruleTags },
      effectiveTags: [...new Set([...featureTags, ...ruleTags, ...tags])],
      ruleIndex,
      line: ast.location.line,
      range: layout.range,
      content: blockText(lines, layout.range),
      steps: toSteps(ast.steps),
      examples: ast.examples.map((examples) => ({
        keyword: examples.keyword,
        name: examples.name,
        tags: tagNames(examples.tags),
        line: examples.location.line,
        rowCount: examples.tableBody.length,
      })),
    };
  });

  return {
    ok: true,
    lines,
    eol,
    feature: {
      keyword: feature.keyword,
      name: feature.name,
      description: dedent(feature.description),
      language: feature.language,
      tags: featureTags,
      line: feature.location.line,
      background: featureBackground,
      rules,
      scenarios,
    },
    scenarioTagLines: pending.map(({ ast }) => [...new Set(ast.tags.map((t) => t.location.line))].sort((a, b) => a - b)),
    lastBlockEnd: nodes.at(-1)!.range.end,
  };
}

/** Gives each node its block, following the rules in the module comment. Nodes are in file order. */
function layOut(nodes: readonly LayoutNode[], lines: readonly SourceLine[], commentLines: ReadonlySet<number>): void {
  const skippable = (line: number) => commentLines.has(line) || isBlank(lines[line - 1]?.text ?? '');
  const contentEnds = nodes.map((node, i) => {
    let end = i + 1 < nodes.length ? nodes[i + 1]!.head - 1 : lines.length;
    while (end > node.keywordLine && skippable(end)) end--;
    return end;
  });
  const starts = nodes.map((node, i) => {
    let start = node.head;
    if (i === 0) return start;
    while (start - 1 > contentEnds[i - 1]! && commentLines.has(start - 1)) start--;
    return start;
  });
  nodes.forEach((node, i) => {
    const limit = i + 1 < nodes.length ? starts[i + 1]! - 1 : lines.length;
    let end = contentEnds[i]!;
    while (end + 1 <= limit && commentLines.has(end + 1)) end++;
    node.range.start = starts[i]!;
    node.range.end = end;
  });
}

/** The lines of a range with their own endings, minus the last one's. */
function blockText(lines: readonly SourceLine[], range: LineRange): string {
  let text = '';
  for (let line = range.start; line <= range.end; line++) {
    const source = lines[line - 1]!;
    text += line < range.end ? source.text + source.eol : source.text;
  }
  return text;
}

function tagNames(tags: readonly AstTag[]): string[] {
  return tags.map((t) => t.name);
}

const KEYWORD_TYPES: ReadonlySet<string> = new Set<StepKeywordType>(['Context', 'Action', 'Outcome', 'Conjunction', 'Unknown']);

function toSteps(steps: readonly AstStep[]): ParsedStep[] {
  let previous: ParsedStep['effectiveType'] = 'Unknown';
  return steps.map((step) => {
    const raw: string = step.keywordType ?? 'Unknown';
    const keywordType = (KEYWORD_TYPES.has(raw) ? raw : 'Unknown') as StepKeywordType;
    if (keywordType !== 'Conjunction') previous = keywordType;
    return {
      keyword: step.keyword.trim(),
      keywordType,
      effectiveType: previous,
      text: step.text,
      line: step.location.line,
      textColumn: (step.location.column ?? 1) + step.keyword.length,
      hasDocString: step.docString !== undefined,
      hasDataTable: step.dataTable !== undefined,
    };
  });
}
