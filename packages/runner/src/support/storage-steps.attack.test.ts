import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RunReport } from '@rehearse/contract';
import { DEMO_SHOP_USER } from '@rehearse/demo-shop';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/index.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { captureIo, filesContaining } from '../testing/output.js';

/**
 * The storage and cookie steps (issue 43 item 4) in the hands of a hostile scenario writer: a
 * secret put into the page's storage or a cookie, then read back by a failing assertion, must not
 * come out in any report file; what one scenario leaves in the browser is gone in the next (a
 * worker runs several projects' scenarios in one browser); a cookie cannot be set for no page.
 */

const SECRET = DEMO_SHOP_USER.password;
const TEST_DATA = [{ key: 'password', value: SECRET, DataType: 'secret' as const }];

const FEATURE = `Feature: Storage in hostile hands

  Scenario: A secret stored, then read back by an assertion meant to fail
    Given I open "/"
    When I set the local storage item "token" to "{{password}}"
    And I set the cookie "session" to "{{password}}"
    Then the local storage item "token" should be "not the password"

  Scenario: A cookie read back by an assertion meant to fail
    Given I open "/"
    When I set the cookie "session" to "{{password}}"
    Then the cookie "session" should be "not the password"

  Scenario: The next scenario finds nothing the last one left
    Given I open "/"
    Then the cookie "session" should be "{{password}}"

  Scenario: Nor in the page's storage
    Given I open "/"
    Then the local storage item "token" should be "{{password}}"

  Scenario: A cookie before any page
    When I set the cookie "session" to "x"
`;

const shop = useDemoShopWorkspaces();

describe('storage and cookie steps against a hostile scenario', () => {
  let out: string;
  let code: number;
  let report: RunReport;

  beforeAll(async () => {
    const ws = shop.workspace({ feature: FEATURE, data: TEST_DATA, config: { screenshots: 'off', commandTimeoutMs: 1_500 } });
    out = path.join(ws, 'out');
    const io = captureIo();
    code = await runCli(['run', '--data', 'test-data.json', '--out', out, '--headless'], { cwd: ws, stdout: io.stdout, stderr: io.stderr });
    report = RunReport.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
  }, 120_000);

  const messageOf = (name: string) => report.testCases.find((testCase) => testCase.scenarioName === name)?.result.message ?? '';

  it('fails every one of them, each saying why', () => {
    expect(code).toBe(1);
    expect(report.testCases.map((testCase) => testCase.result.status)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED', 'FAILED']);
    expect(messageOf('A secret stored, then read back by an assertion meant to fail')).toContain('The local storage item "token" is');
    expect(messageOf('A cookie read back by an assertion meant to fail')).toContain(
      'The cookie "session" is "****"; expected "not the password"',
    );
    expect(messageOf('The next scenario finds nothing the last one left')).toContain('The cookie "session" is not set for this page');
    expect(messageOf("Nor in the page's storage")).toContain('The local storage item "token" does not exist');
    expect(messageOf('A cookie before any page')).toContain('A cookie needs a page to belong to: open a page first');
  });

  it('never writes the secret into a report file, a failure message included', () => {
    expect(filesContaining(out, SECRET)).toEqual([]);
  });
});
