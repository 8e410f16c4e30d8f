// A TodoMVC-style todo list in plain JavaScript: rows carry no test ids and their checkboxes no
// labels, as in the well-known app; the state lives in localStorage and the filter in the hash.
(function () {
  'use strict';
  var STORAGE_KEY = 'rehearse-todos-v1';
  var ENTER = 'Enter';
  var ESCAPE = 'Escape';

  var todos = load();
  var nextId = todos.reduce(function (max, todo) { return Math.max(max, todo.id); }, 0) + 1;

  var newTodo = document.querySelector('.new-todo');
  var main = document.querySelector('.main');
  var toggleAll = document.querySelector('.toggle-all');
  var list = document.querySelector('.todo-list');
  var footer = document.querySelector('.footer');
  var count = document.querySelector('.todo-count');
  var clearCompleted = document.querySelector('.clear-completed');

  function load() {
    try {
      var stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || '[]');
      return Array.isArray(stored) ? stored.filter(function (t) { return t && typeof t.title === 'string'; }) : [];
    } catch (e) {
      return [];
    }
  }

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));
  }

  function filter() {
    var hash = location.hash.replace(/^#\/?/, '');
    return hash === 'active' || hash === 'completed' ? hash : 'all';
  }

  function visible(todo) {
    var f = filter();
    return f === 'all' || (f === 'active' ? !todo.completed : todo.completed);
  }

  function rowOf(todo) {
    var li = document.createElement('li');
    li.dataset.id = String(todo.id);
    if (todo.completed) li.className = 'completed';
    var view = document.createElement('div');
    view.className = 'view';
    var toggle = document.createElement('input');
    toggle.className = 'toggle';
    toggle.type = 'checkbox';
    toggle.checked = todo.completed;
    toggle.addEventListener('change', function () {
      todo.completed = toggle.checked;
      commit();
    });
    var label = document.createElement('label');
    label.textContent = todo.title;
    label.addEventListener('dblclick', function () { edit(li, todo); });
    var destroy = document.createElement('button');
    destroy.className = 'destroy';
    destroy.textContent = '×';
    destroy.addEventListener('click', function () {
      todos = todos.filter(function (t) { return t !== todo; });
      commit();
    });
    view.append(toggle, label, destroy);
    li.append(view);
    return li;
  }

  function edit(li, todo) {
    li.classList.add('editing');
    var input = document.createElement('input');
    input.className = 'edit';
    input.value = todo.title;
    var done = false;
    function finish(save) {
      if (done) return;
      done = true;
      if (save) {
        var title = input.value.trim();
        if (title) todo.title = title;
        else todos = todos.filter(function (t) { return t !== todo; });
      }
      commit();
    }
    input.addEventListener('keydown', function (event) {
      if (event.key === ENTER) finish(true);
      else if (event.key === ESCAPE) finish(false);
    });
    input.addEventListener('blur', function () { finish(true); });
    li.append(input);
    input.focus();
  }

  function render() {
    list.replaceChildren.apply(list, todos.filter(visible).map(rowOf));
    var active = todos.filter(function (t) { return !t.completed; }).length;
    var completed = todos.length - active;
    main.hidden = todos.length === 0;
    footer.hidden = todos.length === 0;
    toggleAll.checked = todos.length > 0 && active === 0;
    count.replaceChildren();
    var strong = document.createElement('strong');
    strong.textContent = String(active);
    count.append(strong, document.createTextNode(active === 1 ? ' item left' : ' items left'));
    clearCompleted.hidden = completed === 0;
    var f = filter();
    document.querySelectorAll('.filters a').forEach(function (a) {
      var target = a.getAttribute('href').replace(/^#\/?/, '') || 'all';
      a.classList.toggle('selected', target === f);
    });
  }

  function commit() {
    save();
    render();
  }

  newTodo.addEventListener('keydown', function (event) {
    if (event.key !== ENTER) return;
    var title = newTodo.value.trim();
    if (!title) return;
    todos.push({ id: nextId++, title: title, completed: false });
    newTodo.value = '';
    commit();
  });

  toggleAll.addEventListener('change', function () {
    var checked = toggleAll.checked;
    todos.forEach(function (t) { t.completed = checked; });
    commit();
  });

  clearCompleted.addEventListener('click', function () {
    todos = todos.filter(function (t) { return !t.completed; });
    commit();
  });

  window.addEventListener('hashchange', render);
  render();
})();
