import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunReport, type RecordedCommand } from '@rehearse/contract';
import { runCli } from '@rehearse/runner/cli';
import { TODO_APP_PATH, TODO_APP_V2_PATH, todoAppPlugin, todoAppV2Plugin } from '@rehearse/todo-app';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { generate, LOCATORS_DIR, STEP_DEFINITIONS_DIR } from '../generate.js';
import { RecorderSession } from '../session.js';
import { workspaceWith } from './targets.js';

/**
 * The todo-app healing benchmark (issue 19 "Must show"): scenarios are recorded through the
 * recorder on version 1 (a person's trusted input, captured and generated exactly as the product
 * does), replayed with `rehearse run` on version 1 (must pass, and with `--heal` must heal
 * nothing), then on version 2 (a framework rewrite: other classes, wrappers, ids and order) with
 * `--heal`. A broken step counts as healed correctly only when the app is in the same state after
 * it as after the same step on version 1: the todos, the route, and the text in its fields.
 */

/** Both versions of the todo app on one free port. */
export async function startTodoApps(): Promise<{ app: FastifyInstance; v1: string; v2: string }> {
  const app = Fastify();
  await app.register(todoAppPlugin, { prefix: TODO_APP_PATH });
  await app.register(todoAppV2Plugin, { prefix: TODO_APP_V2_PATH });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, v1: `${address}${TODO_APP_PATH}/`, v2: `${address}${TODO_APP_V2_PATH}/` };
}

type Drive = (page: Page, session: RecorderSession) => Promise<void>;

export interface TodoScenario {
  name: string;
  drive: Drive;
}

const NEW_TODO = 'What needs to be done?';

async function add(page: Page, ...titles: string[]): Promise<void> {
  await page.getByPlaceholder(NEW_TODO).click();
  for (const title of titles) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
  }
}

const row = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });

async function tick(page: Page, title: string): Promise<void> {
  await row(page, title).getByRole('checkbox').click();
}

/** Points at the row, which shows its "×", and clicks it. */
async function remove(page: Page, title: string): Promise<void> {
  await row(page, title).hover();
  await row(page, title).getByRole('button', { name: '×' }).click();
}

async function editTo(page: Page, from: string, to: string, key = 'Enter'): Promise<void> {
  await page.getByText(from, { exact: true }).dblclick();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(to);
  await page.keyboard.press(key);
}

/** An element assertion, as the panel's "Visible" button and a click on the element record it. */
async function seeElement(session: RecorderSession, page: Page, text: string): Promise<void> {
  await session.assertNext('verifyVisible');
  await page.getByText(text, { exact: true }).click();
}

async function seeText(session: RecorderSession, page: Page, text: string): Promise<void> {
  await page.getByText(text).first().waitFor();
  session.assertText(text);
}

