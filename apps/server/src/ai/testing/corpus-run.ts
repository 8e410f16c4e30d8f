import { startTodoApp, startTodoMvcApp } from '@rehearse/recorder/testing';
import { startDemoShop } from '../../../../../packages/runner/src/testing/shop-workspace.js';
import { runTodoWorkspace } from '../../../../../packages/runner/src/testing/todo-suite.js';
import { CORPUS, type CorpusFlow, type CorpusTarget } from '../plain-english.corpus.js';
import { resolveOnMap, type AppOnMap } from '../map-resolution.js';
import { openedAddress, stepValue, translateFlow, withKeywords } from '../plain-english.js';
import { recordedMap } from './idea-runs.js';

/**
 * Issue 44's measure, shared by plain-english.corpus.test.ts and bench/plain-english.ts: every flow
 * of the corpus translated offline and run with the real runner in Chromium on its app. A flow
 * ends "passing" (translated, and passes), "question" (some clause unread: reported, never
 * dropped) or "wrong" (translated, but fails on the app as written, or passes on its bug).
 */

export const CORPUS_TARGETS = ['todomvc', 'demo-shop', 'todo-app'] as const satisfies readonly CorpusTarget[];
export type Outcome = {
  target: CorpusTarget;
  outcome: 'passing' | 'question' | 'wrong';
  why?: string;
  /** Whether the app's map changed a step of the flow (a noun its words alone misname). */
  mapped?: boolean;
};
type Runnable = { flow: CorpusFlow; steps: readonly string[] };

/**
 * Each target's application map as a user's first recording would leave it: the start page, taken
 * fresh by runCorpusTarget before its flows are read (issue 44 item 2: nouns resolved against the app).
 */
const corpusMaps = new Map<CorpusTarget, AppOnMap>();
const NO_MAP: AppOnMap = { memory: { paths: {} }, baseUrls: [] };

/** Every flow read as scenario creation reads it: the grammar, then its nouns against the target's map (none before it is taken). */
export const translatedCorpus = () =>
  CORPUS.map((flow) => ({ flow, ...resolveOnMap(translateFlow(flow.lines), corpusMaps.get(flow.target) ?? NO_MAP) }));

const feature = (entries: readonly Runnable[]) =>
  `Feature: Plain-English corpus\n\n${entries
    .map((entry) => [`  Scenario: ${entry.flow.name}`, ...entry.steps.map((step) => `    ${step}`)].join('\n'))
    .join('\n\n')}\n`;

/**
 * Runs the scenarios on `baseUrl`; answers each scenario's status (and first line of its message)
 * by name. The measure is each flow's outcome, so nothing a report keeps is captured: no
 * screenshots, and no trace (the default records one for every try and keeps it on failure; over
 * these 125 runs it was a quarter of the file's CPU, 125 → 93 s).
 */
async function run(baseUrl: string, entries: readonly Runnable[], args: string[] = []): Promise<Map<string, string>> {
  const { report } = await runTodoWorkspace(
    baseUrl,
    { 'corpus.feature': feature(entries) },
    { config: { screenshots: 'off', trace: 'off', commandTimeoutMs: 2_000 }, args },
  );
  const statuses = new Map<string, string>();
  for (const testCase of report?.testCases ?? [])
    statuses.set(
      testCase.scenarioName,
      `${testCase.result.status}${testCase.result.message ? `: ${testCase.result.message.split('\n')[0]}` : ''}`,
    );
  return statuses;
}

/** Every flow of `target`: the app served and its start page mapped, each flow read against that map, then run on the app as written. */
export async function runCorpusTarget(target: CorpusTarget): Promise<Map<string, Outcome>> {
  const results = new Map<string, Outcome>();
  const served = target === 'todomvc' ? await startTodoMvcApp() : target === 'todo-app' ? await startTodoApp() : await startDemoShop(0);
  try {
    const paths = await recordedMap(served.baseUrl, served.baseUrl, (page) => page.waitForLoadState('networkidle'));
    corpusMaps.set(target, { memory: { paths }, baseUrls: [served.baseUrl] });
    return await runTarget(target, served.baseUrl, results);
  } finally {
    await served.app.close();
  }
}

