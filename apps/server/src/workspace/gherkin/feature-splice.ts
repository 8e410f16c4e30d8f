/**
 * Edits of a feature file that rewrite only the lines they are about. The workspace never re-prints a
 * whole file: line endings, comments, descriptions, tables, doc strings and the `# language:` header of
 * every other line come back byte for byte. Block boundaries are those of `feature-parser.ts`.
 *
 * Every edit re-parses its result and throws if the result is not valid Gherkin with the intended
 * change: that would be a bug here, and a broken file must never reach a commit.
 */
import { dialects } from '@cucumber/gherkin';
import {
  analyseFeature,
  gherkinError,
  type FeatureAnalysis,
  type GherkinError,
  type ParsedFeature,
  type ParsedScenario,
} from './feature-parser.js';
import { GherkinMessages } from '@rehearse/contract';
import { dedent, indentOf, isBlank, joinLines, replaceLines, type SourceLine } from './source-lines.js';

/** Why an edit was refused. */
export type EditProblem =
  'invalid-file' | 'no-feature' | 'no-such-scenario' | 'invalid-scenario-text' | 'invalid-name' | 'invalid-tags' | 'invalid-description';

export type EditResult =
  | { ok: true; text: string }
  | {
      ok: false;
      problem: EditProblem;
      /** One sentence for the user: the first error as "line N: reason", or the problem's message. */
      message: string;
      /**
       * Parser errors: lines of the file for 'invalid-file', lines of the client's text for
       * 'invalid-scenario-text' and 'invalid-description'; empty for the other problems.
       */
      errors: GherkinError[];
    };

export type ScenarioTextResult =
  | {
      ok: true;
      /** The text's lines without their endings, blank lines at both ends dropped. */
      lines: string[];
      /** The scenario as parsed inside a wrapper feature (its lines count from the text's first kept line). */
      scenario: ParsedScenario;
    }
  | { ok: false; errors: GherkinError[] };

/**
 * Checks scenario text a client sent: it must parse inside a feature of `language` and hold exactly
 * one scenario (Scenario, Example or Scenario Outline with its Examples), optionally with comments and
 * tags above it, and no Background, Rule or Feature. Error lines count from the text's first line.
 */
export function validateScenarioText(scenarioText: string, language = 'en'): ScenarioTextResult {
  const dialect = dialects[language];
  if (!dialect) throw new RangeError(`Unknown Gherkin language: ${language}`);
  // A lone CR ends a line here, unlike in files: in a client's text it is an old-Mac line break, and
  // kept inside a line it would put a line break the parser does not see into the file.
  const all = scenarioText.split(/\r\n|\r|\n/);
  const first = all.findIndex((text) => !isBlank(text));
  if (first < 0) return { ok: false, errors: [gherkinError(1, GherkinMessages.scenarioTextEmpty)] };
  let last = all.length - 1;
  while (isBlank(all[last]!)) last--;
  const lines = all.slice(first, last + 1);

  // The header fixes the dialect; its two lines are taken off every line number below.
  const header = [`# language: ${language}`, `${dialect.feature[0]}: scenario`];
  const offset = header.length - first;
  const analysis = analyseFeature([...header, ...lines].join('\n'));
  const relative = (line: number) => Math.max(1, line - offset);
  if (!analysis.ok) {
    const errors = analysis.errors.map((e) => {
      const line = relative(e.line);
      return { line, column: e.column, message: `(${line}:${e.column ?? 0}): ${e.reason}`, reason: e.reason };
    });
    return { ok: false, errors };
  }

  const feature = analysis.feature!;
  const problems: GherkinError[] = [];
  if (feature.background) problems.push(gherkinError(relative(feature.background.line), GherkinMessages.scenarioTextHasBackground));
  const rule = feature.rules[0];
  if (rule) problems.push(gherkinError(relative(rule.line), GherkinMessages.scenarioTextHasRule));
  if (feature.description !== '') {
    const stray = lines.findIndex((text) => !isBlank(text) && !text.trimStart().startsWith('#'));
    problems.push(gherkinError(first + stray + 1, GherkinMessages.scenarioTextBeforeKeyword));
  }
  // A text with no scenario and a stray line says the same thing twice; report the stray line only.
  const count = feature.scenarios.length;
  if (!rule && (count > 1 || (count === 0 && feature.description === ''))) {
    problems.push(gherkinError(relative(feature.scenarios[1]?.line ?? header.length + 1), GherkinMessages.scenarioTextNotOneScenario));
  }
  if (problems.length > 0) return { ok: false, errors: problems.sort((a, b) => a.line - b.line) };

  const scenario = feature.scenarios[0]!;
  const shift = (line: number) => line - header.length;
  return {
    ok: true,
    lines,
    scenario: {
      ...scenario,
      line: shift(scenario.line),
      range: { start: shift(scenario.range.start), end: shift(scenario.range.end) },
      steps: scenario.steps.map((step) => ({ ...step, line: shift(step.line) })),
      examples: scenario.examples.map((examples) => ({ ...examples, line: shift(examples.line) })),
      inheritedTags: { feature: [], rule: [] },
      effectiveTags: scenario.tags,
    },
  };
}

