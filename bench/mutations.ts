/**
 * Mutation bench (issue 43 item 5): TodoMVC's vanilla JS app as its authors wrote it
 * (apps/todomvc), then with each injected bug of apps/todomvc/src/mutations.ts. Three suites run
 * against each: Rehearse's suite in built-in steps (packages/runner/src/testing/todomvc-suite.ts,
 * `rehearse run`); the same checks recorded through the recorder once, on the app as written
 * (packages/recorder/src/testing/todomvc-recordings.ts), generated as Publish writes them; and
 * Playwright's own demo suite ported to this app (bench/todomvc/demo-todo-app.spec.ts, Playwright
 * Test). A suite kills a mutant when a test fails that passes on the app as written (a failure
 * there is listed: a false alarm, or a defect of the app itself). Prints each mutant with who
 * killed it and why the built-in suite failed, and the score: mutants each of ours kills among
 * those Playwright's kills (target ≥ 95 %).
 *
 *   npx tsx bench/mutations.ts [--only id,id] [--json]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RecordedCommand } from '@rehearse/contract';
import { MUTATIONS } from '@rehearse/todomvc/mutations';
import { startTodoMvc, type Mutation } from '@rehearse/todomvc/testing';
import { findBrowserExecutable } from '../packages/runner/src/browser.js';
import { runTodoWorkspace } from '../packages/runner/src/testing/todo-suite.js';
import { TODOMVC_FEATURE, TODOMVC_FIRST_TODO_FEATURE } from '../packages/runner/src/testing/todomvc-suite.js';
import { recordScenario, replayAll } from '../packages/recorder/src/testing/healing-bench.js';
import { TODOMVC_TARGET } from '../packages/recorder/src/testing/todomvc-recordings.js';

const REPO = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { only: { type: 'string' }, json: { type: 'boolean', default: false } } });
const only = values.only?.split(',');
const chosen = MUTATIONS.filter((each) => each.app === 'vanillajs' && (!only || only.includes(each.id)));

interface SuiteOutcome {
  killed: boolean;
  failed: string[];
  why?: string;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-mutations-'));
const chromium = findBrowserExecutable('chromium', process.env, true);
if (!chromium) throw new Error('No Chromium for the bench');

/**
 * Rehearse's built-in-step suite with `rehearse run`, in this process. Against a mutant it stops
 * at the first failure (`--fail-fast`): one failure kills it.
 */
async function ours(baseUrl: string, mutant: boolean): Promise<SuiteOutcome> {
  const { report } = await runTodoWorkspace(
    baseUrl,
    { 'todomvc.feature': TODOMVC_FEATURE, 'first-todo.feature': TODOMVC_FIRST_TODO_FEATURE },
    { config: { screenshots: 'off', commandTimeoutMs: 2_000 }, args: mutant ? ['--fail-fast'] : [] },
  );
  const failed = report!.testCases.filter((testCase) => testCase.result.status === 'FAILED');
  const first = failed[0];
  return {
    killed: failed.length > 0,
    failed: failed.map((testCase) => testCase.scenarioName),
    ...(first ? { why: `${first.scenarioName}: ${(first.result.message ?? first.result.status).split('\n')[0]!.slice(0, 160)}` } : {}),
  };
}

