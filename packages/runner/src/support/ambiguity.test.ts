import type { RunReport } from '@rehearse/contract';
import { mutation } from '@rehearse/todomvc/mutations';
import { startTodoMvc, TODOMVC_APPS, type TodoMvcApp } from '@rehearse/todomvc/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../browser.js';
import { runTodoWorkspace } from '../testing/todo-suite.js';
import { ElementAmbiguousError, resolveElement } from './commands.js';

/**
 * Ambiguity is never a pass, and every failure says what a QA engineer can act on (issue 43),
 * tried on TodoMVC as its authors wrote it (apps/todomvc: no test ids, unlabelled checkboxes,
 * hash routing) in two frameworks, and on a copy with a bug injected.
 */

async function run(baseUrl: string, feature: string) {
  const { code, io, report } = await runTodoWorkspace(
    baseUrl,
    { 'todos.feature': feature },
    { config: { screenshots: 'on-failure', commandTimeoutMs: 1_500 } },
  );
  return { code, io, report: report! };
}

const TWO_ALIKE = `Feature: Two todos that read alike

  Background:
    Given I open "index.html"
    When I fill "What needs to be done?" with "buy some cheese"
    And I press "Enter"
    And I fill "What needs to be done?" with "buy some milk"
    And I press "Enter"

  Scenario: Words that name one todo still find it
    Then "buy some milk" should be visible
    And "buy some bread" should be hidden

  Scenario: Two visible todos are not hidden
    Then "buy some" should be hidden

  Scenario: A double-click meant for one of two todos is refused
    When I double-click "buy some"

  Scenario: A misspelt name offers what the page has
    When I click "Actve"

  Scenario: A way of finding elements the steps do not have
    Then "id=new-todo" should be visible
`;

describe.each(TODOMVC_APPS)('on TodoMVC %s', (app: TodoMvcApp) => {
  let report: RunReport;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const served = await startTodoMvc();
    stop = () => served.app.close();
    ({ report } = await run(served.urls[app], TWO_ALIKE));
  }, 120_000);
  afterAll(() => stop?.());

  const outcome = (name: string) => {
    const testCase = report.testCases.find((candidate) => candidate.scenarioName === name);
    if (!testCase) throw new Error(`no scenario "${name}"`);
    return { status: testCase.result.status, message: testCase.result.message ?? '' };
  };

  it('passes where the words name one element', () => {
    expect(outcome('Words that name one todo still find it')).toEqual({ status: 'PASSED', message: '' });
  });

  it('fails "should be hidden" while two visible elements match, saying how many and where', () => {
    const { status, message } = outcome('Two visible todos are not hidden');
    expect(status).toBe('FAILED');
    expect(message).toMatch(/^"buy some" is still visible \(waited 1500 ms\): 2 visible elements match \(text="buy some"\): /);
    expect(message).toContain('1. <label> "buy some cheese" in <li> 1 of 2 "buy some cheese"; 2. <label> "buy some milk" in <li> 2 of 2');
  });

  it('refuses an action on one of two matches, naming how many and where first', () => {
    const { status, message } = outcome('A double-click meant for one of two todos is refused');
    expect(status).toBe('FAILED');
    expect(message).toMatch(/^2 visible elements match "buy some" \(text="buy some"\): 1\. <label> "buy some cheese" in <li> 1 of 2/);
    expect(message).toContain('Say which one: "the 2nd …", "… in the row containing …", or words only it shows.');
  });

  it('says what the page has nearest to a name it does not have', () => {
    const { status, message } = outcome('A misspelt name offers what the page has');
    expect(status).toBe('FAILED');
    expect(message).toContain('Nothing visible on the page is named "Actve". Nearest on the page: link "Active"');
  });

  it('says an unknown way of finding elements ("id=") is one, and which ways there are', () => {
    const { status, message } = outcome('A way of finding elements the steps do not have');
    expect(status).toBe('FAILED');
    expect(message).toContain(
      'Nothing visible on the page is named "id=new-todo". "id=" is not a way to find an element: a step names it by its words, or by its markup as "css=…" or "xpath=…".',
    );
  });
});

describe('a click something covers', () => {
  it("fails with Playwright's reason: what intercepts the pointer", async () => {
    const served = await startTodoMvc(mutation('overlay-left-open'));
    try {
      const { report, io } = await run(
        served.urls.vanillajs,
        `Feature: Covered\n\n  Scenario: Filter\n    Given I open "index.html"\n    When I fill "What needs to be done?" with "walk the dog"\n    And I press "Enter"\n    And I click "Active"\n`,
      );
      const [testCase] = report.testCases;
      expect(testCase!.result.status).toBe('FAILED');
      expect(testCase!.result.message).toMatch(
        /^locator\.click: Timeout 1500ms exceeded: <div class="backdrop"><\/div> intercepts pointer events$/,
      );
      expect(io.out()).toContain('intercepts pointer events');
    } finally {
      await served.app.close();
    }
  }, 60_000);
});

describe('a later candidate is used only to narrow an earlier ambiguity', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(() => browser?.close());

  const element = {
    name: 'Save',
    locators: [
      { kind: 'role' as const, role: 'button', name: 'Save' },
      { kind: 'text' as const, value: 'Save', exact: true },
    ],
  };

  it('takes the one match that is among the earlier ones, and refuses one elsewhere', async () => {
    const page = await browser.newPage();
    try {
      // Two buttons whose names contain "Save"; the exact text is one of them: a narrowing.
      await page.setContent('<button>Save</button><button>Save draft</button>');
      const log: string[] = [];
      const narrowed = await resolveElement(page, element, 500, log, (text) => text);
      expect(await narrowed.textContent()).toBe('Save');
      expect(log).toEqual(['role=button[name="Save"]: 2 visible matches', 'text="Save" exact: 1 visible match, used']);
      // Two "Save" buttons, and the exact text "Save" on a heading: acting on the heading would be a guess.
      await page.setContent('<h2>Save</h2><button aria-label="Save changes">✓</button><button aria-label="Save as">…</button>');
      const refused = await resolveElement(page, element, 500, [], (text) => text).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(ElementAmbiguousError);
      expect((refused as Error).message).toMatch(
        /^2 visible elements match "Save" \(role=button\[name="Save"\]\): 1\. <button> "Save changes"; 2\. <button> "Save as"\./,
      );
      expect((refused as Error).message).toContain('text="Save" exact: 1 visible match, not one of the 2 of role=button[name="Save"]');
    } finally {
      await page.close();
    }
  });
});
