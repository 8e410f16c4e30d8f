import { BUILT_IN_STEP_PATTERNS, builtInStepRegExp } from '@rehearse/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from './plain-english.corpus.js';
import { splitClauses } from './plain-english.js';
import { CORPUS_TARGETS, corpusSummary, runCorpusMutants, runCorpusTarget, translatedCorpus, type Outcome } from './testing/corpus-run.js';

/**
 * Issue 44's measure (testing/corpus-run.ts): every flow of the corpus, written the way people
 * write them, translated offline and run in Chromium on its app; each passing TodoMVC flow also on
 * the bug it should catch. bench/plain-english.ts prints the same rates with timings.
 */

const ALL = BUILT_IN_STEP_PATTERNS.map(builtInStepRegExp);
const results = new Map<string, Outcome>();
const MAP_ONLY = ['start at the todo page and tick one', 'tick and untick by name', 'type into the todo box', 'fill the todo input'];
const mutants: string[] = [];

afterAll(() => {
  console.log(['Plain-English corpus, offline:', ...corpusSummary(results), ...mutants].join('\n'));
});

describe('the plain-English corpus (issue 44)', () => {
  it('holds at least 60 flows, each with a name, target, lines and meaning', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CORPUS.map((flow) => flow.name)).size).toBe(CORPUS.length);
    for (const flow of CORPUS) expect(flow.lines.length > 0 && flow.means !== '').toBe(true);
  });

  it('writes only built-in steps, and reports every clause it cannot read (none dropped)', () => {
    for (const { flow, steps, unmatched } of translatedCorpus()) {
      expect(steps.filter((step) => !ALL.some((re) => re.test(step.text))).map((step) => step.text)).toEqual([]);
      const clauses = flow.lines.flatMap((line) => splitClauses(line));
      for (const clause of unmatched) expect(clauses).toContain(clause);
    }
  });

  for (const target of CORPUS_TARGETS) {
    it(`runs every translated ${target} flow on the app as written, and it passes`, async () => {
      const mine = await runCorpusTarget(target);
      for (const [name, outcome] of mine) results.set(name, outcome);
      expect([...mine].filter(([, outcome]) => outcome.outcome === 'wrong').map(([name]) => name)).toEqual([]);
      // The flows whose nouns only the app's map resolves pass because it did (their words alone name a todo.html, a checkbox "p").
      if (target === 'todomvc') expect(MAP_ONLY.filter((name) => !mine.get(name)?.mapped)).toEqual([]);
    }, 300_000);
  }

  it('fails each passing TodoMVC flow on the bug its assertions should catch', async () => {
    const { summary, missed } = await runCorpusMutants(results);
    mutants.push(summary);
    expect(summary).not.toContain('(0 bugs)');
    expect(missed).toEqual([]);
  }, 600_000);
});
