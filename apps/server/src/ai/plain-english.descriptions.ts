/**
 * Thirty descriptions of tests for the bundled todo app, written the way QA engineers type them
 * into "Create scenario" (one action per line, or several joined by commas and "then"), before
 * looking at the grammar. Each says what must come of it: a scenario that passes on the app, or a
 * refusal that names the line a person has to rephrase. The words were not tuned to the grammar:
 * where a reasonable phrasing was not understood, the grammar learnt it, or the description
 * expects a refusal because the line does not say which element it means. One description was
 * wrong about the app (it clicked the filters of an empty list, which the app hides): it now adds a
 * todo first, as its author would after the first run.
 */
export interface Description {
  name: string;
  flow: string[];
  /** The line the refusal must name; absent when the scenario must be created and pass. */
  refuses?: string;
}

const ADD = (todo: string) => `type "${todo}" into "What needs to be done?" and press Enter`;

export const TODO_DESCRIPTIONS: readonly Description[] = [
  { name: 'Add a todo', flow: ['Open the app', ADD('buy milk'), 'I should see "buy milk"', 'check that "1 item left" is displayed'] },
  {
    name: 'Count two todos',
    flow: [
      'go to the home page',
      "enter 'walk the dog' in the 'What needs to be done?' field, hit enter",
      "enter 'water the plants' in the 'What needs to be done?' field, hit enter",
      'there should be 2 "todo" items',
      'the page should show "2 items left"',
    ],
  },
  {
    name: 'Complete a todo',
    flow: [
      'open the app',
      'fill "What needs to be done?" with "pay the rent" then press enter',
      'tick "pay the rent"',
      '"pay the rent" should be checked',
      'verify that "0 items left" is shown',
    ],
  },
  {
    name: 'Uncheck a todo again',
    flow: [
      'open the app',
      'fill "What needs to be done?" with "pay the rent", press Enter',
      'check "pay the rent"',
      'uncheck "pay the rent"',
      '"pay the rent" should not be checked',
      'I should see "1 item left"',
    ],
  },
  {
    name: 'Edit a todo by double-clicking it',
    flow: ['open the app', ADD('feed the cat'), 'double click on "feed the cat"', "type ' and the dog' and press enter"],
  },
  {
    name: 'Delete a todo from its row',
    flow: [
      'open the app',
      ADD('old todo'),
      'hover over "old todo"',
      'click the "×" button',
      'I should not see "old todo"',
      'I should see 0 "todo" items',
    ],
  },
  {
    name: 'Mark every todo complete',
    flow: [
      'open the app',
      ADD('wash up'),
      ADD('dry up'),
      'click "Mark all as complete"',
      '"wash up" should be ticked',
      '"dry up" should be ticked',
      'I should see "0 items left"',
    ],
  },
  {
    name: 'Clear the completed todos',
    flow: [
      'open the app',
      ADD('buy bread'),
      ADD('buy eggs'),
      'tick "buy bread"',
      'click on "Clear completed"',
      'I shouldn\'t see "buy bread"',
      'I should still see "buy eggs"',
      '"Clear completed" should be hidden',
    ],
  },
  {
    name: 'Filter the active todos',
    flow: [
      'open the app',
      ADD('done already'),
      ADD('still to do'),
      'check "done already"',
      'click the "Active" link',
      'the url should contain "#/active"',
      'I should not see "done already"',
      'I should see "still to do"',
    ],
  },
  {
    name: 'Filter the completed todos',
    flow: [
      'open the app',
      ADD('done already'),
      ADD('still to do'),
      'check "done already"',
      'select the "Completed" filter',
      'the address should be "/#/completed"',
      'there should be 1 "todo" item',
    ],
  },
  { name: 'Todos survive a reload', flow: ['open the app', ADD('remember me'), 'refresh the page', 'I should still see "remember me"'] },
  {
    name: 'Back and forward between filters',
    flow: [
      'open the app',
      ADD('walk the dog'),
      'click "Active", then click "Completed"',
      'go back',
      'the address should contain "#/active"',
      'go forward',
      'URL should contain "completed"',
    ],
  },
  { name: 'The page title', flow: ['open the app', 'the page title should be "Todos · Rehearse todo app"'] },
  {
    name: 'The new-todo field empties after adding',
    flow: ['open the app', ADD('tidy the desk'), 'the "What needs to be done?" field should be empty'],
  },
  {
    name: 'Clear completed appears once a todo is done',
    flow: [
      'open the app',
      ADD('water the plants'),
      '"Clear completed" should not be visible',
      'tick "water the plants"',
      '"Clear completed" should be visible',
    ],
  },
  {
    name: 'Sort the todos',
    flow: ['go to "tools.html"', 'choose "Alphabetical" from the "Sort order" dropdown', 'I should see "Sorted: Alphabetical"'],
  },
  {
    name: 'Import todos from a file',
    flow: ['open tools.html', 'upload "fixtures/todos.txt" to "Import todos"', 'I should see "Imported 3 todos from todos.txt"'],
  },
  { name: 'Drag a card to Done', flow: ['open tools.html', 'drag "Buy milk" onto "Done"', 'I should see "Buy milk moved to Done"'] },
  {
    name: 'Open the context menu',
    flow: ['open tools.html', 'right click on "Right-click me"', 'the "Rename" menu item should be visible'],
  },
  {
    name: 'Confirm deleting everything',
    flow: [
      'open tools.html',
      'tick "I understand this cannot be undone"',
      'accept the confirmation',
      'click "Delete everything"',
      'I should see "All todos deleted"',
    ],
  },
  {
    name: 'Cancel deleting everything',
    flow: [
      'open tools.html',
      'check "I understand this cannot be undone"',
      'cancel the dialog',
      'press the "Delete everything" button',
      'verify "Nothing was deleted" is shown',
    ],
  },
  {
    name: 'Delete stays disabled until confirmed',
    flow: [
      'open tools.html',
      'the "Delete everything" button should be disabled',
      'check "I understand this cannot be undone"',
      '"Delete everything" should be enabled',
    ],
  },
  {
    name: 'Help opens in a new tab',
    flow: [
      'open tools.html',
      'click the "Open the help in a new tab" link',
      'switch to the new tab',
      'the title should contain "Help"',
      'I should see "Keyboard shortcuts"',
    ],
  },
  {
    name: 'Typing a shortcut counts keystrokes',
    flow: ['open tools.html', 'type "ctrl" into "Shortcut"', 'I should see "Keystrokes: 4"', '"Shortcut" should have the value "ctrl"'],
  },
  {
    name: 'Scroll to the end of the tools',
    flow: ['open tools.html', 'scroll down to "End of the tools"', 'wait until "You reached the end" appears'],
  },
  {
    name: 'Clear a field',
    flow: ['open tools.html', 'type "abc" into "Shortcut"', 'clear the "Shortcut" field', 'the "Shortcut" field should be empty'],
  },
  {
    name: 'Wait a moment, then check the counter',
    flow: ['open the app', ADD('be patient'), 'wait 1 second', 'I expect to see "1 item left"'],
  },
  { name: 'A vague check', flow: ['open the app', 'make sure everything looks right'], refuses: 'make sure everything looks right' },
  {
    name: 'Add a todo the short way',
    flow: ['open the app', 'add a todo called "call mum"', 'I should see "call mum"'],
  },
  {
    name: 'Uncheck without a name',
    flow: ['open the app', ADD('pay the rent'), 'check "pay the rent"', 'then untick it'],
  },
];
