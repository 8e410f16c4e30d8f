import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunReport } from '@rehearse/contract';
import { startTodoVersions } from '@rehearse/todo-app/testing';
import { runCli } from '../cli/index.js';
import { captureIo } from './output.js';
import { makeWorkspace } from './shop-workspace.js';

/** Both versions of the todo app on a free port, as tests and the bench drive them. */
export const startTodoApp = startTodoVersions;

/** The file the upload scenario imports, relative to the workspace. */
export const IMPORT_FILE = { path: 'fixtures/todos.txt', text: 'walk the dog\nwater the plants\npay the rent\n' };

/** Reusable steps made of built-in steps (a `.steps` file, no code) for the todo apps' new-todo field. */
export const TODO_STEPS = `Feature: Todo steps
  Steps a scenario can use as if they were built in.

  Scenario: I add the todo "<title>"
    When I fill "What needs to be done?" with "<title>"
    And I press "Enter"

  Scenario: I add the todos "<first>" and "<second>"
    When I add the todo "<first>"
    And I add the todo "<second>"
`;

/**
 * The todo list's suite, written only with built-in steps (the contract's BUILT_IN_STEPS): what a
 * QA team's public suite for the well-known todo app checks, in plain English.
 */
export const TODO_LIST_FEATURE = `Feature: Todo list

  Background:
    Given I open "/"
    When I fill "What needs to be done?" with "buy some cheese"
    And I press "Enter"
    And I fill "What needs to be done?" with "feed the cat"
    And I press "Enter" on "What needs to be done?"

  Scenario: New todos appear in order and the field empties
    Then the "todo" items should be:
      | buy some cheese |
      | feed the cat    |
    And I should see 2 "todo" items
    And "What needs to be done?" should be empty
    And the title should be "Todos · Rehearse todo app"

  Scenario: The counter says how many are left
    Then I should see "2 items left"
    When I check "feed the cat"
    Then I should see "1 item left"
    And I should not see "2 items left"

  Scenario: Checking a todo by its text ticks the checkbox of its own row
    When I check "feed the cat"
    Then "feed the cat" should be checked
    And "buy some cheese" should not be checked
    And the 2nd "list item" should have the class "completed"

  Scenario: Unchecking a todo makes it active again
    When I check "buy some cheese"
    And I uncheck "buy some cheese"
    Then "buy some cheese" should not be checked
    And I should see "2 items left"

  Scenario: A checkbox named by its row
    When I check "checkbox" in the item containing "buy some cheese"
    Then "checkbox" in the item containing "buy some cheese" should be checked
    And "checkbox" in the item containing "feed the cat" should not be checked

  Scenario: The 2nd of several look-alike checkboxes
    When I check the 2nd "checkbox" in the list containing "feed the cat"
    Then "feed the cat" should be checked
    And "buy some cheese" should not be checked

  Scenario: Todos with similar texts are told apart
    When I fill "What needs to be done?" with "feed the cat twice"
    And I press "Enter"
    And I check "feed the cat"
    Then "feed the cat" should be checked
    And "feed the cat twice" should not be checked
    And I should see 3 "todo" items

  Scenario: Double-clicking a todo edits it and Enter saves
    When I double-click "feed the cat"
    Then "textbox" in the item containing "feed the cat" should have the value "feed the cat"
    When I fill "textbox" in the item containing "feed the cat" with "feed the dog"
    And I press "Enter"
    Then the "todo" items should be:
      | buy some cheese |
      | feed the dog    |

  Scenario: Escape cancels an edit
    When I double-click "buy some cheese"
    And I fill "textbox" in the item containing "buy some cheese" with "buy some bread"
    And I press "Escape"
    Then I should see "buy some cheese"
    And I should not see "buy some bread"

  Scenario: Leaving the edit box saves the edit
    When I double-click "buy some cheese"
    And I fill "textbox" in the item containing "buy some cheese" with "buy some bread"
    And I click "What needs to be done?"
    Then the "todo" items should be:
      | buy some bread |
      | feed the cat   |

  Scenario: Emptying a todo while editing deletes it
    When I double-click "feed the cat"
    And I clear "textbox" in the item containing "feed the cat"
    And I press "Enter"
    Then I should see 1 "todo" item
    And I should not see "feed the cat"

  Scenario: The delete button appears on hover and removes its row
    Then "×" in the row containing "feed the cat" should be hidden
    When I hover over "feed the cat"
    Then "×" in the row containing "feed the cat" should be visible
    When I click "×" in the row containing "feed the cat"
    Then the "todo" items should be:
      | buy some cheese |
    And I should see "1 item left"

  Scenario: Mark all as complete, then clear them all again
    When I check "Mark all as complete"
    Then "buy some cheese" should be checked
    And "feed the cat" should be checked
    And I should see "0 items left"
    When I uncheck "Mark all as complete"
    Then "buy some cheese" should not be checked
    And "feed the cat" should not be checked

  Scenario: Clear completed removes the done todos only
    Then "Clear completed" should be hidden
    When I check "buy some cheese"
    Then "Clear completed" should be visible
    When I click "Clear completed"
    Then the "todo" items should be:
      | feed the cat |
    And "Clear completed" should be hidden

  Scenario: The Active filter is a hash route
    When I check "buy some cheese"
    And I click "Active"
    Then the URL should contain "#/active"
    And "Active" should have the class "selected"
    And the "todo" items should be:
      | feed the cat |

  Scenario: The Completed filter shows done todos only
    When I check "buy some cheese"
    And I click "Completed"
    Then the URL should be "/#/completed"
    And I should see 1 "todo" item
    And I should see "buy some cheese"
    And I should not see "feed the cat"

  Scenario: Back and forward move between filters
    When I click "Active"
    And I click "Completed"
    And I go back
    Then the URL should contain "#/active"
    And "Active" should have the class "selected"
    When I go forward
    Then the URL should contain "#/completed"

  Scenario: Todos survive a reload
    When I check "feed the cat"
    And I reload the page
    Then the "todo" items should be:
      | buy some cheese |
      | feed the cat    |
    And "feed the cat" should be checked
    And "buy some cheese" should not be checked

  Scenario: Text inside a list item
    Then I should see "feed the cat" in the 2nd "list item"
    And I should see "buy some cheese" in the 1st "list item"

  Scenario: Remember a todo and reuse it
    When I remember the text of the 1st "list item" as "first"
    And I fill "What needs to be done?" with "{{first}} again"
    And I press "Enter"
    Then I should see "buy some cheese again"
    And I should see 3 "todo" items

  Scenario: Remember what was typed
    When I fill "What needs to be done?" with "call mum"
    And I remember the value of "What needs to be done?" as "draft"
    And I clear "What needs to be done?"
    Then "What needs to be done?" should be empty
    When I fill "What needs to be done?" with "{{draft}} tonight"
    And I press "Enter"
    Then I should see "call mum tonight"

  Scenario: A row itself, its whole text, and a class it must not have
    When I check "feed the cat"
    Then the item containing "feed the cat" should have the class "completed"
    And the item containing "buy some cheese" should not have the class "completed"
    And the item containing "buy some" should have the text "buy some cheese"
    And "css=.todo-count" should have the text "1 item left"

  Scenario: Leaving a field by its focus saves an edit
    When I double-click "feed the cat"
    And I fill "textbox" in the item containing "feed the cat" with "feed the dog"
    And I blur "textbox" in the item containing "feed the cat"
    Then the "todo" items should be:
      | buy some cheese |
      | feed the dog    |
    When I focus "What needs to be done?"
    Then "What needs to be done?" should be focused

  Scenario: The list lives in local storage, and the storages and cookies can be set
    Then the local storage item "rehearse-todos-v1" should contain "feed the cat"
    When I set the session storage item "draft" to "walk the dog"
    Then the session storage item "draft" should be "walk the dog"
    When I clear the session storage
    And I set the cookie "consent" to "yes"
    Then the cookie "consent" should be "yes"
    When I clear the cookies
    And I set the local storage item "rehearse-todos-v1" to "[]"
    And I reload the page
    Then I should see 0 "todo" items
    When I clear the local storage
    And I reload the page
    Then I should not see "feed the cat"
`;

