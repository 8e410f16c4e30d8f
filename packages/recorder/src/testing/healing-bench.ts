import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { effectsFileOf, RunReport, type RecordedCommand, type StepEffectsFile } from '@rehearse/contract';
import { runCli } from '@rehearse/runner/cli';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { generate, LOCATORS_DIR, STEP_DEFINITIONS_DIR } from '@rehearse/codegen';
import { digestTestData, RecorderSession } from '../session.js';
import { workspaceWith } from './targets.js';

/**
 * The recorded healing benchmark (issue 19 "Must show"), for any app with two versions:
 * scenarios are recorded through the recorder on version 1 (a person's trusted input, captured
 * and generated exactly as the product does), replayed with `rehearse run` on version 1 (must
 * pass, and with `--heal` must heal nothing), then on version 2 (a redesign) with `--heal`. A
 * broken step counts as healed correctly only when the app is in the same state after it as after
 * the same step on version 1, as the target's state script describes the app (not its markup).
 */

export interface BenchScenario {
  name: string;
  /** Where recording starts, relative to the version's base URL. */
  start?: string;
  drive: (page: Page, session: RecorderSession) => Promise<void>;
}

export interface BenchTarget {
  name: string;
  /** Both versions on one free port. */
  start(): Promise<{ app: FastifyInstance; v1: string; v2: string }>;
  /** Waits until a freshly opened page of the app takes input. */
  ready(page: Page): Promise<void>;
  /** An expression run in the page after every step: the app's state, comparable across versions. */
  stateScript: string;
  /** How long the state probe lets a step's consequences land (a navigation) before it reads. */
  settleMs?: number;
  /** The project's test data: typed values that match become `{{key}}` references, as in the product. */
  testData?: Array<{ key: string; value: string; secret?: boolean }>;
  scenarios: BenchScenario[];
}

/** Records one scenario on `baseUrl` (1024×700, headless) and answers its commands. */
export async function recordScenario(target: BenchTarget, baseUrl: string, scenario: BenchScenario): Promise<RecordedCommand[]> {
  const url = new URL(scenario.start ?? '', baseUrl).href;
  const session = await RecorderSession.start({
    url,
    baseUrl,
    viewport: { width: 1024, height: 700 },
    headless: true,
    testData: digestTestData(target.testData ?? []),
  });
  try {
    await target.ready(session.activePage);
    await scenario.drive(session.activePage, session);
    // Captured events reach the session through a binding: wait until nothing more arrives.
    let seen = -1;
    while (seen !== session.commands.length) {
      seen = session.commands.length;
      await session.activePage.waitForTimeout(300);
    }
    return [...session.commands];
  } finally {
    await session.close();
  }
}

/** A step file that appends the app's state after every step to `stateFile`, one JSON line each. */
function stateProbe(stateFile: string, stateScript: string, settleMs: number): string {
  return [
    `import { appendFileSync } from 'node:fs';`,
    `import { AfterStep, Before } from '@cucumber/cucumber';`,
    `let step = 0;`,
    `Before(function () { step = 0; });`,
    `AfterStep(async function ({ pickle }) {`,
    `  if (this.page && !this.page.isClosed() && ${settleMs} > 0) { await this.page.waitForTimeout(${settleMs}); await this.page.waitForLoadState('load').catch(() => undefined); }`,
    `  const state = this.page && !this.page.isClosed() ? await this.page.evaluate(${JSON.stringify(stateScript)}).catch(() => null) : null;`,
    `  appendFileSync(${JSON.stringify(stateFile)}, JSON.stringify({ scenario: pickle.name, step: step++, state }) + '\\n');`,
    `});`,
    '',
  ].join('\n');
}

export interface ReplayedScenario {
  name: string;
  status: string;
  /** Per Gherkin step: its text, the app's state after it (first pass only), and what healing did. */
  steps: Array<{
    text: string;
    state: unknown;
    broken: boolean;
    /** It failed, with or without a heal: an action that failed on the element found counts too. */
    failed: boolean;
    /** Why it failed: the first line of its message. */
    message?: string;
    healed: boolean;
    assertion: boolean;
    confidence: number;
    reason: string;
    /** Text of the element as recorded, and of the element healing chose. */
    recordedText?: string;
    healedText?: string;
  }>;
}

/**
 * Generates every recording into one fresh workspace (as publishing them one by one would) and runs
 * it against `baseUrl` with `rehearse run`, healing when asked.
 */
