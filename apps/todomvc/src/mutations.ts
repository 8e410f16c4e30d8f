/** The TodoMVC implementations served, as the todomvc package ships them (see README.md). */
export const TODOMVC_APPS = ['vanillajs', 'vue'] as const;
export type TodoMvcApp = (typeof TODOMVC_APPS)[number];

/**
 * One injected bug: the text `find` in one of the app's files (which must occur exactly once)
 * replaced by `replace`. `says` is what a user of the broken app would notice.
 */
export interface Mutation {
  id: string;
  app: TodoMvcApp;
  file: string;
  find: string;
  replace: string;
  says: string;
}

/** A mutation of the vanilla JS app (`public/vanillajs/`). */
const vanilla = (id: string, file: string, find: string, replace: string, says: string): Mutation => ({
  id,
  app: 'vanillajs',
  file,
  find,
  replace,
  says,
});

/**
 * Bugs injected into the third-party TodoMVC app, each the kind a real release ships: the app
 * still loads and looks alike, and a suite that passes on it has missed the bug. Each `find` is
 * checked to occur exactly once (mutations.test.ts), so an edit of the app cannot turn a mutant
 * into the unmutated app unnoticed.
 */
export const MUTATIONS: readonly Mutation[] = [
  vanilla(
    'overlay-left-open',
    'index.html',
    '<footer id="info">',
    '<div class="backdrop" style="position:fixed;inset:0;z-index:10"></div>\n\t\t<footer id="info">',
    'a transparent backdrop left over the page swallows every click',
  ),
  vanilla(
    'counter-off-by-one',
    'js/template.js',
    "'<strong>' + activeTodos + '</strong> item'",
    "'<strong>' + (activeTodos + 1) + '</strong> item'",
    'the counter says one more item left than there is',
  ),
  vanilla(
    'counter-plural',
    'js/template.js',
    "activeTodos === 1 ? '' : 's'",
    "activeTodos === 1 ? 's' : ''",
    'the counter says "1 items left" and "2 item left"',
  ),
  vanilla(
    'counter-counts-completed',
    'js/model.js',
    'todos.completed++;',
    'todos.completed++;\n\t\t\t\t\ttodos.active++;',
    'completed todos are still counted as left',
  ),
  vanilla('add-untrimmed', 'js/model.js', 'title: title.trim(),', 'title: title,', 'a new todo keeps the spaces around its text'),
  vanilla('add-blank-allowed', 'js/controller.js', "if (title.trim() === '') {", "if (title === '') {", 'a todo of only spaces is added'),
  vanilla(
    'add-field-kept',
    'js/view.js',
    "that.$newTodo.value = '';",
    'that.$newTodo.value = that.$newTodo.value;',
    'the field keeps the text after a todo is added',
  ),
  vanilla('add-on-top', 'js/store.js', 'todos.push(updateData);', 'todos.unshift(updateData);', 'new todos go to the top of the list'),
  vanilla(
    'add-completed',
    'js/model.js',
    'title: title.trim(),\n\t\t\tcompleted: false',
    'title: title.trim(),\n\t\t\tcompleted: true',
    'new todos start completed',
  ),
  vanilla(
    'add-twice',
    'js/controller.js',
    'that.model.create(title, function () {',
    'that.model.create(title, function () {});\n\t\tthat.model.create(title, function () {',
    'Enter adds the todo twice',
  ),
  vanilla(
    'complete-wrong-row',
    'js/store.js',
    'if (todos[i].id === id) {',
    'if (todos[(i + 1) % todos.length].id === id) {',
    'ticking a todo completes the one above it',
  ),
  vanilla(
    'complete-not-saved',
    'js/controller.js',
    'that.model.update(id, { completed: completed }, function () {',
    'that.model.read(id, function () {',
    'a tick is shown but not saved',
  ),
  vanilla(
    'complete-not-struck',
    'js/view.js',
    "listItem.className = completed ? 'completed' : '';",
    "listItem.className = '';",
    'a completed todo is not marked completed in the list',
  ),
  vanilla(
    'uncheck-ignored',
    'js/view.js',
    'id: that._itemId(this),\n                    completed: this.checked',
    'id: that._itemId(this),\n                    completed: true',
    'unticking a todo leaves it completed',
  ),
  vanilla(
    'delete-other-row',
    'js/store.js',
    'if (todos[i].id == id) {',
    'if (todos[(i + 1) % todos.length].id == id) {',
    'deleting a todo deletes the one above it',
  ),
  vanilla('delete-not-saved', 'js/store.js', 'todos.splice(i, 1);', 'todos.slice(i, 1);', 'a deleted todo comes back'),
  vanilla('delete-button-gone', 'js/template.js', '<button class="destroy"></button>', '', 'rows have no delete button'),
  vanilla(
    'edit-not-saved',
    'js/controller.js',
    'that.model.update(id, {title: title}, function () {',
    'that.model.read(id, function () {',
    'an edit is shown but not saved',
  ),
  vanilla(
    'edit-label-stale',
    'js/view.js',
    'label.textContent = title;',
    'label.textContent = label.textContent;',
    'an edit is saved but the row still shows the old text',
  ),
  vanilla(
    'edit-emptied-kept',
    'js/controller.js',
    '} else {\n\t\t\tthat.removeItem(id);',
    '} else {\n\t\t\tthat.editItemCancel(id);',
    'emptying a todo while editing keeps it instead of deleting it',
  ),
  vanilla(
    'escape-saves',
    'js/view.js',
    'this.dataset.iscanceled = true;',
    "this.dataset.iscanceled = '';",
    'Escape saves the edit instead of cancelling it',
  ),
  vanilla(
    'enter-ignored-on-edit',
    'js/view.js',
    'if (event.keyCode === that.ENTER_KEY) {',
    'if (event.keyCode === that.ENTER_KEY + 1) {',
    'Enter does not finish an edit',
  ),
  vanilla(
    'double-click-ignored',
    'js/view.js',
    "$live('#todo-list li label', 'dblclick'",
    "$live('#todo-list li label', 'dblclick-never'",
    'double-clicking a todo does not open it for editing',
  ),
  vanilla(
    'active-filter-shows-all',
    'js/controller.js',
    'that.model.read({ completed: false }, function (data) {',
    'that.model.read(function (data) {',
    'the Active filter shows completed todos too',
  ),
  vanilla(
    'completed-filter-shows-active',
    'js/controller.js',
    "that.model.read({ completed: true }, function (data) {\n\t\t\tthat.view.render('showEntries', data);",
    "that.model.read({ completed: false }, function (data) {\n\t\t\tthat.view.render('showEntries', data);",
    'the Completed filter shows the active todos',
  ),
  vanilla(
    'filter-highlight-stuck',
    'js/view.js',
    "qs('#filters [href=\"#/' + currentPage + '\"]').className = 'selected';",
    "qs('#filters [href=\"#/\"]').className = 'selected';",
    'the All filter stays highlighted whichever filter is shown',
  ),
  vanilla(
    'filters-ignore-address',
    'js/app.js',
    "$on(window, 'hashchange', setView);",
    '',
    'choosing a filter (or going back) changes the address but not the list',
  ),
  vanilla(
    'clear-completed-removes-active',
    'js/controller.js',
    'that.model.read({ completed: true }, function (data) {\n\t\t\tdata.forEach(function (item) {\n\t\t\t\tthat.removeItem(item.id);',
    'that.model.read({ completed: false }, function (data) {\n\t\t\tdata.forEach(function (item) {\n\t\t\t\tthat.removeItem(item.id);',
    '"Clear completed" deletes the active todos',
  ),
  vanilla(
    'clear-completed-late',
    'js/controller.js',
    'visible: todos.completed > 0',
    'visible: todos.completed > 1',
    '"Clear completed" shows only from two completed todos',
  ),
  vanilla(
    'clear-completed-miscounts',
    'js/template.js',
    "'Clear completed (' + completedTodos + ')'",
    "'Clear completed (' + (completedTodos + 1) + ')'",
    '"Clear completed" counts one more than there is',
  ),
  vanilla(
    'toggle-all-first-only',
    'js/controller.js',
    'data.forEach(function (item) {\n\t\t\t\tthat.toggleComplete(item.id, completed, true);',
    'data.slice(0, 1).forEach(function (item) {\n\t\t\t\tthat.toggleComplete(item.id, completed, true);',
    '"Mark all as complete" completes only the first todo',
  ),
  vanilla(
    'toggle-all-state',
    'js/controller.js',
    '{checked: todos.completed === todos.total}',
    '{checked: todos.completed > 0}',
    '"Mark all as complete" shows ticked once any todo is done',
  ),
  vanilla(
    'one-todo-hidden',
    'js/controller.js',
    '{visible: todos.total > 0}',
    '{visible: todos.total > 1}',
    'the list and its footer stay hidden while there is one todo',
  ),
  vanilla('not-persisted', 'js/store.js', 'if (!localStorage[name]) {', 'if (true) {', 'todos are gone after a reload'),
];

/** The mutation of this id; throws for an unknown one, so a test cannot silently run the unmutated app. */
export function mutation(id: string): Mutation {
  const found = MUTATIONS.find((each) => each.id === id);
  if (!found) throw new Error(`No mutation "${id}"`);
  return found;
}