/** The tools page: what the todo list lacks (upload, select, drag, context menu, dialogs, tabs, typing, scrolling). */
export const TODO_TOOLS_FEATURE = `Feature: Todo tools

  Background:
    Given I open "tools.html"
    Then the title should contain "Tools"

  Scenario: Import todos from a file
    When I upload "${IMPORT_FILE.path}" to "Import todos"
    Then I should see "Imported 3 todos from todos.txt" in "status" in the section containing "Import"

  Scenario: Choose a sort order
    When I select "Alphabetical" from "Sort order"
    Then I should see "Sorted: Alphabetical"

  Scenario: Drag a card to Done
    When I drag "Buy milk" to "Done"
    Then I should see "Buy milk moved to Done"

  Scenario: Right-click opens the context menu
    Then "Archive" should be hidden
    When I right-click "Right-click me"
    Then "Archive" should be visible

  Scenario: Accept the confirmation
    Then "Delete everything" should be disabled
    When I check "I understand this cannot be undone"
    Then "Delete everything" should be enabled
    When I accept the next dialog
    And I click "Delete everything"
    Then the dialog should have said "Delete all todos?"
    And I should see "All todos deleted"

  Scenario: Dismiss the confirmation
    When I check "I understand this cannot be undone"
    And I dismiss the next dialog
    And I click "Delete everything"
    Then I should see "Nothing was deleted"

  Scenario: The help opens in a new tab
    Then "Open the help in a new tab" should have the attribute "target" set to "_blank"
    When I click "Open the help in a new tab"
    And I switch to the new tab
    Then the title should be "Help · Rehearse todo app"
    And I should see "Keyboard shortcuts"

  Scenario: Typing key by key fires a key event per character
    When I type "ctrl" into "Shortcut"
    Then I should see "Keystrokes: 4"
    And "Shortcut" should have the value "ctrl"
    When I clear "Shortcut"
    Then "Shortcut" should be empty

  Scenario: Scrolling to the end
    Then I should not see "You reached the end"
    When I scroll to "End of the tools"
    And I wait for "You reached the end"
    And I wait for "50"
`;

