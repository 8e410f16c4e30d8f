// The Gherkin conformance corpus (spec's /work/shared/corpus): every valid file must list and
// round-trip, every invalid one must be refused with the parser's own errors.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AstBuilder, compile, dialects, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { describe, expect, it } from 'vitest';
import { parseFeature, type ParsedFeature } from './feature-parser.js';
import { appendScenario, removeScenario, renameScenario, replaceScenario, setScenarioTags } from './feature-splice.js';
import { splitLines } from './source-lines.js';

const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus/gherkin/', import.meta.url));
if (!existsSync(`${CORPUS}good`) || !existsSync(`${CORPUS}bad`)) {
  throw new Error(`Gherkin corpus not found at ${CORPUS} (expected good/ and bad/ folders)`);
}

const goodFiles = readdirSync(`${CORPUS}good`)
  .filter((f) => f.endsWith('.feature'))
  .sort();
const badFiles = readdirSync(`${CORPUS}bad`)
  .filter((f) => f.endsWith('.feature'))
  .sort();
const read = (path: string) => readFileSync(`${CORPUS}${path}`, 'utf8');

function cucumber(text: string) {
  let id = 0;
  const newId = () => String(id++);
  const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
  parser.stopAtFirstError = false;
  const document = parser.parse(text);
  return { document, pickles: compile(document, 'corpus.feature', newId) };
}

function parsed(text: string): ParsedFeature | null {
  const result = parseFeature(text);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.feature;
}

function edited(result: ReturnType<typeof replaceScenario>): string {
  if (!result.ok) throw new Error(`${result.problem}: ${result.message}`);
  return result.text;
}

/** Asserts `after` equals `before` outside before's lines start..end (1-based), endings included. */
function expectOnlyRangeChanged(before: string, after: string, start: number, end: number) {
  const a = splitLines(before);
  const b = splitLines(after);
  const tailLength = a.length - end;
  expect(b.slice(0, start - 1)).toEqual(a.slice(0, start - 1));
  expect(b.slice(b.length - tailLength)).toEqual(a.slice(end));
  expect(b.length).toBeGreaterThanOrEqual(start - 1 + tailLength);
}

/**
 * Asserts `after` is `before` with one run of lines removed, which covers lines start..end (1-based) and
 * is otherwise blank. Endings stay, but for the new last line when the run reached the end of the file.
 */
function expectOnlyRangeRemoved(before: string, after: string, start: number, end: number) {
  const a = splitLines(before);
  const b = splitLines(after);
  const removed = a.length - b.length;
  let from = 0;
  while (from < b.length && b[from]!.text === a[from]!.text && b[from]!.eol === a[from]!.eol) from++;
  if (from === b.length - 1 && from + removed === a.length - 1) from++;
  expect(b.map((l) => l.text)).toEqual([...a.slice(0, from), ...a.slice(from + removed)].map((l) => l.text));
  expect(from).toBeLessThanOrEqual(start - 1);
  expect(from + removed).toBeGreaterThanOrEqual(end);
  const outside = [...a.slice(from, start - 1), ...a.slice(end, from + removed)];
  expect(outside.every((l) => l.text.trim() === '')).toBe(true);
  expect(b.slice(0, -1).map((l) => l.eol)).toEqual([...a.slice(0, from), ...a.slice(from + removed)].slice(0, -1).map((l) => l.eol));
  expect(after.endsWith('\n')).toBe(before.endsWith('\n') || b.length === 0);
}

/** A one-step scenario in the file's language, as a client would send it. */
function scenarioIn(language: string, name: string): string {
  const dialect = dialects[language]!;
  const given = dialect.given.find((k) => k !== '* ') ?? '* ';
  return `${dialect.scenario[0]}: ${name}\n  ${given}a step of ${name}`;
}

const toCrlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
const validGood = goodFiles;

