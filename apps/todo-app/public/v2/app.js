// Version 2 of the todo app: the same behaviour and visible text as version 1, rewritten the way a
// framework port would be — rendered into #root from a state object, other class names, extra
// wrappers, ids, the footer's parts in another order and the edit box replacing the row.
(function () {
  'use strict';
  var STORAGE_KEY = 'rehearse-todos-v2';
  var root = document.getElementById('root');
  var state = { todos: read(), editing: null };
  var uid = state.todos.reduce(function (max, t) { return Math.max(max, t.id); }, 0) + 1;

  function read() {
    try {
      var stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || '[]');
      return Array.isArray(stored) ? stored.filter(function (t) { return t && typeof t.title === 'string'; }) : [];
    } catch (e) {
      return [];
    }
  }

  function h(tag, props, children) {
    var el = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (key.slice(0, 2) === 'on') el.addEventListener(key.slice(2).toLowerCase(), value);
      else if (key === 'className') el.className = value;
      else if (key === 'checked' || key === 'value' || key === 'textContent') el[key] = value;
      else if (value !== false && value !== undefined) el.setAttribute(key, value === true ? '' : value);
    });
    (children || []).forEach(function (child) { if (child) el.append(child); });
    return el;
  }

  function route() {
    var hash = location.hash.replace(/^#\/?/, '');
    return hash === 'active' || hash === 'completed' ? hash : 'all';
  }

  function setState(change) {
    Object.assign(state, change);
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state.todos));
    render();
  }

  function update(todo, change) {
    return state.todos.map(function (t) { return t === todo ? Object.assign({}, t, change) : t; });
  }

  function without(todo) {
    return state.todos.filter(function (t) { return t !== todo; });
  }

  function TodoItem(todo) {
    if (state.editing === todo.id) {
      var finished = false;
      var finish = function (keep, value) {
        if (finished) return;
        finished = true;
        if (!keep) return setState({ editing: null });
        var title = value.trim();
        setState({ editing: null, todos: title ? update(todo, { title: title }) : without(todo) });
      };
      var box = h('input', {
        className: 'item-edit-input',
        id: 'edit-' + todo.id,
        value: todo.title,
        onKeydown: function (event) {
          if (event.key === 'Enter') finish(true, box.value);
          else if (event.key === 'Escape') finish(false, box.value);
        },
        onBlur: function () { finish(true, box.value); },
      });
      return h('li', { className: 'item is-editing', id: 'item-' + todo.id }, [h('div', { className: 'item-edit' }, [box])]);
    }
    return h('li', { className: 'item' + (todo.completed ? ' is-done' : ''), id: 'item-' + todo.id }, [
      h('div', { className: 'item-row' }, [
        h('div', { className: 'cell' }, [
          h('input', {
            className: 'item-toggle',
            type: 'checkbox',
            checked: todo.completed,
            onChange: function (event) { setState({ todos: update(todo, { completed: event.target.checked }) }); },
          }),
        ]),
        h('div', { className: 'cell grow' }, [
          h('label', { className: 'item-title', textContent: todo.title, onDblclick: function () { setState({ editing: todo.id }); } }),
        ]),
        h('button', { className: 'item-remove', type: 'button', textContent: '×', onClick: function () { setState({ todos: without(todo) }); } }),
      ]),
    ]);
  }

  function render() {
    var todos = state.todos;
    var current = route();
    var left = todos.filter(function (t) { return !t.completed; }).length;
    var done = todos.length - left;
    var shown = todos.filter(function (t) { return current === 'all' || (current === 'active' ? !t.completed : t.completed); });
    var active = document.activeElement;
    var keepNewInput = active && active.id === 'todo-input' ? active : null;

    var input = keepNewInput || h('input', {
      id: 'todo-input',
      className: 'text-input',
      placeholder: 'What needs to be done?',
      autofocus: true,
    });
    var form = h('form', {
      className: 'add-form',
      onSubmit: function (event) {
        event.preventDefault();
        var title = input.value.trim();
        if (!title) return;
        input.value = '';
        setState({ todos: todos.concat([{ id: uid++, title: title, completed: false }]) });
      },
    }, [h('div', { className: 'input-wrap' }, [input])]);

    var app = h('main', { className: 'todos-shell' }, [
      h('div', { className: 'todos-header' }, [h('h1', { className: 'brand', textContent: 'todos' }), form]),
      todos.length === 0 ? null : h('div', { className: 'todos-body' }, [
        h('ul', { className: 'items', id: 'items' }, shown.map(TodoItem)),
        h('div', { className: 'toggle-all-container' }, [
          h('input', {
            id: 'toggle-all-input',
            className: 'toggle-all-checkbox',
            type: 'checkbox',
            checked: todos.length > 0 && left === 0,
            onChange: function (event) {
              var checked = event.target.checked;
              setState({ todos: todos.map(function (t) { return Object.assign({}, t, { completed: checked }); }) });
            },
          }),
          h('label', { className: 'toggle-all-label', for: 'toggle-all-input', textContent: 'Mark all as complete' }),
        ]),
      ]),
      todos.length === 0 ? null : h('div', { className: 'todos-footer' }, [
        h('nav', { className: 'filter-bar' }, [
          ['all', '#/', 'All'],
          ['active', '#/active', 'Active'],
          ['completed', '#/completed', 'Completed'],
        ].map(function (f) {
          return h('a', { className: 'filter-link' + (f[0] === current ? ' is-current' : ''), href: f[1], 'aria-current': f[0] === current ? 'page' : false, textContent: f[2] });
        })),
        h('div', { className: 'counter' }, [h('span', { className: 'counter-number', textContent: String(left) }), document.createTextNode(left === 1 ? ' item left' : ' items left')]),
        done === 0 ? null : h('button', { className: 'clear-button', type: 'button', textContent: 'Clear completed', onClick: function () { setState({ todos: todos.filter(function (t) { return !t.completed; }) }); } }),
      ]),
    ]);
    var info = h('div', { className: 'app-info' }, [
      h('p', { textContent: 'Double-click to edit a todo' }),
      h('p', {}, [document.createTextNode('Written for Rehearse in the style of '), h('a', { href: 'https://todomvc.com', textContent: 'TodoMVC' }), document.createTextNode(' · '), h('a', { href: 'tools.html', textContent: 'Tools' })]),
    ]);
    root.replaceChildren(h('div', { className: 'App' }, [app, info]));
    if (keepNewInput) keepNewInput.focus();
    var edit = root.querySelector('.item-edit-input');
    if (edit) edit.focus();
  }

  window.addEventListener('hashchange', render);
  render();
  var first = document.getElementById('todo-input');
  if (first && !state.editing) first.focus();
})();