/** The target's flows as read, each run on `baseUrl` (or asked about): its outcome by name into `results`. */
async function runTarget(target: CorpusTarget, baseUrl: string, results: Map<string, Outcome>): Promise<Map<string, Outcome>> {
  const mine = translatedCorpus().filter((entry) => entry.flow.target === target);
  for (const entry of mine)
    if (entry.unmatched.length > 0)
      results.set(entry.flow.name, { target, outcome: 'question', why: `unmatched ${JSON.stringify(entry.unmatched)}` });
  const runnable = mine
    .filter((entry) => entry.unmatched.length === 0)
    .map((entry) => ({ flow: entry.flow, steps: withKeywords(entry.steps), mapped: entry.resolved.some((line) => line.length > 0) }));
  const statuses = await run(baseUrl, runnable);
  for (const { flow, steps, mapped } of runnable) {
    const status = statuses.get(flow.name) ?? 'NOT RUN';
    results.set(
      flow.name,
      status === 'PASSED'
        ? { target, outcome: 'passing', mapped }
        : { target, outcome: 'wrong', mapped, why: `${status}\n    ${steps.join('\n    ')}` },
    );
  }
  return results;
}

/**
 * Each passing TodoMVC flow with a `catches` run on that bug: it must fail. Marks a flow that
 * passes on its bug "wrong" in `results`; answers the summary line and the flows that missed.
 */
export async function runCorpusMutants(results: Map<string, Outcome>): Promise<{ summary: string; missed: string[] }> {
  const byBug = new Map<string, Runnable[]>();
  for (const entry of translatedCorpus())
    if (entry.flow.catches && results.get(entry.flow.name)?.outcome === 'passing')
      byBug.set(entry.flow.catches, [...(byBug.get(entry.flow.catches) ?? []), { flow: entry.flow, steps: withKeywords(entry.steps) }]);
  // Every bug served at once, and each flow sent to its own bug by opening that server's address:
  // one run in two threads rather than a run per bug (most of a failing flow is its assertion
  // waiting out the timeout, which two threads wait out side by side).
  const served = new Map(await Promise.all([...byBug.keys()].map(async (bug) => [bug, await startTodoMvcApp(bug)] as const)));
  const missed: string[] = [];
  try {
    const entries = [...byBug].flatMap(([bug, list]) =>
      list.map((entry) => {
        const steps = entry.steps.map((step) => openOn(step, served.get(bug)!.baseUrl));
        // A flow that opens nothing would run on whichever page the thread last had: not its bug.
        if (!steps.some((step) => step.includes(served.get(bug)!.baseUrl))) throw new Error(`${entry.flow.name} opens no page of ${bug}`);
        return { flow: entry.flow, steps };
      }),
    );
    const statuses = await run(served.values().next().value!.baseUrl, entries, ['--parallel', '2']);
    for (const [bug, list] of byBug)
      for (const { flow } of list) {
        const status = statuses.get(flow.name) ?? 'NOT RUN';
        // Failing to load its page is no catch: the flow must fail on what the bug does.
        if (status.startsWith('FAILED') && !/answered HTTP|net::ERR_/.test(status)) continue;
        missed.push(`${flow.name} on ${bug}: ${status}`);
        results.set(flow.name, { target: 'todomvc', outcome: 'wrong', why: `passes on the bug ${bug}` });
      }
  } finally {
    await Promise.all([...served.values()].map((app) => app.app.close()));
  }
  const flows = [...byBug.values()].reduce((sum, entries) => sum + entries.length, 0);
  return {
    summary: `todomvc mutants: ${flows} passing flows run on the bug each should catch (${byBug.size} bugs): ${flows - missed.length} fail, ${missed.length} pass`,
    missed,
  };
}

/** A step that opens a page of the app, made to open it on `baseUrl` (a relative address is below it, as the runner resolves it). */
function openOn(step: string, baseUrl: string): string {
  const [, keyword, text] = /^(\w+) (.*)$/.exec(step) ?? [];
  const address = text === undefined ? undefined : openedAddress(text);
  if (address === undefined || /^[a-z][\w+.-]*:/i.test(address)) return step;
  return `${keyword} I open ${stepValue(new URL(address.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href)}`;
}

/** One line per target (flows, passing / question / wrong, the passing rate), then each flow that did not pass. */
export function corpusSummary(results: ReadonlyMap<string, Outcome>): string[] {
  const lines = CORPUS_TARGETS.map((target) => {
    const mine = [...results.values()].filter((result) => result.target === target);
    const count = (outcome: string) => mine.filter((result) => result.outcome === outcome).length;
    const flows = CORPUS.filter((flow) => flow.target === target).length;
    const mapped = mine.filter((result) => result.mapped).length;
    return `${target}: ${flows} flows, ${count('passing')} passing / ${count('question')} question / ${count('wrong')} wrong (${Math.round((100 * count('passing')) / flows)} % passing; ${mapped} with a noun read against the app's map)`;
  });
  const details = [...results.entries()]
    .filter(([, result]) => result.outcome !== 'passing')
    .map(([name, result]) => `  ${result.outcome} · ${name}: ${result.why}`);
  return [...lines, ...details];
}