export async function replayAll(
  recordings: Array<{ name: string; commands: RecordedCommand[] }>,
  baseUrl: string,
  heal: boolean,
  options: { name?: string; stateScript: string; settleMs?: number; testData?: BenchTarget['testData']; positionalOnly?: boolean },
): Promise<{ scenarios: ReplayedScenario[]; output: string }> {
  const files = new Map<string, string>();
  const scenarios: string[] = [];
  // What each recorded step visibly did, as the publisher writes it beside the locators.
  const effects: StepEffectsFile = {};
  for (const recording of recordings) {
    const generated = generate({ scenarioName: recording.name, commands: recording.commands, existing: files });
    for (const file of generated.files) files.set(file.path, file.content);
    scenarios.push(generated.scenarioText);
    if (Object.keys(generated.effects).length > 0) effects[recording.name] = generated.effects;
  }
  files.set(effectsFileOf('features/recorded.feature'), JSON.stringify(effects, null, 2));
  // The healer alone: every element keeps only its positional CSS path (the last candidate), as
  // a recorder that knows nothing better writes it, so a rewrite breaks nearly every element step.
  if (options.positionalOnly) {
    for (const [file, content] of files) {
      if (!file.startsWith(`${LOCATORS_DIR}/`)) continue;
      const entries = JSON.parse(content) as Record<string, { locators: unknown[] }>;
      for (const entry of Object.values(entries)) entry.locators = entry.locators.slice(-1);
      files.set(file, JSON.stringify(entries, null, 2));
    }
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'rehearse-todo-heal-'));
  const stateFile = path.join(scratch, 'states.jsonl');
  writeFileSync(stateFile, '');
  const dir = workspaceWith(
    [
      { path: 'features/recorded.feature', content: `Feature: ${options.name ?? 'Recorded'}\n\n${scenarios.join('\n\n')}\n` },
      {
        path: 'test-data.json',
        content: JSON.stringify(
          (options.testData ?? []).map((row) => ({ key: row.key, value: row.value, DataType: row.secret ? 'secret' : 'string' })),
        ),
      },
      ...[...files].map(([file, content]) => ({ path: file, content })),
      { path: `${STEP_DEFINITIONS_DIR}/zz-state-probe.mjs`, content: stateProbe(stateFile, options.stateScript, options.settleMs ?? 0) },
    ],
    baseUrl,
  );
  // A broken locator costs its command timeout before healing starts: keep it short.
  writeFileSync(path.join(dir, 'rehearse.config.json'), JSON.stringify({ screenshots: 'off', commandTimeoutMs: 1_500 }));
  const out: string[] = [];
  const sink = { write: (text: string) => out.push(text) };
  try {
    await runCli(
      [
        'run',
        '--env',
        'environments/default.json',
        '--data',
        'test-data.json',
        '--headless',
        '--out',
        `${dir}/report`,
        ...(heal ? ['--heal'] : []),
      ],
      { cwd: dir, stdout: sink, stderr: sink },
    );
    const report = RunReport.parse(JSON.parse(readFileSync(path.join(dir, 'report', 'report.json'), 'utf8')));
    const states = new Map<string, unknown>();
    for (const line of readFileSync(stateFile, 'utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { scenario: string; step: number; state: unknown };
      // The confirming rerun of a healed scenario appends again: the first pass is what counts.
      const key = `${entry.scenario}#${entry.step}`;
      if (!states.has(key)) states.set(key, entry.state);
    }
    const replayed = report.testCases.map((testCase): ReplayedScenario => ({
      name: testCase.scenarioName,
      status: testCase.result.status,
      steps: testCase.steps.map((step, index) => {
        const healing = step.commands.find(
          (command) => command.healing && command.healing.reason !== 'the element was found; the action failed',
        );
        const source = healing?.healing?.source;
        const recorded = source
          ? (JSON.parse(files.get(source.file) ?? '{}') as Record<string, { fingerprint?: { text?: string; name?: string } }>)[source.key]
              ?.fingerprint
          : undefined;
        const healedPrint = healing?.healing?.fingerprint as { text?: string; name?: string } | undefined;
        return {
          text: step.text,
          state: states.get(`${testCase.scenarioName}#${index}`) ?? null,
          broken: healing !== undefined,
          failed: step.result.status === 'FAILED',
          ...(step.result.status === 'FAILED' ? { message: (step.result.message ?? '').split('\n')[0] } : {}),
          healed: healing?.healing?.healed ?? false,
          assertion: healing?.type.startsWith('verify_') ?? false,
          confidence: healing?.healing?.confidence ?? 0,
          reason:
            healing?.healing?.reason ?? (step.result.status === 'FAILED' ? `failed: ${(step.result.message ?? '').split('\n')[0]}` : ''),
          ...(recorded ? { recordedText: recorded.text ?? recorded.name ?? '' } : {}),
          ...(healedPrint ? { healedText: healedPrint.text ?? healedPrint.name ?? '' } : {}),
        };
      }),
    }));
    return { scenarios: replayed, output: out.join('') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

export type HealOutcome = 'unbroken' | 'healed correctly' | 'healed wrongly' | 'not healed';

/**
 * Judges each broken step of `after` against the same step of `before` (version 1, unhealed):
 * healed correctly when the app's state after it is the same. A step that failed without a heal
 * (its element found, the action refused) is broken and not healed: the redesign broke it too. An assertion changes no state: a
 * healed assertion is right only when the element it chose shows the text the recorded one did.
 */
export function judge(
  before: ReplayedScenario[],
  after: ReplayedScenario[],
): Array<{ scenario: string; step: string; outcome: HealOutcome; confidence: number; reason: string }> {
  const out: Array<{ scenario: string; step: string; outcome: HealOutcome; confidence: number; reason: string }> = [];
  for (const scenario of after) {
    const reference = before.find((s) => s.name === scenario.name);
    // A scenario that fails where it was recorded says nothing about healing.
    if (reference?.status !== 'PASSED') continue;
    scenario.steps.forEach((step, index) => {
      if (!step.broken && !step.failed) return;
      const expected = reference?.steps[index]?.state;
      const sameState = expected !== undefined && step.state !== null && JSON.stringify(step.state) === JSON.stringify(expected);
      const same = sameState && (!step.assertion || (step.healedText !== undefined && step.healedText === step.recordedText));
      const outcome: HealOutcome = !step.healed ? 'not healed' : same ? 'healed correctly' : 'healed wrongly';
      out.push({ scenario: scenario.name, step: step.text, outcome, confidence: step.confidence, reason: step.reason });
    });
  }
  return out;
}
