import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTodoWorkspace } from '../testing/todo-suite.js';

/**
 * A check judges the page after the app has run what the last action queued. A click on a hash
 * link changes the address at once and the app redraws in a `hashchange` task after it; a check
 * that ran in between passed on the page as it was. Seen on TodoMVC with an edit the app had not
 * saved (the edit shown, the redraw from its data losing it): 3 of 25 runs passed under load.
 * Here the app draws the old words, and replaces them only in its `hashchange` handler.
 */
const PAGE = `<!doctype html><title>Hash app</title>
<p id="words">old words</p><a href="#/next">Next</a>
<script>addEventListener('hashchange', () => { document.getElementById('words').textContent = 'new words'; });</script>`;
/** An app that replaced the timers the wait uses with ones that never fire (a hostile or broken page). */
const FROZEN_TIMERS = `<!doctype html><title>Frozen timers</title><p>still here</p>
<script>window.setTimeout = () => 0; window.requestAnimationFrame = () => 0;</script>`;

describe('checks after a hash-route click', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(request.url === '/frozen' ? FROZEN_TIMERS : PAGE),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('judge the page the click led to: the words it replaced are not seen, every time', async () => {
    const scenario = (index: number, expected: string) => `  Scenario: After the click ${index}
    Given I open "/"
    When I click "Next"
    Then I should see "${expected}"`;
    const feature = `Feature: Hash route\n\n${Array.from({ length: 10 }, (_, index) => scenario(index, 'old words')).join('\n\n')}\n\n${scenario(10, 'new words')}\n`;
    const { report } = await runTodoWorkspace(
      baseUrl,
      { 'hash.feature': feature },
      { config: { screenshots: 'off', trace: 'off', commandTimeoutMs: 1_000 } },
    );
    const statuses = Object.fromEntries((report?.testCases ?? []).map((testCase) => [testCase.scenarioName, testCase.result]));
    for (let index = 0; index < 10; index++) {
      expect(statuses[`After the click ${index}`]?.status).toBe('FAILED');
      expect(statuses[`After the click ${index}`]?.message).toContain('The page does not show "old words"');
    }
    expect(statuses['After the click 10']?.status).toBe('PASSED');
  }, 120_000);

  it('still check a page whose timers never fire, on time', async () => {
    const feature = `Feature: Frozen timers

  Scenario: Seen
    Given I open "/frozen"
    Then I should see "still here"

  Scenario: Not there
    Given I open "/frozen"
    Then I should see "gone words"
`;
    const { report } = await runTodoWorkspace(
      baseUrl,
      { 'frozen.feature': feature },
      { config: { screenshots: 'off', trace: 'off', commandTimeoutMs: 1_000 } },
    );
    const statuses = Object.fromEntries((report?.testCases ?? []).map((testCase) => [testCase.scenarioName, testCase.result]));
    expect(statuses['Seen']?.status).toBe('PASSED');
    expect(statuses['Not there']?.status).toBe('FAILED');
    expect(statuses['Not there']?.message).toContain('The page does not show "gone words"');
  }, 60_000);
});
