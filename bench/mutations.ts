/**
 * Mutation bench (issue 43 item 5): TodoMVC's vanilla JS app as its authors wrote it
 * (apps/todomvc), then with each injected bug of apps/todomvc/src/mutations.ts. Two suites are run
 * against each: Rehearse's suite in built-in steps (packages/runner/src/testing/todomvc-suite.ts,
 * `rehearse run`) and Playwright's own demo suite ported to this app
 * (bench/todomvc/demo-todo-app.spec.ts, Playwright Test). A suite kills a mutant when any of its
 * tests fails that passes on the app as written (a failure there is listed: a false alarm, or a
 * defect of the app itself).
 * Prints each mutant with who killed it and why our suite failed, and the score: mutants our suite
 * kills among those Playwright's kills (target ≥ 95 %).
 *
 *   npx tsx bench/mutations.ts [--only id,id] [--json]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RunReport } from '@rehearse/contract';
import { MUTATIONS } from '@rehearse/todomvc/mutations';
import { startTodoMvc, type Mutation } from '@rehearse/todomvc/testing';
import { findBrowserExecutable } from '../packages/runner/src/browser.js';
import { runCli } from '../packages/runner/src/cli/index.js';
import { captureIo } from '../packages/runner/src/testing/output.js';
import { makeTodoWorkspace } from '../packages/runner/src/testing/todo-suite.js';
import { TODOMVC_FEATURE, TODOMVC_FIRST_TODO_FEATURE } from '../packages/runner/src/testing/todomvc-suite.js';

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
  const ws = makeTodoWorkspace(
    baseUrl,
    { 'todomvc.feature': TODOMVC_FEATURE, 'first-todo.feature': TODOMVC_FIRST_TODO_FEATURE },
    { screenshots: 'off', commandTimeoutMs: 2_000 },
  );
  try {
    const io = captureIo();
    const out = path.join(ws, 'out');
    await runCli(['run', '--out', out, '--headless', ...(mutant ? ['--fail-fast'] : [])], {
      cwd: ws,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport;
    const failed = report.testCases.filter((testCase) => testCase.result.status === 'FAILED');
    const first = failed[0];
    return {
      killed: failed.length > 0,
      failed: failed.map((testCase) => testCase.scenarioName),
      ...(first ? { why: `${first.scenarioName}: ${(first.result.message ?? first.result.status).split('\n')[0]!.slice(0, 160)}` } : {}),
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
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

async function against(mutation: Mutation | undefined, baseline?: { ours: SuiteOutcome; theirs: SuiteOutcome }) {
  const served = await startTodoMvc(mutation);
  try {
    const url = served.urls.vanillajs;
    return {
      ours: beyond(await ours(url, baseline !== undefined), baseline?.ours),
      theirs: beyond(await theirs(url, baseline?.theirs.failed), baseline?.theirs),
    };
  } finally {
    await served.app.close();
  }
}

try {
  const baseline = await against(undefined);
  const rows: { mutation: Mutation; ours: SuiteOutcome; theirs: SuiteOutcome }[] = [];
  for (const mutation of chosen) {
    rows.push({ mutation, ...(await against(mutation, baseline)) });
    if (!values.json) {
      const last = rows.at(-1)!;
      console.error(
        `${mutation.id}: ours ${last.ours.killed ? 'killed' : 'survived'}, Playwright's ${last.theirs.killed ? 'killed' : 'survived'}`,
      );
    }
  }
  const killedByTheirs = rows.filter((row) => row.theirs.killed);
  const killedByBoth = killedByTheirs.filter((row) => row.ours.killed);
  const summary = {
    mutants: rows.length,
    killedByOurs: rows.filter((row) => row.ours.killed).length,
    killedByTheirs: killedByTheirs.length,
    oursAmongTheirs: killedByTheirs.length === 0 ? 1 : killedByBoth.length / killedByTheirs.length,
    falseAlarms: { ours: baseline.ours.failed, theirs: baseline.theirs.failed },
  };
  if (values.json) {
    console.log(JSON.stringify({ summary, rows }, null, 2));
  } else {
    const mark = (outcome: SuiteOutcome) => (outcome.killed ? 'killed  ' : 'survived');
    console.log('Mutation bench: TodoMVC (vanilla JS) with one injected bug at a time');
    console.log(
      `  on the app as written: ours ${baseline.ours.failed.length} failing, Playwright's ${baseline.theirs.failed.length} failing`,
    );
    for (const name of baseline.ours.failed) console.log(`    ours fails: ${name}`);
    for (const name of baseline.theirs.failed) console.log(`    Playwright's fails: ${name}`);
    console.log(`  ${'mutant'.padEnd(32)} ${'ours'.padEnd(8)} ${'theirs'.padEnd(8)} what breaks / why ours failed`);
    for (const row of rows) {
      console.log(`  ${row.mutation.id.padEnd(32)} ${mark(row.ours)} ${mark(row.theirs)} ${row.mutation.says}`);
      if (row.ours.why) console.log(`  ${''.padEnd(50)} ↳ ${row.ours.why}`);
    }
    console.log(
      `  killed: ours ${summary.killedByOurs}/${summary.mutants}, Playwright's ${summary.killedByTheirs}/${summary.mutants}; ours among Playwright's kills ${(100 * summary.oursAmongTheirs).toFixed(0)} %   target ≥ 95 %`,
    );
  }
  if (summary.falseAlarms.ours.length > 0) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