export const TODO_SCENARIOS: TodoScenario[] = [
  { name: 'Add a todo', drive: async (page, session) => { await add(page, 'buy milk'); await seeElement(session, page, 'buy milk'); } },
  { name: 'Add two todos', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await seeText(session, page, '2 items left'); } },
  { name: 'Complete the second todo', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await tick(page, 'feed the cat'); await seeText(session, page, '1 item left'); } },
  { name: 'Complete the first todo', drive: async (page) => { await add(page, 'buy milk', 'feed the cat', 'water the plants'); await tick(page, 'buy milk'); } },
  { name: 'Complete and reopen a todo', drive: async (page) => { await add(page, 'buy milk'); await tick(page, 'buy milk'); await tick(page, 'buy milk'); } },
  { name: 'Rename a todo', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await editTo(page, 'feed the cat', 'feed the dog'); await seeElement(session, page, 'feed the dog'); } },
  { name: 'Cancel an edit with Escape', drive: async (page) => { await add(page, 'buy milk'); await editTo(page, 'buy milk', 'buy bread', 'Escape'); } },
  { name: 'Clear a todo by editing it empty', drive: async (page) => { await add(page, 'buy milk', 'feed the cat'); await page.getByText('buy milk', { exact: true }).dblclick(); await page.keyboard.press('Control+A'); await page.keyboard.press('Backspace'); await page.keyboard.press('Enter'); } },
  { name: 'Mark all as complete', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await page.getByText('Mark all as complete').click(); await seeText(session, page, '0 items left'); } },
  { name: 'Show active todos', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await tick(page, 'buy milk'); await page.getByRole('link', { name: 'Active' }).click(); await seeElement(session, page, 'feed the cat'); } },
  { name: 'Show completed todos', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await tick(page, 'feed the cat'); await page.getByRole('link', { name: 'Completed' }).click(); await seeElement(session, page, 'feed the cat'); } },
  { name: 'Back to all todos', drive: async (page) => { await add(page, 'buy milk', 'feed the cat'); await tick(page, 'buy milk'); await page.getByRole('link', { name: 'Completed' }).click(); await page.getByRole('link', { name: 'All' }).click(); } },
  { name: 'Clear completed todos', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat', 'water the plants'); await tick(page, 'feed the cat'); await page.getByRole('button', { name: 'Clear completed' }).click(); await seeText(session, page, '2 items left'); } },
  { name: 'Complete a todo on the active list', drive: async (page) => { await add(page, 'buy milk', 'feed the cat'); await page.getByRole('link', { name: 'Active' }).click(); await tick(page, 'feed the cat'); } },
  { name: 'Delete a todo', drive: async (page, session) => { await add(page, 'buy milk', 'feed the cat'); await remove(page, 'feed the cat'); await seeText(session, page, '1 item left'); } },
  { name: 'Delete the first todo', drive: async (page) => { await add(page, 'buy milk', 'feed the cat', 'water the plants'); await remove(page, 'buy milk'); } },
  { name: 'Counter shows the todos left', drive: async (page, session) => { await add(page, 'buy milk'); await seeElement(session, page, '1 item left'); } },
];

