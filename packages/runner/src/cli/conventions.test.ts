import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunReport } from '@rehearse/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/output.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { runCli } from './index.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const shop = useDemoShopWorkspaces();

function workspace(feature: string, steps: string, config: Record<string, unknown> = {}): string {
  return shop.workspace({ feature, steps, config: { screenshots: 'off', ...config } });
}

async function rehearse(ws: string, args: string[]) {
  const io = captureIo();
  const code = await runCli(['run', '--headless', '--out', 'out', ...args], { cwd: ws, stdout: io.stdout, stderr: io.stderr });
  const read = () => RunReport.parse(JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')));
  return { code, out: io.out(), err: io.err(), read };
}

/** Statuses of every step of every test case, from a messages (ndjson) file. */
function stepStatuses(file: string): string[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { testStepFinished?: { testStepResult: { status: string } } })
    .flatMap((message) => (message.testStepFinished ? [message.testStepFinished.testStepResult.status] : []));
}

describe('a cucumber-js workspace: profile, support world, custom parameter type', () => {
  const feature = `Feature: Conventions
  @smoke
  Scenario: The world and a parameter type
    Given I open "/?q=backpack"
    Then the page lists the backpack
    And the world greets "Hello from the profile"

  @wip
  Scenario: Not ready yet
    Then the page lists the tent
`;
  // The profile names its support files (Rehearse's own first, as plain cucumber-js needs it),
  // a tag filter, world parameters and a formatter of its own.
  const profile = `module.exports = {
  default: {
    import: ['node_modules/@rehearse/runner/src/support/register.ts', 'features/**/*.mjs'],
    tags: 'not @wip',
    worldParameters: { greeting: 'Hello from the profile' },
    format: ['message:profile-messages.ndjson'],
  },
  wip: { import: ['node_modules/@rehearse/runner/src/support/register.ts', 'features/**/*.mjs'], tags: '@wip' },
};
`;
  const world = `import { setWorldConstructor } from '@cucumber/cucumber';
import { RehearseWorld } from '@rehearse/runner';

class ShopWorld extends RehearseWorld {
  constructor(options) {
    super(options);
    this.greeting = options.parameters.greeting;
  }
}
setWorldConstructor(ShopWorld);
`;
  const parameterType = `import { defineParameterType } from '@cucumber/cucumber';

const NAMES = { backpack: 'Trail Backpack Mini', bottle: 'Insulated Water Bottle' };
defineParameterType({ name: 'product', regexp: /the (backpack|bottle|tent)/, transformer: (key) => NAMES[key] ?? key });
`;
  const steps = `import { Then } from '@cucumber/cucumber';

Then('the page lists {product}', async function (name) {
  await this.page.getByText(name, { exact: true }).first().waitFor({ timeout: 3000 });
});
Then('the world greets {string}', function (text) {
  if (this.greeting !== text) throw new Error('The world greets ' + this.greeting);
});
`;
  let ws: string;

  beforeAll(() => {
    ws = workspace(feature, steps);
    mkdirSync(path.join(ws, 'features', 'support'));
    writeFileSync(path.join(ws, 'features', 'support', 'world.mjs'), world);
    writeFileSync(path.join(ws, 'features', 'support', 'parameter-types.mjs'), parameterType);
    writeFileSync(path.join(ws, 'cucumber.js'), profile);
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(ws, 'node_modules'), 'dir');
  });

  it('runs under rehearse run with the profile, the world and the parameter type', async () => {
    const run = await rehearse(ws, []);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const report = run.read();
    expect(report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status])).toEqual([
      ['The world and a parameter type', 'PASSED'],
    ]);
    expect(report.testCases[0]!.steps.map((step) => step.text)).toEqual([
      'I open "/?q=backpack"',
      'the page lists the backpack',
      'the world greets "Hello from the profile"',
    ]);
    // The profile's formatter moved the messages out of the output folder.
    expect(stepStatuses(path.join(ws, 'profile-messages.ndjson'))).toContain('PASSED');
  });

  it('runs the same under upstream cucumber-js', async () => {
    const rehearsed = stepStatuses(path.join(ws, 'profile-messages.ndjson'));
    rmSync(path.join(ws, 'profile-messages.ndjson'));
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        path.join(ws, 'node_modules', '.bin', 'cucumber-js'),
        ['--format', 'summary'],
        { cwd: ws, timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '--import tsx', REHEARSE_HEADLESS: '1' } },
        (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 scenario (1 passed)');
    expect(stepStatuses(path.join(ws, 'profile-messages.ndjson'))).toEqual(rehearsed);
  });

  it('takes another profile with --profile', async () => {
    const run = await rehearse(ws, ['--profile', 'wip']);
    expect(run.code).toBe(1);
    const report = run.read();
    expect(report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status])).toEqual([['Not ready yet', 'FAILED']]);
  });
});