describe('gherkin corpus', () => {
  it('has the conformance files', () => {
    expect(goodFiles.length).toBeGreaterThanOrEqual(40);
    expect(badFiles.length).toBeGreaterThanOrEqual(10);
    expect(badFiles.every((f) => existsSync(`${CORPUS}bad/${f}.errors.ndjson`))).toBe(true);
  });

  describe.each(validGood)('good/%s', (file) => {
    const lf = read(`good/${file}`);

    it('lists the scenarios @cucumber/gherkin finds, with their types and inherited tags', () => {
      const feature = parsed(lf);
      const { document, pickles } = cucumber(lf);
      const astScenarios = (document.feature?.children ?? []).flatMap((child) =>
        child.rule ? child.rule.children.flatMap((c) => (c.scenario ? [c.scenario] : [])) : child.scenario ? [child.scenario] : [],
      );
      const scenarios = feature?.scenarios ?? [];
      expect(scenarios.map((s) => [s.keyword, s.name, s.tags])).toEqual(
        astScenarios.map((s) => [s.keyword, s.name, s.tags.map((t) => t.name)]),
      );
      expect(scenarios.map((s) => s.line)).toEqual(astScenarios.map((s) => s.location.line));

      const indexById = new Map(astScenarios.map((s, i) => [s.id, i]));
      const picklesPerScenario = scenarios.map(() => 0);
      for (const pickle of pickles) {
        const scenario = scenarios[indexById.get(pickle.astNodeIds[0]!)!]!;
        picklesPerScenario[scenario.index]!++;
        const rowId = pickle.astNodeIds[1];
        expect(scenario.type).toBe(rowId === undefined ? 'Scenario' : 'Scenario Outline');
        const ast = astScenarios[scenario.index]!;
        const examples = ast.examples.findIndex((e) => e.tableBody.some((row) => row.id === rowId));
        const rowTags = examples >= 0 ? scenario.examples[examples]!.tags : [];
        expect(pickle.tags.map((t) => t.name)).toEqual([...scenario.effectiveTags, ...rowTags]);
        if (rowId === undefined) expect(pickle.name).toBe(scenario.name);
        // Cucumber adds Background steps only to scenarios that have steps of their own.
        const backgroundSteps =
          (feature?.background?.steps.length ?? 0) +
          (scenario.ruleIndex === null ? 0 : (feature?.rules[scenario.ruleIndex]?.background?.steps.length ?? 0));
        expect(pickle.steps).toHaveLength(scenario.steps.length === 0 ? 0 : backgroundSteps + scenario.steps.length);
      }
      expect(picklesPerScenario).toEqual(
        scenarios.map((s) => (s.type === 'Scenario' ? 1 : s.examples.reduce((sum, e) => sum + e.rowCount, 0))),
      );
    });

    describe.each([
      ['LF', lf],
      ['CRLF', toCrlf(lf)],
    ])('with %s endings', (_eol, text) => {
      const scenarios = parsed(text)?.scenarios ?? [];

      it('gives the file back unchanged when each scenario is replaced with its own content', () => {
        for (const scenario of scenarios) {
          expect(edited(replaceScenario(text, scenario.index, scenario.content))).toBe(text);
        }
        const lines = splitLines(text);
        for (const scenario of scenarios) {
          const block = lines.slice(scenario.range.start - 1, scenario.range.end);
          expect(scenario.content).toBe(block.map((l, i) => l.text + (i < block.length - 1 ? l.eol : '')).join(''));
        }
      });

      it.runIf(scenarios.length > 0)('changes only the first scenario block when it is edited', () => {
        const first = scenarios[0]!;
        const { start, end } = first.range;

        const renamed = edited(renameScenario(text, 0, 'Renamed by the test'));
        expectOnlyRangeChanged(text, renamed, start, end);
        const before = splitLines(text);
        const after = splitLines(renamed);
        expect(after).toHaveLength(before.length);
        expect(after.filter((line, i) => line.text !== before[i]!.text || line.eol !== before[i]!.eol).map((l) => l.text.trim())).toEqual([
          `${first.keyword}: Renamed by the test`,
        ]);
        expect(parsed(renamed)!.scenarios[0]!.name).toBe('Renamed by the test');

        const tagged = edited(setScenarioTags(text, 0, ['@edited']));
        expectOnlyRangeChanged(text, tagged, start, end);
        expect(parsed(tagged)!.scenarios[0]!.tags).toEqual(['@edited']);

        const replaced = edited(replaceScenario(text, 0, scenarioIn(parsed(text)!.language, 'replaced')));
        expectOnlyRangeChanged(text, replaced, start, end);
        expect(parsed(replaced)!.scenarios.map((s) => s.name)).toEqual(['replaced', ...scenarios.slice(1).map((s) => s.name)]);
        if (text.includes('\r\n')) expect(replaced).not.toMatch(/[^\r]\n/);
      });

      it.runIf(scenarios.length > 0)('removes the first scenario and nothing else', () => {
        const removed = edited(removeScenario(text, 0));
        expect(parsed(removed)?.scenarios.map((s) => s.name)).toEqual(scenarios.slice(1).map((s) => s.name));
        expectOnlyRangeRemoved(text, removed, scenarios[0]!.range.start, scenarios[0]!.range.end);
      });

      it.runIf(parsed(text) !== null)('appends a scenario after the last block and keeps every existing line', () => {
        const feature = parsed(text)!;
        const appended = edited(appendScenario(text, scenarioIn(feature.language, 'appended')));
        const after = parsed(appended)!;
        expect(after.scenarios.map((s) => s.name)).toEqual([...feature.scenarios.map((s) => s.name), 'appended']);
        expect(after.scenarios.at(-1)!.ruleIndex).toBe(feature.rules.length > 0 ? feature.rules.length - 1 : null);
        const before = splitLines(text);
        const lines = splitLines(appended);
        const added = lines.length - before.length;
        expect(added).toBe(3);
        const last = after.scenarios.at(-1)!;
        // Everything before the new block is unchanged (except the ending of a last line that had none).
        expect(lines.slice(0, last.range.start - 2).map((l) => l.text)).toEqual(before.slice(0, last.range.start - 2).map((l) => l.text));
        expect(lines.slice(last.range.end)).toEqual(before.slice(last.range.start - 2));
        expect(appended.endsWith('\n')).toBe(text.endsWith('\n'));
      });
    });
  });

  describe.each(badFiles)('bad/%s', (file) => {
    it('is refused with exactly the errors of its .errors.ndjson', () => {
      const expected = read(`bad/${file}.errors.ndjson`)
        .split('\n')
        .filter((row) => row.trim() !== '')
        .map((row) => {
          const { parseError } = JSON.parse(row) as {
            parseError: { message: string; source: { location: { line: number; column?: number } } };
          };
          return { line: parseError.source.location.line, column: parseError.source.location.column, message: parseError.message };
        });
      const result = parseFeature(read(`bad/${file}`));
      expect(result.ok).toBe(false);
      const errors = result.ok ? [] : result.errors;
      expect(errors.map(({ line, column, message }) => ({ line, column, message }))).toEqual(expected);
      for (const error of errors) expect(error.message).toBe(`(${error.line}:${error.column ?? 0}): ${error.reason}`);
    });
  });
});