/** Records one scenario on `baseUrl` (1024×700, headless) and answers its commands. */
export async function recordScenario(baseUrl: string, scenario: TodoScenario): Promise<RecordedCommand[]> {
  const session = await RecorderSession.start({ url: baseUrl, baseUrl, viewport: { width: 1024, height: 700 }, headless: true });
  try {
    await session.activePage.getByPlaceholder(NEW_TODO).waitFor();
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

/** What the app holds after a step, in terms both versions share (not their markup). */
export interface TodoState {
  todos: Array<{ title: string; completed: boolean }>;
  route: string;
  /** The text in the new-todo field and in an open edit box (null when none is open). */
  newTodo: string;
  editing: string | null;
}

// Runs in the page after every step (source text: it is written into the workspace's step file).
const STATE_SCRIPT = `(() => {
  const stored = localStorage.getItem('rehearse-todos-v1') ?? localStorage.getItem('rehearse-todos-v2') ?? '[]';
  const todos = JSON.parse(stored).map((t) => ({ title: t.title, completed: Boolean(t.completed) }));
  const fields = [...document.querySelectorAll('input:not([type]),input[type="text"]')].filter((e) => e.getClientRects().length > 0);
  const newTodo = fields.find((e) => e.placeholder === ${JSON.stringify(NEW_TODO)});
  const edit = fields.find((e) => e.placeholder !== ${JSON.stringify(NEW_TODO)});
  return { todos, route: location.hash.replace(/^#\\/?/, '') || 'all', newTodo: newTodo ? newTodo.value : '', editing: edit ? edit.value : null };
})()`;

/** A step file that appends the app's state after every step to `stateFile`, one JSON line each. */
function stateProbe(stateFile: string): string {
  return [
    `import { appendFileSync } from 'node:fs';`,
    `import { AfterStep, Before } from '@cucumber/cucumber';`,
    `let step = 0;`,
    `Before(function () { step = 0; });`,
    `AfterStep(async function ({ pickle }) {`,
    `  const state = this.page && !this.page.isClosed() ? await this.page.evaluate(${JSON.stringify(STATE_SCRIPT)}).catch(() => null) : null;`,
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
    state: TodoState | null;
    broken: boolean;
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
  options: { positionalOnly?: boolean } = {},
): Promise<{ scenarios: ReplayedScenario[]; output: string }> {
  const files = new Map<string, string>();
  const scenarios: string[] = [];
  for (const recording of recordings) {
    const generated = generate({ scenarioName: recording.name, commands: recording.commands, existing: files });
    for (const file of generated.files) files.set(file.path, file.content);
    scenarios.push(generated.scenarioText);
  }
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
      { path: 'features/todos.feature', content: `Feature: Todos\n\n${scenarios.join('\n\n')}\n` },
      ...[...files].map(([file, content]) => ({ path: file, content })),
      { path: `${STEP_DEFINITIONS_DIR}/zz-state-probe.mjs`, content: stateProbe(stateFile) },
    ],
    baseUrl,
  );
  // A broken locator costs its command timeout before healing starts: keep it short.
  writeFileSync(path.join(dir, 'rehearse.config.json'), JSON.stringify({ screenshots: 'off', commandTimeoutMs: 1_500 }));
  const out: string[] = [];
  const sink = { write: (text: string) => out.push(text) };
  try {
    await runCli(['run', '--env', 'environments/default.json', '--headless', '--out', `${dir}/report`, ...(heal ? ['--heal'] : [])], { cwd: dir, stdout: sink, stderr: sink });
    const report = RunReport.parse(JSON.parse(readFileSync(path.join(dir, 'report', 'report.json'), 'utf8')));
    const states = new Map<string, TodoState | null>();
    for (const line of readFileSync(stateFile, 'utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { scenario: string; step: number; state: TodoState | null };
      // The confirming rerun of a healed scenario appends again: the first pass is what counts.
      const key = `${entry.scenario}#${entry.step}`;
      if (!states.has(key)) states.set(key, entry.state);
    }
    const replayed = report.testCases.map((testCase): ReplayedScenario => ({
      name: testCase.scenarioName,
      status: testCase.result.status,
      steps: testCase.steps.map((step, index) => {
        const healing = step.commands.find((command) => command.healing && command.healing.reason !== 'the element was found; the action failed');
        const source = healing?.healing?.source;
        const recorded = source ? (JSON.parse(files.get(source.file) ?? '{}') as Record<string, { fingerprint?: { text?: string; name?: string } }>)[source.key]?.fingerprint : undefined;
        const healedPrint = healing?.healing?.fingerprint as { text?: string; name?: string } | undefined;
        return {
          text: step.text,
          state: states.get(`${testCase.scenarioName}#${index}`) ?? null,
          broken: healing !== undefined,
          healed: healing?.healing?.healed ?? false,
          assertion: healing?.type.startsWith('verify_') ?? false,
          confidence: healing?.healing?.confidence ?? 0,
          reason: healing?.healing?.reason ?? '',
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
 * healed correctly when the app's state after it is the same. An assertion changes no state: a
 * healed assertion is right only when the element it chose shows the text the recorded one did.
 */
export function judge(before: ReplayedScenario[], after: ReplayedScenario[]): Array<{ scenario: string; step: string; outcome: HealOutcome; confidence: number; reason: string }> {
  const out: Array<{ scenario: string; step: string; outcome: HealOutcome; confidence: number; reason: string }> = [];
  for (const scenario of after) {
    const reference = before.find((s) => s.name === scenario.name);
    // A scenario that fails where it was recorded says nothing about healing.
    if (reference?.status !== 'PASSED') continue;
    scenario.steps.forEach((step, index) => {
      if (!step.broken) return;
      const expected = reference?.steps[index]?.state;
      const sameState = expected !== undefined && step.state !== null && JSON.stringify(step.state) === JSON.stringify(expected);
      const same = sameState && (!step.assertion || (step.healedText !== undefined && step.healedText === step.recordedText));
      const outcome: HealOutcome = !step.healed ? 'not healed' : same ? 'healed correctly' : 'healed wrongly';
      out.push({ scenario: scenario.name, step: step.text, outcome, confidence: step.confidence, reason: step.reason });
    });
  }
  return out;
}