/**
 * Replaces scenario `scenarioIndex`'s block with `newScenarioText`, taken as written (indentation
 * included; blank lines around it dropped, line endings made the file's). Replacing a scenario with its
 * own `content` gives the file back unchanged.
 */
export function replaceScenario(text: string, scenarioIndex: number, newScenarioText: string): EditResult {
  const target = openScenario(text, scenarioIndex);
  if (!target.ok) return target;
  const { analysis, feature, scenario } = target;
  const incoming = validateScenarioText(newScenarioText, feature.language);
  if (!incoming.ok) return refused('invalid-scenario-text', incoming.errors);
  const lines = replaceLines(analysis.lines, scenario.range.start, scenario.range.end, incoming.lines, analysis.eol);
  return checked(
    lines,
    (after) => after.scenarios.length === feature.scenarios.length && after.scenarios[scenarioIndex]?.name === incoming.scenario.name,
  );
}

/**
 * Adds a scenario after the last block of the file, after one blank line. In a feature with Rules that
 * is the end of the last Rule (Gherkin has no place for a feature-level scenario after a Rule), so the
 * scenario inherits that Rule's tags and Background. The text is shifted to the indentation of the
 * container's last scenario (else its Background, else the Feature/Rule keyword plus two spaces) when
 * every line allows it; otherwise it is kept as written.
 */
export function appendScenario(text: string, scenarioText: string): EditResult {
  const analysis = analyseFeature(text);
  if (!analysis.ok) return refused('invalid-file', analysis.errors);
  const feature = analysis.feature;
  if (!feature) return refused('no-feature', [], GherkinMessages.noFeature);
  const incoming = validateScenarioText(scenarioText, feature.language);
  if (!incoming.ok) return refused('invalid-scenario-text', incoming.errors);

  const rule = feature.rules.at(-1) ?? null;
  const siblings = feature.scenarios.filter((s) => s.ruleIndex === (rule ? rule.index : null));
  const lineText = (line: number) => analysis.lines[line - 1]!.text;
  const background = rule ? rule.background : feature.background;
  const indent =
    siblings.length > 0
      ? indentOf(lineText(siblings.at(-1)!.line))
      : background
        ? indentOf(lineText(background.line))
        : indentOf(lineText(rule ? rule.line : feature.line)) + '  ';
  const from = indentOf(incoming.lines[incoming.scenario.line - 1]!);
  const block = shiftIndent(incoming.lines, from, indent) ?? incoming.lines;

  const anchor = analysis.lastBlockEnd;
  const lines = replaceLines(analysis.lines, anchor + 1, anchor, ['', ...block], analysis.eol);
  return checked(
    lines,
    (after) => after.scenarios.length === feature.scenarios.length + 1 && after.scenarios.at(-1)?.name === incoming.scenario.name,
  );
}

/**
 * Removes a scenario's block with the blank lines that separated it from what follows; when nothing
 * but blank lines follows, the blank lines before it go instead, so the file keeps its layout.
 */
export function removeScenario(text: string, scenarioIndex: number): EditResult {
  const target = openScenario(text, scenarioIndex);
  if (!target.ok) return target;
  const { analysis, feature, scenario } = target;
  const blank = (line: number) => isBlank(analysis.lines[line - 1]!.text);
  const count = analysis.lines.length;
  let { start: from, end: to } = scenario.range;
  let after = to;
  while (after < count && blank(after + 1)) after++;
  if (after < count) {
    to = after;
  } else {
    while (from > 1 && blank(from - 1)) from--;
  }
  const lines = replaceLines(analysis.lines, from, to, [], analysis.eol);
  return checked(lines, (after) => after.scenarios.length === feature.scenarios.length - 1);
}