/** Scenarios each expected to fail, and the words their failure must say. */
export const TODO_FAILURES_FEATURE = `Feature: Todo failures

  Background:
    Given I open "/"
    When I fill "What needs to be done?" with "feed the cat"
    And I press "Enter"
    And I fill "What needs to be done?" with "feed the cat"
    And I press "Enter"

  Scenario: Two rows say the same: the check refuses to guess
    When I check "feed the cat"

  Scenario: A text with no checkbox beside it
    When I check "Double-click to edit a todo"

  Scenario: A failing checked assertion says what it found
    Then the 1st "feed the cat" should be checked

  Scenario: Opening a missing page fails
    When I open "no-such-page.html"

  Scenario: A wrong count says what it counted
    Then I should see 3 "todo" items

  Scenario: A whole-text check is not a substring check
    Then the 1st "feed the cat" should have the text "feed the"

  Scenario: A class the row must not have
    When I check the 1st "checkbox"
    Then the 1st "list item" should not have the class "completed"

  Scenario: A storage item that is not there
    Then the local storage item "nothing-here" should be "x"
`;

/** A workspace with these feature files, nothing but built-in steps, and the file to import. */
export function makeTodoWorkspace(baseUrl: string, features: Record<string, string>, config: Record<string, unknown> = {}): string {
  const [first, ...rest] = Object.values(features);
  const dir = makeWorkspace({ baseUrl, feature: first ?? '', steps: '', config });
  for (const [index, text] of rest.entries()) writeFileSync(path.join(dir, 'features', `todo-${index + 2}.feature`), text);
  mkdirSync(path.join(dir, path.dirname(IMPORT_FILE.path)), { recursive: true });
  writeFileSync(path.join(dir, IMPORT_FILE.path), IMPORT_FILE.text);
  return dir;
}

/**
 * Runs `rehearse run --headless` in this process on a fresh workspace of these features (and any
 * other `files`, by workspace path) against `baseUrl`, then removes it. Answers the exit code, the
 * output and the report (undefined when the run wrote none: it stopped before any scenario).
 */
export async function runTodoWorkspace(
  baseUrl: string,
  features: Record<string, string>,
  options: { config?: Record<string, unknown>; args?: string[]; files?: Record<string, string> } = {},
): Promise<{ code: number; io: ReturnType<typeof captureIo>; report: RunReport | undefined }> {
  const ws = makeTodoWorkspace(baseUrl, features, options.config);
  try {
    for (const [file, content] of Object.entries(options.files ?? {})) {
      mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
      writeFileSync(path.join(ws, file), content);
    }
    const io = captureIo();
    const out = path.join(ws, 'out');
    const code = await runCli(['run', '--out', out, '--headless', ...(options.args ?? [])], {
      cwd: ws,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    const reportFile = path.join(out, 'report.json');
    const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as RunReport) : undefined;
    return { code, io, report };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
