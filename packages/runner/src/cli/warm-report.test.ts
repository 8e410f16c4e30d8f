import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { RunReport, TestCase } from '@rehearse/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedBrowser } from '../support/world.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { captureIo } from '../testing/output.js';
import { CONSOLE_ERROR, SHOP_STEPS } from '../testing/shop-workspace.js';
import { runCli } from './index.js';
import { processIo } from './io.js';
import { runRun, SupportCache, warmUp } from './run.js';

// Issue 48, "No report field lost": what a warm runner cuts from a scenario's cost (the first
// page's ARIA snapshot remembered, the title read through CDP, a label check only where a label
// can be) must leave its report as a cold `rehearse run` writes it. The same scenario runs once
// cold and three times warm in this process; their reports must agree on every step, command,
// screenshot, network and console entry, and on the first page's snapshot.
// Which step a request is logged under is timing, not a field: a fetch the product page starts on
// the click can answer during that step or the next (stop 56 saw it under "I select"), in a cold
// run as in a warm one. So requests are compared as the scenario's one list (the report builds it
// from every step's). The same holds for the title of the click that opens the product page: the
// page is served as "Product · Trailhead Supply" and names itself after the product once its data
// arrives, so the command can end before or after (a CI run saw the cold run before, a warm one
// after); both names count as the product page's.

const FEATURE = `Feature: Warm runs
  Scenario: Add a mug to the cart
    Given I open "/"
    Then I should see "Enamel Camp Mug"
    When I click "Enamel Camp Mug"
    And I select "Navy" from "Colour"
    And I fill "Quantity" with "2"
    And I click "Add to cart"
    Then I should see "Added 2 × Enamel Camp Mug"
    And the page logs an error
`;

const shop = useDemoShopWorkspaces();
const PRODUCT_PAGE_TITLE_BEFORE_DATA = 'Product · Trailhead Supply';
const PRODUCT_PAGE_TITLE = 'Enamel Camp Mug · Trailhead Supply';

/** What a report promises of its one scenario, without what differs between two honest runs (times, ids of pictures of a moving page). */
function promised(testCase: TestCase) {
  const entries = (list: TestCase['networkLog']) =>
    list.map((entry) => `${entry.method} ${entry.requestUrl} ${entry.status} ${entry.type}${entry.failed ? ' failed' : ''}`).sort();
  return {
    status: testCase.result.status,
    steps: testCase.steps.map((step) => ({
      text: step.text,
      status: step.result.status,
      commands: step.commands.map((command) => ({
        type: command.type,
        element: command.element_name,
        value: command.value,
        title: command.info?.title === PRODUCT_PAGE_TITLE_BEFORE_DATA ? PRODUCT_PAGE_TITLE : command.info?.title,
        url: command.info?.url,
        screenshot: typeof command.screenshotId === 'string' && command.screenshotId.length === 64,
      })),
      console: step.webLog.map((entry) => `${entry.type}: ${entry.text}`),
    })),
    network: entries(testCase.networkLog),
    console: testCase.webLog.map((entry) => `${entry.type}: ${entry.text}`),
    initialAriaSnapshot: testCase.initialAriaSnapshot,
  };
}

const readCase = (out: string) => (JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport).testCases[0]!;

describe('a warm runner reports what a cold run reports', () => {
  afterAll(async () => {
    await closeSharedBrowser();
  });

  it('gives three warm runs of a scenario the report of a cold run', { timeout: 120_000 }, async () => {
    const ws = shop.workspace({ feature: FEATURE, steps: SHOP_STEPS });
    const cold = path.join(ws, 'cold');
    const io = captureIo();
    expect(await runCli(['run', '--headless', '--out', cold], { cwd: ws, stdout: io.stdout, stderr: io.stderr })).toBe(0);
    const expected = promised(readCase(cold));
    // The report is worth comparing: every command took a picture and named its page.
    expect(expected.status).toBe('PASSED');
    expect(expected.console).toEqual([`error: ${CONSOLE_ERROR}`, 'warning: Rehearse test: a warning']);
    expect(expected.initialAriaSnapshot).toContain('Enamel Camp Mug');
    const commands = expected.steps.flatMap((step) => step.commands);
    // One command per plain-English step; the step that logs has none.
    expect(commands).toHaveLength(7);
    for (const command of commands)
      expect(command).toMatchObject({ screenshot: true, title: expect.stringMatching(/ · Trailhead Supply$/) });

    const scratch = mkdtempSync(path.join(ws, 'support-'));
    const cache = new SupportCache(scratch);
    const warmIo = { ...processIo(), ...captureIo(), cwd: ws };
    await warmUp(ws, warmIo, cache);
    for (let run = 1; run <= 3; run++) {
      const out = path.join(ws, `warm-${run}`);
      const result = await runRun(['--headless', '--out', out], warmIo, { keepBrowser: true, supportCache: cache });
      expect(result.exitCode).toBe(0);
      expect(promised(readCase(out)), `warm run ${run}`).toEqual(expected);
    }
    rmSync(scratch, { recursive: true, force: true });
  });
});