/**
 * Renames a scenario by rewriting the name on its keyword line only; the keyword (localized or not),
 * the spacing around the name and the rest of the file stay. The name is trimmed, as the parser trims it.
 */
export function renameScenario(text: string, scenarioIndex: number, newName: string): EditResult {
  if (/[\r\n]/.test(newName)) return refused('invalid-name', [], GherkinMessages.nameNotOneLine);
  const target = openScenario(text, scenarioIndex);
  if (!target.ok) return target;
  const { analysis, scenario } = target;
  const name = newName.trim();
  const lines = rewriteLine(analysis.lines, scenario.line, (old) => retitle(old, scenario.keyword, name));
  return checked(lines, (after) => after.scenarios[scenarioIndex]?.name === name);
}

/**
 * Sets a scenario's own tags. Its first tag line is rewritten with the new tags (a comment at its end is
 * kept), its other tag lines are removed (their end comments stay as comment lines); comment and blank
 * lines between them stay. A scenario without tags gets a new tag line directly above its keyword, with
 * the keyword line's indentation. Tags may be given with or without `@`; duplicates are dropped.
 */
export function setScenarioTags(text: string, scenarioIndex: number, tags: readonly string[]): EditResult {
  const wanted: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().startsWith('@') ? raw.trim() : `@${raw.trim()}`;
    if (!/^@[^\s@]+$/u.test(tag)) return refused('invalid-tags', [], GherkinMessages.tagInvalid + raw);
    if (!wanted.includes(tag)) wanted.push(tag);
  }
  const target = openScenario(text, scenarioIndex);
  if (!target.ok) return target;
  const { analysis, scenario } = target;
  const tagLines = analysis.scenarioTagLines[scenarioIndex]!;
  const sameTags = (after: ParsedFeature) => {
    const now = after.scenarios[scenarioIndex]?.tags ?? [];
    return now.length === wanted.length && now.every((tag, i) => tag === wanted[i]);
  };

  if (tagLines.length === 0) {
    if (wanted.length === 0) return { ok: true, text };
    const indent = indentOf(analysis.lines[scenario.line - 1]!.text);
    return checked(replaceLines(analysis.lines, scenario.line, scenario.line - 1, [indent + wanted.join(' ')], analysis.eol), sameTags);
  }

  const lines: SourceLine[] = [];
  analysis.lines.forEach((line, i) => {
    const number = i + 1;
    if (!tagLines.includes(number)) {
      lines.push(line);
      return;
    }
    const indent = indentOf(line.text);
    // The parser ends a tag line's tags at the first '#' that follows whitespace.
    const commentAt = line.text.slice(indent.length).search(/\s#/);
    const comment = commentAt < 0 ? '' : line.text.slice(indent.length + commentAt);
    if (number === tagLines[0] && wanted.length > 0) lines.push({ text: indent + wanted.join(' ') + comment, eol: line.eol });
    else if (comment !== '') lines.push({ text: indent + comment.trimStart(), eol: line.eol });
  });
  return checked(lines, sameTags);
}

/** Renames the feature by rewriting the name on its `Feature:` line only (the localized keyword stays). */
export function renameFeature(text: string, newName: string): EditResult {
  if (/[\r\n]/.test(newName)) return refused('invalid-name', [], GherkinMessages.nameNotOneLine);
  const analysis = analyseFeature(text);
  if (!analysis.ok) return refused('invalid-file', analysis.errors);
  const feature = analysis.feature;
  if (!feature) return refused('no-feature', [], GherkinMessages.noFeature);
  const name = newName.trim();
  const lines = rewriteLine(analysis.lines, feature.line, (old) => retitle(old, feature.keyword, name));
  return checked(lines, (after) => after.name === name);
}

/**
 * Text of a new feature file in the canonical layout: `Feature: name`, the description indented by
 * two spaces, then each scenario after a blank line, shifted to two spaces (steps keep their
 * indentation relative to the keyword). English keywords, LF endings and a final newline.
 */