interface PlaywrightJson {
  suites: PlaywrightSuite[];
}
interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; ok: boolean }[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Playwright's demo suite with Playwright Test, as a user runs it. Against a mutant it leaves out
 * the tests that fail on the app as written and stops at the first failure (`-x`).
 */
async function theirs(baseUrl: string, baselineFailures?: readonly string[]): Promise<SuiteOutcome> {
  const output = path.join(scratch, `pw-${Date.now()}.json`);
  await new Promise<void>((resolve) =>
    execFile(
      process.execPath,
      [
        path.join(REPO, 'node_modules', '@playwright', 'test', 'cli.js'),
        'test',
        '--config',
        'bench/todomvc/playwright.config.ts',
        ...(baselineFailures
          ? [
              '-x',
              ...(baselineFailures.length
                ? ['--grep-invert', baselineFailures.map((name) => escapeRegExp(name.split(' › ').at(-1)!)).join('|')]
                : []),
            ]
          : []),
      ],
      {
        cwd: REPO,
        env: {
          ...process.env,
          TODOMVC_URL: baseUrl,
          CHROMIUM_PATH: chromium,
          PLAYWRIGHT_JSON_OUTPUT_NAME: output,
          PLAYWRIGHT_OUTPUT_DIR: path.join(scratch, 'pw-results'),
          NODE_OPTIONS: '',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
      () => resolve(),
    ),
  );
  const results = JSON.parse(readFileSync(output, 'utf8')) as PlaywrightJson;
  const failed: string[] = [];
  const walk = (suite: PlaywrightSuite, prefix: string) => {
    for (const spec of suite.specs ?? []) if (!spec.ok) failed.push(`${prefix}${spec.title}`);
    for (const child of suite.suites ?? []) walk(child, `${prefix}${child.title} › `);
  };
  for (const suite of results.suites) walk(suite, '');
  return { killed: failed.length > 0, failed };
}

/** A suite kills a mutant with a failure of a test that passes on the app as written. */
const beyond = (outcome: SuiteOutcome, baseline: SuiteOutcome | undefined): SuiteOutcome => {
  const failed = outcome.failed.filter((name) => !baseline?.failed.includes(name));
  return { ...outcome, failed, killed: failed.length > 0 };
};

type Recordings = { name: string; commands: RecordedCommand[] }[];
type Outcomes = { ours: SuiteOutcome; recorded: SuiteOutcome; theirs: SuiteOutcome };

/** The recorded suite: TodoMVC recorded through the recorder once, on the app as written. */
async function recordSuite(): Promise<Recordings> {
  const served = await startTodoMvc();
  try {
    const recordings: Recordings = [];
    for (const scenario of TODOMVC_TARGET.scenarios)
      recordings.push({ name: scenario.name, commands: await recordScenario(TODOMVC_TARGET, served.urls.vanillajs, scenario) });
    return recordings;
  } finally {
    await served.app.close();
  }
}

/** The recordings, generated as Publish writes them and run with `rehearse run`, without healing. */
async function recorded(recordings: Recordings, baseUrl: string): Promise<SuiteOutcome> {
  const { scenarios } = await replayAll(recordings, baseUrl, false, { name: 'Recorded', stateScript: 'null' });
  const failed = scenarios.filter((scenario) => scenario.status !== 'PASSED').map((scenario) => scenario.name);
  return { killed: failed.length > 0, failed };
}

async function against(mutation: Mutation | undefined, recordings: Recordings, baseline?: Outcomes): Promise<Outcomes> {
  const served = await startTodoMvc(mutation);
  try {
    const url = served.urls.vanillajs;
    return {
      ours: beyond(await ours(url, baseline !== undefined), baseline?.ours),
      recorded: beyond(await recorded(recordings, url), baseline?.recorded),
      theirs: beyond(await theirs(url, baseline?.theirs.failed), baseline?.theirs),
    };
  } finally {
    await served.app.close();
  }
}

const SUITES = ['ours', 'recorded', 'theirs'] as const;
const LABELS: Record<(typeof SUITES)[number], string> = { ours: 'built-in', recorded: 'recorded', theirs: "Playwright's" };

try {
  const recordings = await recordSuite();
  const baseline = await against(undefined, recordings);
  const rows: ({ mutation: Mutation } & Outcomes)[] = [];
  const said = (outcome: SuiteOutcome) => (outcome.killed ? 'killed' : 'survived');
  for (const mutation of chosen) {
    rows.push({ mutation, ...(await against(mutation, recordings, baseline)) });
    if (!values.json) {
      const last = rows.at(-1)!;
      console.error(`${mutation.id}: ${SUITES.map((suite) => `${LABELS[suite]} ${said(last[suite])}`).join(', ')}`);
    }
  }
  const killed = (suite: (typeof SUITES)[number]) => rows.filter((row) => row[suite].killed);
  const amongTheirs = (suite: 'ours' | 'recorded') =>
    killed('theirs').length === 0 ? 1 : killed('theirs').filter((row) => row[suite].killed).length / killed('theirs').length;
  const summary = {
    mutants: rows.length,
    killed: Object.fromEntries(SUITES.map((suite) => [suite, killed(suite).length])),
    amongTheirs: { ours: amongTheirs('ours'), recorded: amongTheirs('recorded') },
    falseAlarms: Object.fromEntries(SUITES.map((suite) => [suite, baseline[suite].failed])),
  };
  if (values.json) {
    console.log(JSON.stringify({ summary, rows }, null, 2));
  } else {
    const mark = (outcome: SuiteOutcome) => (outcome.killed ? 'killed  ' : 'survived');
    console.log('Mutation bench: TodoMVC (vanilla JS) with one injected bug at a time');
    for (const suite of SUITES) {
      console.log(`  on the app as written, ${LABELS[suite]} suite: ${baseline[suite].failed.length} failing`);
      for (const name of baseline[suite].failed) console.log(`    fails: ${name}`);
    }
    console.log(`  ${'mutant'.padEnd(32)} ${'built-in'} ${'recorded'} ${'theirs  '} what breaks / why the built-in suite failed`);
    for (const row of rows) {
      console.log(`  ${row.mutation.id.padEnd(32)} ${mark(row.ours)} ${mark(row.recorded)} ${mark(row.theirs)} ${row.mutation.says}`);
      if (row.ours.why) console.log(`  ${''.padEnd(59)} ↳ ${row.ours.why}`);
    }
    console.log(
      `  killed: ${SUITES.map((suite) => `${LABELS[suite]} ${summary.killed[suite]}/${summary.mutants}`).join(', ')}; among Playwright's kills: built-in ${(100 * summary.amongTheirs.ours).toFixed(0)} %, recorded ${(100 * summary.amongTheirs.recorded).toFixed(0)} %   target ≥ 95 %`,
    );
  }
  if (baseline.ours.failed.length > 0 || baseline.recorded.failed.length > 0) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
