/**
 * A suite for TodoMVC's vanilla JS app (apps/todomvc), written only with built-in steps: what
 * Playwright's own demo suite for TodoMVC checks (bench/todomvc/demo-todo-app.spec.ts), said the
 * way a QA engineer would say it, plus the app's own words ("Clear completed (1)"). The mutation
 * bench runs it against each injected bug; a test runs it on the app as written and on a few bugs.
 */
export const TODOMVC_FEATURE = `Feature: TodoMVC

  Background:
    Given I open "index.html"
    When I fill "What needs to be done?" with "buy some cheese"
    And I press "Enter"
    And I fill "What needs to be done?" with "feed the cat"
    And I press "Enter"
    And I fill "What needs to be done?" with "book a doctors appointment"
    And I press "Enter"

  Scenario: New todos are listed in the order they were added, and the field empties
    Then the "todo" items should be:
      | buy some cheese            |
      | feed the cat               |
      | book a doctors appointment |
    And "What needs to be done?" should be empty
    And I should see "3 items left"

  Scenario: A todo of only spaces is not added
    When I fill "What needs to be done?" with "   "
    And I press "Enter"
    Then I should see 3 "todo" items

  Scenario: The counter counts what is left, in words
    When I check "buy some cheese"
    And I check "feed the cat"
    Then I should see "1 item left"
    When I uncheck "feed the cat"
    Then I should see "2 items left"

  Scenario: Checking a todo completes that todo and no other
    When I check "feed the cat"
    Then "feed the cat" should be checked
    And "buy some cheese" should not be checked
    And "book a doctors appointment" should not be checked
    And the item containing "feed the cat" should have the class "completed"
    And the item containing "buy some cheese" should not have the class "completed"

  Scenario: Unchecking a todo makes it active again
    When I check "buy some cheese"
    And I uncheck "buy some cheese"
    Then "buy some cheese" should not be checked
    And I should see "3 items left"

  Scenario: Mark all as complete completes every todo, and clears them again
    When I check "Mark all as complete"
    Then "buy some cheese" should be checked
    And "feed the cat" should be checked
    And "book a doctors appointment" should be checked
    And I should see "0 items left"
    When I uncheck "Mark all as complete"
    Then "buy some cheese" should not be checked
    And "book a doctors appointment" should not be checked

  Scenario: Mark all as complete follows the todos
    Then "Mark all as complete" should not be checked
    When I check "buy some cheese"
    Then "Mark all as complete" should not be checked
    When I check "feed the cat"
    And I check "book a doctors appointment"
    Then "Mark all as complete" should be checked
    When I uncheck "feed the cat"
    Then "Mark all as complete" should not be checked

  Scenario: A todo is edited by double-clicking it
    When I double-click "feed the cat"
    Then "checkbox" in the item containing "feed the cat" should be hidden
    And "textbox" in the item containing "feed the cat" should have the value "feed the cat"
    When I fill "textbox" in the item containing "feed the cat" with "buy some sausages"
    And I press "Enter"
    Then the "todo" items should be:
      | buy some cheese            |
      | buy some sausages          |
      | book a doctors appointment |

  Scenario: An edit is saved when the field loses focus, and kept after a reload
    When I double-click "feed the cat"
    And I fill "textbox" in the item containing "feed the cat" with "buy some sausages"
    And I click "todos"
    Then I should see "buy some sausages"
    When I reload the page
    Then the "todo" items should be:
      | buy some cheese            |
      | buy some sausages          |
      | book a doctors appointment |

  Scenario: Emptying a todo while editing deletes it
    When I double-click "feed the cat"
    And I clear "textbox" in the item containing "feed the cat"
    And I press "Enter"
    Then the "todo" items should be:
      | buy some cheese            |
      | book a doctors appointment |

  Scenario: Escape cancels an edit
    When I double-click "feed the cat"
    And I fill "textbox" in the item containing "feed the cat" with "buy some sausages"
    And I press "Escape"
    Then the "todo" items should be:
      | buy some cheese            |
      | feed the cat               |
      | book a doctors appointment |

  Scenario: A todo is deleted with the button of its row, and stays deleted
    When I hover over "feed the cat"
    And I click "button" in the item containing "feed the cat"
    Then the "todo" items should be:
      | buy some cheese            |
      | book a doctors appointment |
    And I should see "2 items left"
    When I reload the page
    Then the "todo" items should be:
      | buy some cheese            |
      | book a doctors appointment |

  Scenario: Clear completed removes the completed todos, then hides
    Then "Clear completed" should be hidden
    When I check "feed the cat"
    Then I should see "Clear completed (1)"
    When I click "Clear completed"
    Then the "todo" items should be:
      | buy some cheese            |
      | book a doctors appointment |
    And "Clear completed" should be hidden

  Scenario: Completed todos stay completed after a reload
    When I check "buy some cheese"
    And I reload the page
    Then "buy some cheese" should be checked
    And "feed the cat" should not be checked
    And I should see "2 items left"
    And I should see 3 "todo" items

  Scenario: The Active filter shows only what is left
    When I check "feed the cat"
    And I click "Active"
    Then the URL should contain "#/active"
    And the "todo" items should be:
      | buy some cheese            |
      | book a doctors appointment |
    And "Active" should have the class "selected"

  Scenario: The Completed filter shows only what is done
    When I check "feed the cat"
    And I click "Completed"
    Then the "todo" items should be:
      | feed the cat |
    And "Completed" should have the class "selected"

  Scenario: The filters follow the back button
    Then "All" should have the class "selected"
    When I check "feed the cat"
    And I click "Active"
    And I click "Completed"
    Then I should see 1 "todo" item
    When I go back
    Then I should see 2 "todo" items
    When I go back
    Then I should see 3 "todo" items
`;

/** One todo alone: the list and its footer show from the first todo. */
export const TODOMVC_FIRST_TODO_FEATURE = `Feature: TodoMVC's first todo

  Scenario: The first todo is listed and counted
    Given I open "index.html"
    Then I should not see "items left"
    When I fill "What needs to be done?" with "water the plants"
    And I press "Enter"
    Then the "todo" items should be:
      | water the plants |
    And I should see "1 item left"
`;
