import type { Mutation } from './mutations.js';

/**
 * Our redesign of the vanilla JS TodoMVC, as a design team would ship it: the same product and
 * behaviour (what it stores, what it shows, which key does what) in new markup. Served at
 * `/redesign/` (`startTodoMvc().urls.redesign`); the healing benchmark replays on it what was
 * recorded on the app as its authors wrote it. Written as edits of the authors' files, applied
 * like the injected bugs (each `find` must occur exactly once), so a bug from mutations.ts can be
 * applied first and the redesign ships with it. What changes, and why each change is one a real
 * redesign makes, is in the README.
 */

const edit = (id: string, file: string, find: string, replace: string, says: string): Mutation => ({
  id: `redesign: ${id}`,
  app: 'vanillajs',
  file,
  find,
  replace,
  says,
});

// Component classes instead of ids. The toggle-all is a switch: its checkbox is hidden and has
// no id, class or name; the visible label around it is what a person clicks. A row's checkbox is
// covered by its own label drawn as a round box, the usual custom-checkbox pattern.
const STYLE = `<style>
			.app__card { background: #fff; margin: 90px 0 40px; box-shadow: 0 2px 4px rgba(0,0,0,.2), 0 25px 50px rgba(0,0,0,.1); }
			.app__title { margin: 0; padding: 24px 0 8px; text-align: center; font-size: 56px; line-height: 1.2; font-weight: 200; color: #b83f45; }
			.composer__input { width: 100%; box-sizing: border-box; padding: 16px 20px; border: 0; border-bottom: 1px solid #e6e6e6; font: inherit; font-size: 22px; outline: none; }
			.tasks__toolbar { padding: 8px 16px; border-bottom: 1px solid #eee; }
			.tasks__toggle-all { display: inline-flex; align-items: center; gap: 8px; cursor: pointer; user-select: none; }
			.tasks__toggle-all .switch { position: relative; width: 32px; height: 18px; border-radius: 9px; background: #ccc; }
			.tasks__toggle-all .switch::after { content: ''; position: absolute; top: 2px; left: 2px; width: 14px; height: 14px; border-radius: 50%; background: #fff; }
			.tasks__toggle-all input:checked + .switch { background: #4caf50; }
			.tasks__toggle-all input:checked + .switch::after { left: 16px; }
			.tasks__list { margin: 0; padding: 0; list-style: none; }
			.tasks__list > li { position: relative; font-size: 20px; border-bottom: 1px solid #eee; }
			.task__view { position: relative; display: flex; align-items: center; gap: 12px; padding: 12px 16px; }
			.task__done { width: 24px; height: 24px; margin: 0; opacity: 0; }
			.task__box { position: absolute; left: 16px; top: 50%; width: 24px; height: 24px; margin-top: -12px; box-sizing: border-box; border: 2px solid #ccc; border-radius: 50%; background: #fff; cursor: pointer; }
			.task__done:checked + .task__box { border-color: #4caf50; background: #4caf50; }
			.task__title { flex: 1; white-space: pre; word-break: break-word; }
			.tasks__list > li.completed .task__title { color: #aaa; text-decoration: line-through; }
			.task__remove { display: none; width: 32px; height: 32px; color: #c18585; font-size: 22px; cursor: pointer; }
			.task__remove::after { content: '×'; }
			.tasks__list > li:hover .task__remove { display: block; }
			.task__edit { display: none; }
			.tasks__list > li.editing .task__view { display: none; }
			.tasks__list > li.editing .task__edit { display: block; width: 100%; box-sizing: border-box; padding: 12px 16px 12px 52px; border: 1px solid #999; font: inherit; font-size: 20px; }
			.tasks__footer-row { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 10px 16px; color: #777; }
			.filters { display: flex; gap: 4px; margin: 0; padding: 0; list-style: none; }
			.filters a { padding: 2px 8px; border: 1px solid transparent; border-radius: 3px; color: inherit; text-decoration: none; }
			.filters a.selected { border-color: rgba(175, 47, 47, .3); }
			.tasks__clear { cursor: pointer; }
			.credits { margin-top: 40px; text-align: center; color: #aaa; font-size: 12px; }
		</style>`;

const BODY_BEFORE = `<section id="todoapp">
			<header id="header">
				<h1>todos</h1>
				<input id="new-todo" placeholder="What needs to be done?" autofocus>
			</header>
			<section id="main">
				<input id="toggle-all" type="checkbox">
				<label for="toggle-all">Mark all as complete</label>
				<ul id="todo-list"></ul>
			</section>
			<footer id="footer">
				<span id="todo-count"></span>
				<ul id="filters">
					<li>
						<a href="#/" class="selected">All</a>
					</li>
					<li>
						<a href="#/active">Active</a>
					</li>
					<li>
						<a href="#/completed">Completed</a>
					</li>
				</ul>
				<button id="clear-completed">Clear completed</button>
			</footer>
		</section>`;