export function newFeatureText(name: string, description = '', scenarios: readonly string[] = []): EditResult {
  if (/[\r\n]/.test(name)) return refused('invalid-name', [], GherkinMessages.nameNotOneLine);
  const title = name.trim();
  const out = [title === '' ? 'Feature:' : `Feature: ${title}`];

  const descriptionLines = dedent(description.replace(/\r\n?/g, '\n'))
    .split('\n')
    .map((row) => row.trimEnd());
  while (descriptionLines.length > 0 && descriptionLines[0] === '') descriptionLines.shift();
  while (descriptionLines.length > 0 && descriptionLines.at(-1) === '') descriptionLines.pop();
  const descriptionStart = out.length + 1;
  out.push(...descriptionLines.map((row) => (row === '' ? '' : `  ${row}`)));

  const expectedNames: string[] = [];
  for (const scenarioText of scenarios) {
    const incoming = validateScenarioText(scenarioText, 'en');
    if (!incoming.ok) return refused('invalid-scenario-text', incoming.errors);
    const from = indentOf(incoming.lines[incoming.scenario.line - 1]!);
    out.push('', ...(shiftIndent(incoming.lines, from, '  ') ?? incoming.lines));
    expectedNames.push(incoming.scenario.name);
  }

  const text = out.join('\n') + '\n';
  const analysis = analyseFeature(text);
  const wantedDescription = descriptionLines.join('\n');
  if (!analysis.ok || analysis.feature?.description !== wantedDescription) {
    // Only the description can break the layout: everything else was checked on its own.
    const errors = analysis.ok
      ? []
      : analysis.errors.map((e) =>
          gherkinError(Math.min(Math.max(1, e.line - descriptionStart + 1), descriptionLines.length), e.reason, e.column),
        );
    return refused('invalid-description', errors, GherkinMessages.descriptionInvalid);
  }
  const names = analysis.feature.scenarios.map((s) => s.name);
  if (analysis.feature.name !== title || names.join('\n') !== expectedNames.join('\n')) {
    throw new Error('newFeatureText built a feature that does not read back as written');
  }
  return { ok: true, text };
}

type OpenedScenario = { ok: true; analysis: FeatureAnalysis; feature: ParsedFeature; scenario: ParsedScenario };

function openScenario(text: string, scenarioIndex: number): OpenedScenario | Extract<EditResult, { ok: false }> {
  const analysis = analyseFeature(text);
  if (!analysis.ok) return refused('invalid-file', analysis.errors);
  const feature = analysis.feature;
  if (!feature) return refused('no-feature', [], GherkinMessages.noFeature);
  const scenario = Number.isInteger(scenarioIndex) ? feature.scenarios[scenarioIndex] : undefined;
  if (!scenario) return refused('no-such-scenario', [], GherkinMessages.noSuchScenario);
  return { ok: true, analysis, feature, scenario };
}

function refused(problem: EditProblem, errors: GherkinError[], message?: string): Extract<EditResult, { ok: false }> {
  const first = errors[0];
  return { ok: false, problem, errors, message: message ?? (first ? `line ${first.line}: ${first.reason}` : problem) };
}

function checked(lines: readonly SourceLine[], intended: (feature: ParsedFeature) => boolean): EditResult {
  const text = joinLines(lines);
  const analysis = analyseFeature(text);
  if (!analysis.ok) throw new Error(`Gherkin edit produced an invalid file: ${analysis.errors.map((e) => e.message).join('; ')}`);
  if (!analysis.feature || !intended(analysis.feature)) throw new Error('Gherkin edit did not read back as intended');
  return { ok: true, text };
}

function rewriteLine(lines: readonly SourceLine[], line: number, rewrite: (text: string) => string): SourceLine[] {
  return lines.map((source, i) => (i === line - 1 ? { text: rewrite(source.text), eol: source.eol } : source));
}

/** Puts `name` after `keyword:` on a title line, keeping the indent and the spacing around the old name. */
function retitle(text: string, keyword: string, name: string): string {
  const prefix = indentOf(text) + keyword + ':';
  if (!text.startsWith(prefix)) throw new Error(`Line does not start with its keyword "${keyword}:"`);
  const rest = text.slice(prefix.length);
  if (name === '') return prefix;
  if (isBlank(rest)) return `${prefix} ${name}`;
  const before = indentOf(rest);
  const after = /\s*$/.exec(rest)![0];
  return prefix + before + name + after;
}

/**
 * Moves a block from indentation `from` to `to`. Returns null when a non-blank line does not start with
 * `from`: shifting it would change what it means (a doc string line or a description typed further left).
 */
function shiftIndent(lines: readonly string[], from: string, to: string): string[] | null {
  if (from === to) return [...lines];
  const shifted: string[] = [];
  for (const line of lines) {
    if (line.startsWith(from)) shifted.push(to + line.slice(from.length));
    else if (isBlank(line)) shifted.push(line);
    else return null;
  }
  return shifted;
}
