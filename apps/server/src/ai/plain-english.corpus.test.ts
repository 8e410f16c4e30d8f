import { startTodoMvcApp } from '@rehearse/recorder/testing';
import { BUILT_IN_STEP_PATTERNS, builtInStepRegExp } from '@rehearse/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoShop } from '../../../../packages/runner/src/testing/shop-workspace.js';
import { runTodoWorkspace } from '../../../../packages/runner/src/testing/todo-suite.js';
import { CORPUS, type CorpusFlow, type CorpusTarget } from './plain-english.corpus.js';
import { splitClauses, translateFlow, withKeywords } from './plain-english.js';

/**
 * Issue 44's measure: every flow of the corpus, written the way people write them, is translated
 * offline and the scenario run with the real runner in Chromium on its app. A flow ends as
 * "passing" (translated, and passes), "question" (some clause unmatched: reported, never dropped)
 * or "wrong" (translated, but fails on the app as written, or passes on the bug it should catch).
 */

const ALL = BUILT_IN_STEP_PATTERNS.map(builtInStepRegExp);
const translated = CORPUS.map((flow) => ({ flow, ...translateFlow(flow.lines) }));

const scenario = (flow: CorpusFlow, steps: readonly string[]) =>
  [`  Scenario: ${flow.name}`, ...steps.map((step) => `    ${step}`)].join('\n');
const feature = (entries: ReadonlyArray<{ flow: CorpusFlow; steps: readonly string[] }>) =>
  `Feature: Plain-English corpus\n\n${entries.map((entry) => scenario(entry.flow, entry.steps)).join('\n\n')}\n`;

/** Runs the scenarios on `baseUrl`; answers each scenario's status by name. */
async function run(baseUrl: string, entries: ReadonlyArray<{ flow: CorpusFlow; steps: readonly string[] }>): Promise<Map<string, string>> {
  const { report } = await runTodoWorkspace(
    baseUrl,
    { 'corpus.feature': feature(entries) },
    { config: { screenshots: 'off', commandTimeoutMs: 2_000 } },
  );
  const statuses = new Map<string, string>();
  for (const testCase of report?.testCases ?? [])
    statuses.set(
      testCase.scenarioName,
      `${testCase.result.status}${testCase.result.message ? `: ${testCase.result.message.split('\n')[0]}` : ''}`,
    );
  return statuses;
}

/** What the mutant runs found, for the summary. */
const mutants: string[] = [];
const results = new Map<string, { target: CorpusTarget; outcome: 'passing' | 'question' | 'wrong'; why?: string }>();

afterAll(() => {
  const lines = (['todomvc', 'demo-shop'] as const).map((target) => {
    const mine = [...results.values()].filter((result) => result.target === target);
    const count = (outcome: string) => mine.filter((result) => result.outcome === outcome).length;
    const flows = CORPUS.filter((flow) => flow.target === target).length;
    return `${target}: ${flows} flows, ${count('passing')} passing / ${count('question')} question / ${count('wrong')} wrong (${Math.round((100 * count('passing')) / flows)} % passing)`;
  });
  const details = [...results.entries()]
    .filter(([, result]) => result.outcome !== 'passing')
    .map(([name, result]) => `  ${result.outcome} · ${name}: ${result.why}`);
  console.log(['Plain-English corpus, offline:', ...lines, ...details, ...mutants].join('\n'));
});

describe('the plain-English corpus (issue 44)', () => {
  it('holds at least 40 flows, each with a name, target, lines and meaning', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CORPUS.map((flow) => flow.name)).size).toBe(CORPUS.length);
    for (const flow of CORPUS) expect(flow.lines.length > 0 && flow.means !== '').toBe(true);
  });

  it('writes only built-in steps, and reports every clause it cannot read (none dropped)', () => {
    for (const { flow, steps, unmatched } of translated) {
      expect(steps.filter((step) => !ALL.some((re) => re.test(step.text))).map((step) => step.text)).toEqual([]);
      const clauses = flow.lines.flatMap((line) => splitClauses(line));
      for (const clause of unmatched) expect(clauses).toContain(clause);
    }
  });

  for (const target of ['todomvc', 'demo-shop'] as const) {
    it(`runs every translated ${target} flow on the app as written, and it passes`, async () => {
      const mine = translated.filter((entry) => entry.flow.target === target);
      const runnable = mine
        .filter((entry) => entry.unmatched.length === 0)
        .map((entry) => ({ flow: entry.flow, steps: withKeywords(entry.steps) }));
      for (const entry of mine)
        if (entry.unmatched.length > 0)
          results.set(entry.flow.name, { target, outcome: 'question', why: `unmatched ${JSON.stringify(entry.unmatched)}` });
      const served = target === 'todomvc' ? await startTodoMvcApp() : await startDemoShop(0);
      try {
        const statuses = await run(served.baseUrl, runnable);
        for (const { flow, steps } of runnable) {
          const status = statuses.get(flow.name) ?? 'NOT RUN';
          results.set(
            flow.name,
            status === 'PASSED'
              ? { target, outcome: 'passing' }
              : { target, outcome: 'wrong', why: `${status}\n    ${steps.join('\n    ')}` },
          );
        }
      } finally {
        await served.app.close();
      }
      expect(runnable.filter((entry) => results.get(entry.flow.name)?.outcome !== 'passing').map((entry) => entry.flow.name)).toEqual([]);
    }, 300_000);
  }

  it('fails each passing TodoMVC flow on the bug its assertions should catch', async () => {
    const byBug = new Map<string, Array<{ flow: CorpusFlow; steps: readonly string[] }>>();
    for (const entry of translated)
      if (entry.flow.catches && results.get(entry.flow.name)?.outcome === 'passing')
        byBug.set(entry.flow.catches, [...(byBug.get(entry.flow.catches) ?? []), { flow: entry.flow, steps: withKeywords(entry.steps) }]);
    const missed: string[] = [];
    for (const [bug, entries] of byBug) {
      const served = await startTodoMvcApp(bug);
      try {
        const statuses = await run(served.baseUrl, entries);
        for (const { flow } of entries) {
          if (statuses.get(flow.name)?.startsWith('FAILED')) continue;
          missed.push(`${flow.name} on ${bug}`);
          results.set(flow.name, { target: 'todomvc', outcome: 'wrong', why: `passes on the bug ${bug}` });
        }
      } finally {
        await served.app.close();
      }
    }
    const flows = [...byBug.values()].reduce((sum, entries) => sum + entries.length, 0);
    mutants.push(
      `todomvc mutants: ${flows} passing flows run on the bug each should catch (${byBug.size} bugs): ${flows - missed.length} fail, ${missed.length} pass`,
    );
    expect(byBug.size).toBeGreaterThan(0);
    expect(missed).toEqual([]);
  }, 600_000);
});