const BODY_AFTER = `<main class="app">
			<div class="app__card">
				<header class="app__header">
					<h1 class="app__title">todos</h1>
					<div class="composer">
						<input class="composer__input" placeholder="What do you need to do?" autofocus>
					</div>
				</header>
				<section class="tasks">
					<div class="tasks__toolbar">
						<label class="tasks__toggle-all"><input type="checkbox" hidden><span class="switch" aria-hidden="true"></span>Mark all as complete</label>
					</div>
					<ul class="tasks__list"></ul>
				</section>
				<footer class="tasks__footer">
					<div class="tasks__footer-row">
						<span class="tasks__count"></span>
						<ul class="filters">
							<li><a href="#/" class="selected">All tasks</a></li>
							<li><a href="#/active">Active tasks</a></li>
							<li><a href="#/completed">Completed tasks</a></li>
						</ul>
						<button class="tasks__clear" type="button">Clear completed</button>
					</div>
				</footer>
			</div>
		</main>`;

const ROW_BEFORE = `'<li data-id="{{id}}" class="{{completed}}">'
		+		'<div class="view">'
		+			'<input class="toggle" type="checkbox" {{checked}}>'
		+			'<label>{{title}}</label>'
		+			'<button class="destroy"></button>'
		+		'</div>'
		+	'</li>';`;

const ROW_AFTER = `'<li data-id="{{id}}" class="{{completed}}">'
		+		'<div class="task__view">'
		+			'<input class="task__done" id="task-done-{{id}}" type="checkbox" {{checked}}>'
		+			'<label class="task__box" for="task-done-{{id}}"></label>'
		+			'<span class="task__title">{{title}}</span>'
		+			'<button class="task__remove" type="button" title="Delete task"></button>'
		+		'</div>'
		+	'</li>';`;

const VIEW_BEFORE = `this.$todoList = qs('#todo-list');
        this.$todoItemCounter = qs('#todo-count');
        this.$clearCompleted = qs('#clear-completed');
        this.$main = qs('#main');
        this.$footer = qs('#footer');
        this.$toggleAll = qs('#toggle-all');
        this.$newTodo = qs('#new-todo');`;

const VIEW_AFTER = `this.$todoList = qs('.tasks__list');
        this.$todoItemCounter = qs('.tasks__count');
        this.$clearCompleted = qs('.tasks__clear');
        this.$main = qs('.tasks');
        this.$footer = qs('.tasks__footer');
        this.$toggleAll = qs('.tasks__toggle-all input');
        this.$newTodo = qs('.composer__input');`;

export const REDESIGN: readonly Mutation[] = [
  edit(
    'stylesheet',
    'index.html',
    '<link rel="stylesheet" href="bower_components/todomvc-common/base.css">',
    `<link rel="stylesheet" href="bower_components/todomvc-common/base.css">\n\t\t${STYLE}`,
    'a stylesheet of component classes',
  ),
  edit(
    'page',
    'index.html',
    BODY_BEFORE,
    BODY_AFTER,
    'new wrappers and classes, a new placeholder, a visible "Mark all as complete" switch, filters named "… tasks"',
  ),
  // Its own edit, so a bug placed before the credits (a backdrop left open) still applies.
  edit(
    'credits',
    'index.html',
    '<footer id="info">\n\t\t\t<p>Double-click to edit a todo</p>',
    '<footer class="credits">\n\t\t\t<p>Double-click a task to edit it</p>',
    'the credits reworded',
  ),
  edit('row', 'js/template.js', ROW_BEFORE, ROW_AFTER, "a row's checkbox drawn as its own round label, the title a span"),
  // The row's template names its id three times now; the authors' code replaces the first only.
  edit(
    'row ids',
    'js/template.js',
    "template = template.replace('{{id}}', data[i].id);",
    "template = template.split('{{id}}').join(data[i].id);",
    "each row's checkbox has an id its label points at",
  ),
  edit('view elements', 'js/view.js', VIEW_BEFORE, VIEW_AFTER, 'the view finds its elements by the new classes'),
  edit('filters', 'js/view.js', "qs('#filters .selected')", "qs('.filters .selected')", 'the highlighted filter'),
  edit('filter links', 'js/view.js', "qs('#filters [href=", "qs('.filters [href=", 'the filter to highlight'),
  edit('edit box', 'js/view.js', "input.className = 'edit';", "input.className = 'task__edit';", "a row's edit box"),
  edit('edit box found', 'js/view.js', "qs('input.edit', listItem)", "qs('input.task__edit', listItem)", "a row's edit box"),
  edit('title', 'js/view.js', "qsa('label', listItem)", "qsa('.task__title', listItem)", "the row's title after an edit"),
  ...(['blur', 'keypress', 'keyup'] as const).map((event) =>
    edit(
      `edit box ${event}`,
      'js/view.js',
      `$live('#todo-list li .edit', '${event}'`,
      `$live('.tasks__list li .task__edit', '${event}'`,
      `the edit box's ${event}`,
    ),
  ),
  edit(
    'double-click',
    'js/view.js',
    "$live('#todo-list li label', 'dblclick'",
    "$live('.tasks__list li .task__title', 'dblclick'",
    'a double-click on the title edits it',
  ),
  edit('delete', 'js/view.js', "$live('#todo-list .destroy', 'click'", "$live('.tasks__list .task__remove', 'click'", 'the delete button'),
  edit('tick', 'js/view.js', "$live('#todo-list .toggle', 'click'", "$live('.tasks__list .task__done', 'click'", "a row's checkbox"),
];