describe('cucumber options of rehearse run', () => {
  const feature = `Feature: Options
  Scenario: Search for the mug
    Given I open "/?q=mug"
    Then I should see "Enamel Camp Mug"
    And I note which process ran me

  Scenario: Search for the backpack
    Given I open "/?q=backpack"
    Then I should see "Trail Backpack"
    And I note which process ran me

  Scenario: Flaky search
    Given I open "/?q=mug"
    Then the first try fails
`;
  const steps = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Then } from '@cucumber/cucumber';

// Files in the workspace: this file is features/step_definitions/shop.mjs.
const workspaceFile = (name) => new URL(\`../../\${name}\`, import.meta.url);

Then('the first try fails', function () {
  const file = workspaceFile('tries.txt');
  const tries = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(tries + 1));
  if (tries === 0) throw new Error('The first try fails on purpose');
});
Then('I note which process ran me', function () {
  writeFileSync(workspaceFile(\`ran-in-\${process.pid}\`), '');
});
`;

  it('--retry 1: a scenario that fails once then passes passes the run, marked flaky with its attempts', async () => {
    const ws = workspace(feature, steps);
    const run = await rehearse(ws, ['--retry', '1', '--name', '^Flaky']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const [flaky] = run.read().testCases;
    expect(flaky).toMatchObject({ scenarioName: 'Flaky search', result: { status: 'PASSED' }, attempts: 2, flaky: true });
    expect(run.out).toContain('✓ PASSED    Options › Flaky search');
    expect(run.out).toContain('flaky: passed on attempt 2 of 2');
    expect(run.out).toContain('1 scenario: 1 passed (1 flaky), 0 failed — run PASSED');
    // Without a retry the same scenario fails the run.
    rmSync(path.join(ws, 'tries.txt'));
    expect((await rehearse(ws, ['--name', '^Flaky'])).code).toBe(1);
  });

  it('--trace on-first-retry keeps the trace of the retry of a flaky scenario, and none of a scenario that passed at once', async () => {
    const ws = workspace(feature, steps);
    const run = await rehearse(ws, ['--retry', '1', '--trace', 'on-first-retry', '--name', '^(Flaky|Search for the mug)']);
    expect(run.code).toBe(0);
    const traced = run.read().testCases.map((testCase) => [testCase.scenarioName, Boolean(testCase.traceFileId)]);
    expect(traced.sort()).toEqual([
      ['Flaky search', true],
      ['Search for the mug', false],
    ]);
  });

  it('--name is a regular expression, --scenario an exact name', async () => {
    const ws = workspace(feature, steps);
    const byRegExp = await rehearse(ws, ['--name', 'Search for the (mug|backpack)$']);
    expect(byRegExp.read().testCases.map((testCase) => testCase.scenarioName)).toEqual(['Search for the mug', 'Search for the backpack']);
    const exact = await rehearse(ws, ['--scenario', 'Search for the']);
    expect(exact.code).toBe(2);
    expect(exact.err).toContain('No scenario matched');
  });

  it('--fail-fast skips what follows the first failure', async () => {
    const ws = workspace(feature.replace('"Enamel Camp Mug"', '"Not in the shop"'), steps);
    const run = await rehearse(ws, ['--fail-fast', '--name', '^Search']);
    expect(run.code).toBe(1);
    expect(run.read().testCases.map((testCase) => testCase.result.status)).toEqual(['FAILED', 'SKIPPED']);
  });

  it('--dry-run lists undefined and ambiguous steps per scenario, with the phrasing that would run, without running anything, and exits as cucumber-js does', async () => {
    const ws = workspace(
      `Feature: Dry
  Scenario: Some steps are not ready
    Given I open "/"
    When I do something nobody wrote
    Then two definitions match this

  Scenario: The same step in another scenario
    When I do something nobody wrote
    And I tick "Remember me"
`,
      `import { Then } from '@cucumber/cucumber';
Then('two definitions match this', function () {});
Then(/^two definitions match/, function () {});
`,
    );
    const run = await rehearse(ws, ['--dry-run']);
    // cucumber-js 12 fails no dry run (shouldCauseFailure answers false for every status).
    expect(run.code).toBe(0);
    expect(existsSync(path.join(ws, 'out', 'report.json'))).toBe(false);
    expect(run.out).toContain('Undefined: When I do something nobody wrote (features/shop.feature:4 › Some steps are not ready)');
    expect(run.out).toContain('Ambiguous: Then two definitions match this (features/shop.feature:5 › Some steps are not ready)');
    expect(run.out).toContain('Undefined: When I do something nobody wrote (features/shop.feature:8 › The same step in another scenario)');
    // One word from the catalogue's phrasing: the built-in step is offered, not a JavaScript snippet.
    expect(run.out).toContain(
      'Undefined: And I tick "Remember me" (features/shop.feature:9 › The same step in another scenario)\n    Did you mean: I check "Remember me"',
    );
    expect(run.out).toContain('Dry run of 2 scenarios: 3 undefined, 1 ambiguous step');
    const ready = await rehearse(workspace(feature, steps), ['--dry-run']);
    expect(ready.code).toBe(0);
    expect(ready.out).toContain('Dry run of 3 scenarios: 0 undefined, 0 ambiguous steps');
  });

  it('says why a line is no step (a quote never closed, a container no scope names, a kind word), with its line, in the dry run and in the report; never a pass', async () => {
    const ws = workspace(
      `Feature: Bad lines
  Scenario: A quote never closed
    Given I open "/
  Scenario: A container no scope names
    When I click "Save" in the widget containing "Mug"
  Scenario: A kind word after the element
    When I click the "Search" gadget
`,
      '',
    );
    const dry = await rehearse(ws, ['--dry-run']);
    expect(dry.out).toContain(
      'Undefined: Given I open "/ (features/shop.feature:3 › A quote never closed)\n    The quote before "/" is never closed: end the value with "',
    );
    expect(dry.out).toContain(
      'Undefined: When I click "Save" in the widget containing "Mug" (features/shop.feature:5 › A container no scope names)\n    "widget" is not a container a step can name: say "in the item containing "…"" with one of item, row, list item, card, section, form, dialog, list, table, region, group',
    );
    expect(dry.out).toContain(
      'Undefined: When I click the "Search" gadget (features/shop.feature:7 › A kind word after the element)\n    Built-in steps need no kind word after an element ("gadget" after "Search"): name it by its words alone, or by its markup as "css=…" or "xpath=…"\n    Did you mean: I click "Search"',
    );
    const run = await rehearse(ws, []);
    expect(run.code).toBe(1);
    const messages = run
      .read()
      .testCases.map((testCase) => testCase.steps.find((step) => step.result.status === 'UNDEFINED')?.result.message);
    expect(messages).toEqual([
      expect.stringMatching(
        /^Undefined step: "I open "\/" \(features\/shop\.feature:3\): The quote before "\/" is never closed: end the value with "\. Did you mean: I open "\/"( \||$)/,
      ),
      expect.stringMatching(
        /^Undefined step: "I click "Save" in the widget containing "Mug"" \(features\/shop\.feature:5\): "widget" is not a container/,
      ),
      expect.stringMatching(
        /^Undefined step: "I click the "Search" gadget" \(features\/shop\.feature:7\): Built-in steps need no kind word.*\. Did you mean: I click "Search"$/,
      ),
    ]);
  });

  it('--parallel 2 runs the scenarios in worker processes, into one report', async () => {
    const ws = workspace(feature, steps);
    const run = await rehearse(ws, ['--parallel', '2', '--name', '^Search']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(
      run
        .read()
        .testCases.map((testCase) => testCase.scenarioName)
        .sort(),
    ).toEqual(['Search for the backpack', 'Search for the mug']);
    const processes = readdirSync(ws).filter((name) => name.startsWith('ran-in-'));
    // Both ran in cucumber's worker processes (which one took which is cucumber's scheduling).
    expect(processes.length).toBeGreaterThanOrEqual(1);
    expect(processes.length).toBeLessThanOrEqual(2);
    expect(processes).not.toContain(`ran-in-${process.pid}`);
  });
});
