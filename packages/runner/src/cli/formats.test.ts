import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RunReport } from '@rehearse/contract';
import { DEMO_SHOP_USER } from '@rehearse/demo-shop';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo, filesContaining, filesUnder } from '../testing/output.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { makeTodoWorkspace, startTodoApp } from '../testing/todo-suite.js';
import { runCli } from './index.js';

const TEST_DATA = [
  { key: 'email', value: DEMO_SHOP_USER.email, DataType: 'string' as const },
  { key: 'password', value: DEMO_SHOP_USER.password, DataType: 'secret' as const },
];

// Three rows, the last failing; every row types the stored password, and the failing row's
// expectation is the password itself, so it reaches a failure message too.
const OUTLINE = `Feature: Search the shop
  Scenario Outline: Search for <term>
    Given I open "login.html"
    When I fill "Password" with "{{password}}"
    And I open "/?q=<term>"
    Then I should see "<product>"

    Examples:
      | term     | product                |
      | backpack | Trail Backpack Mini    |
      | bottle   | Insulated Water Bottle |
      | tent     | {{password}}           |
`;

const shop = useDemoShopWorkspaces();

describe("rehearse run writes cucumber's own formatters, redacted", () => {
  let out: string;
  let code: number;
  let io: ReturnType<typeof captureIo>;
  const read = (file: string) => readFileSync(path.join(out, file), 'utf8');

  beforeAll(async () => {
    const ws = shop.workspace({ feature: OUTLINE, data: TEST_DATA, config: { screenshots: 'on-failure' } });
    out = path.join(ws, 'out');
    io = captureIo();
    code = await runCli(['run', '--data', 'test-data.json', '--out', out, '--headless'], { cwd: ws, stdout: io.stdout, stderr: io.stderr });
  });

  it('runs the three rows, one failing', () => {
    expect(io.err()).toBe('');
    expect(code).toBe(1);
    expect(io.out()).toContain('3 scenarios: 2 passed, 1 failed — run FAILED');
  });

  it('writes JUnit XML with three uniquely named test cases and the failure', () => {
    const junit = read('junit.xml');
    const names = [...junit.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((match) => match[1]);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    expect(junit).toMatch(/<testsuite [^>]*tests="3"[^>]*failures="1"/);
    expect([...junit.matchAll(/<failure /g)]).toHaveLength(1);
    expect(junit).toContain('The page does not show');
  });

  it('writes Cucumber JSON with unique ids and line numbers', () => {
    const features = JSON.parse(read('cucumber.json')) as Array<{
      uri: string;
      elements: Array<{ id: string; line: number; steps: Array<{ line?: number; result: { status: string } }> }>;
    }>;
    const elements = features.flatMap((feature) => feature.elements);
    expect(elements).toHaveLength(3);
    expect(new Set(elements.map((element) => element.id)).size).toBe(3);
    // Each example's line is its row in the Examples table.
    expect(elements.map((element) => element.line)).toEqual([10, 11, 12]);
    for (const element of elements) expect(element.steps.filter((step) => step.line).map((step) => step.line)).toEqual([3, 4, 5, 6]);
    expect(
      elements.flatMap((element) => element.steps.map((step) => step.result.status)).filter((status) => status === 'failed'),
    ).toHaveLength(1);
  });

  it('writes a self-contained HTML report', () => {
    const html = read('report.html');
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain('Search the shop');
    expect(html).toContain('window.CUCUMBER_MESSAGES');
    // Everything inline: no script or stylesheet fetched from anywhere.
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href="(?!data:)/i);
  });

  it('writes the messages as newline-delimited JSON', () => {
    const messages = read('messages.ndjson')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.filter((message) => message.testCaseFinished)).toHaveLength(3);
    expect(messages.at(-1)).toHaveProperty('testRunFinished');
  });

  it("keeps one Playwright trace, the failed row's, named by its traceFileId, with the secret masked inside", () => {
    const report = RunReport.parse(JSON.parse(read('report.json')));
    expect(report.testCases.map((testCase) => [testCase.result.status, Boolean(testCase.traceFileId)])).toEqual([
      ['PASSED', false],
      ['PASSED', false],
      ['FAILED', true],
    ]);
    const traces = filesUnder(path.join(out, 'artifacts')).filter((file) => file.endsWith('.zip'));
    expect(traces.map((file) => path.basename(file))).toEqual([`${report.testCases[2]!.traceFileId}.zip`]);
    const entries = traceEntries(traces[0]!);
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['trace.trace', 'trace.network']));
    const actions = entries['trace.trace']!;
    // The fill is in the trace, its value masked; DOM snapshots are recorded, and no screencast:
    // a frame is a picture, where a typed secret could not be masked.
    expect(actions).toMatch(/"method":"fill"[^\n]*"value":"\*\*\*\*"/);
    expect(actions).toContain('"type":"frame-snapshot"');
    expect(actions).not.toContain('"type":"screencast-frame"');
    for (const [name, text] of Object.entries(entries)) expect([name, text.includes(DEMO_SHOP_USER.password)]).toEqual([name, false]);
  });

  it('never writes the typed secret into JUnit, JSON, HTML, messages or report.json', () => {
    const report = RunReport.parse(JSON.parse(read('report.json')));
    const fill = report.testCases[0]!.steps[1]!.commands[0]!;
    expect(fill).toMatchObject({ type: 'fill_element', value: 'secret:****' });
    const files = filesUnder(out).map((file) => path.relative(out, file));
    expect(files).toEqual(expect.arrayContaining(['report.json', 'junit.xml', 'cucumber.json', 'report.html', 'messages.ndjson']));
    expect(filesContaining(out, DEMO_SHOP_USER.password)).toEqual([]);
    expect(io.out() + io.err()).not.toContain(DEMO_SHOP_USER.password);
  });
});

/** A trace zip's entries as text (binary entries too: a secret's bytes would show in them). */
function traceEntries(zip: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(unzipSync(readFileSync(zip))).map(([name, bytes]) => [name, Buffer.from(bytes).toString('latin1')]),
  );
}

describe('--trace on keeps a trace per scenario, off keeps none', () => {
  it('writes one trace per outline row with --trace on, and none with REHEARSE_TRACE=off', { timeout: 120_000 }, async () => {
    const runs: Record<string, string[]> = {};
    for (const [name, args, env] of [
      ['on', ['--trace', 'on'], {}],
      ['off', [], { REHEARSE_TRACE: 'off' }],
    ] as const) {
      const ws = shop.workspace({ feature: OUTLINE, data: TEST_DATA, config: { screenshots: 'off' } });
      const out = path.join(ws, 'out');
      const io = captureIo();
      expect(
        await runCli(['run', '--data', 'test-data.json', '--out', out, '--headless', ...args], {
          cwd: ws,
          env: { ...process.env, ...env },
          stdout: io.stdout,
          stderr: io.stderr,
        }),
      ).toBe(1);
      const report = RunReport.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
      runs[name] = report.testCases.flatMap((testCase) => (testCase.traceFileId ? [testCase.traceFileId] : []));
      for (const id of runs[name]) expect(existsSync(path.join(out, 'artifacts', `${id}.zip`))).toBe(true);
      for (const id of runs[name])
        expect(
          Object.values(traceEntries(path.join(out, 'artifacts', `${id}.zip`))).some((text) => text.includes(DEMO_SHOP_USER.password)),
        ).toBe(false);
    }
    expect(runs.on).toHaveLength(3);
    expect(new Set(runs.on).size).toBe(3);
    expect(runs.off).toEqual([]);
  });

  it('refuses a trace policy it does not know, naming the ones it does', async () => {
    const ws = shop.workspace({ feature: OUTLINE, data: TEST_DATA });
    const io = captureIo();
    expect(await runCli(['run', '--trace', 'always', '--headless'], { cwd: ws, stdout: io.stdout, stderr: io.stderr })).toBe(2);
    expect(io.err()).toContain('--trace must be one of off, on, retain-on-failure, on-first-retry');
  });
});

describe('traces on an app not built for Rehearse (the todo app), where the page shows the secret it was given', () => {
  // A todo's text is rendered into its row and kept in localStorage: once typed, the secret is in
  // the DOM snapshots, the storage state and the screenshots, not only in the fill action.
  const SECRET = 'Zq9-todo-pin-4711';
  const FEATURE = `Feature: Private todos
  Scenario: A todo named by a secret
    Given I open "/"
    When I fill "What needs to be done?" with "{{pin}}"
    And I press "Enter"
    And I fill "What needs to be done?" with "water the plants"
    And I press "Enter"
    And I check "water the plants"
    Then I should see "2 items left"
`;
  let todo: Awaited<ReturnType<typeof startTodoApp>>;
  beforeAll(async () => {
    todo = await startTodoApp();
  });
  afterAll(async () => {
    await todo?.app.close();
  });

  it(
    'keeps the failed step, a DOM snapshot of the list and the checked row in the trace, and the secret nowhere in it',
    { timeout: 120_000 },
    async () => {
      const ws = makeTodoWorkspace(todo.v1, { todos: FEATURE });
      writeFileSync(path.join(ws, 'test-data.json'), JSON.stringify([{ key: 'pin', value: SECRET, DataType: 'secret' }]));
      const out = path.join(ws, 'out');
      const io = captureIo();
      expect(
        await runCli(['run', '--data', 'test-data.json', '--out', out, '--headless', '--trace', 'on'], {
          cwd: ws,
          stdout: io.stdout,
          stderr: io.stderr,
        }),
      ).toBe(1);
      const report = RunReport.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
      const [testCase] = report.testCases;
      expect(testCase!.steps.map((step) => step.result.status)).toEqual([
        'PASSED',
        'PASSED',
        'PASSED',
        'PASSED',
        'PASSED',
        'PASSED',
        'FAILED',
      ]);
      const entries = traceEntries(path.join(out, 'artifacts', `${testCase!.traceFileId}.zip`));
      const actions = entries['trace.trace']!;
      // Each Gherkin step is a group of the trace, the failing one included.
      expect(actions).toContain('"title":"I should see \\"2 items left\\"');
      expect(actions).toContain('"title":"I check \\"water the plants\\"');
      // The failing step polled for its text until its timeout; those waits are the runner's, not
      // the scenario's actions, and cost no snapshots: not one Evaluate in the trace.
      expect(actions).toContain('"method":"queryCount"');
      expect(actions).not.toContain('"method":"evaluateExpression"');
      // The list as the page had it: a DOM snapshot holding the todo rows and the app's own classes.
      expect(actions).toContain('"type":"frame-snapshot"');
      expect(actions).toContain('todo-list');
      expect(actions).toContain('water the plants');
      // The secret was on the page (a row's label, localStorage) and in the typed value; no entry holds it.
      for (const [name, text] of Object.entries(entries)) expect([name, text.includes(SECRET)]).toEqual([name, false]);
      expect(filesContaining(out, SECRET)).toEqual([]);
      expect(io.out() + io.err()).not.toContain(SECRET);
    },
  );
});
