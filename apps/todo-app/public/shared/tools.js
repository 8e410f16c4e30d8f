// The tools page gives the step library what a todo list lacks: a file upload, a select, drag and
// drop, a context menu, a confirm dialog, a disabled button, key-by-key typing and a long scroll.
(function () {
  'use strict';
  var $ = function (selector) { return document.querySelector(selector); };

  $('#import-file').addEventListener('change', function (event) {
    var file = event.target.files[0];
    if (!file) return;
    file.text().then(function (text) {
      var lines = text.split('\n').filter(function (line) { return line.trim(); });
      $('#import-result').textContent = 'Imported ' + lines.length + ' todos from ' + file.name;
    });
  });

  $('#sort').addEventListener('change', function (event) {
    $('#sort-result').textContent = 'Sorted: ' + event.target.selectedOptions[0].textContent;
  });

  $('#card-milk').addEventListener('dragstart', function (event) {
    event.dataTransfer.setData('text/plain', event.target.id);
  });
  var done = $('#done-column');
  done.addEventListener('dragover', function (event) { event.preventDefault(); });
  done.addEventListener('drop', function (event) {
    event.preventDefault();
    var card = document.getElementById(event.dataTransfer.getData('text/plain'));
    if (!card) return;
    done.append(card);
    $('#board-result').textContent = card.textContent + ' moved to Done';
  });

  // Priorities reorder with pointer events, as sortable-list libraries do (no HTML5 drag and
  // drop): the item follows the pointer and lands before the item it is released over.
  var list = $('#priorities');
  var dragging = null;
  list.addEventListener('pointerdown', function (event) {
    var item = event.target.closest('li');
    if (!item) return;
    dragging = { item: item, x: event.clientX, y: event.clientY };
    item.classList.add('dragging');
    item.setPointerCapture(event.pointerId);
  });
  list.addEventListener('pointermove', function (event) {
    if (!dragging) return;
    dragging.item.style.transform = 'translate(' + (event.clientX - dragging.x) + 'px, ' + (event.clientY - dragging.y) + 'px)';
  });
  list.addEventListener('pointerup', function (event) {
    if (!dragging) return;
    var item = dragging.item;
    dragging = null;
    item.classList.remove('dragging');
    item.style.transform = '';
    var over = document.elementsFromPoint(event.clientX, event.clientY).filter(function (el) { return el.tagName === 'LI' && el !== item && list.contains(el); })[0];
    if (!over) return;
    list.insertBefore(item, over);
    $('#priorities-result').textContent = 'Order: ' + Array.prototype.map.call(list.children, function (li) { return li.textContent; }).join(', ');
  });

  $('#context-card').addEventListener('contextmenu', function (event) {
    event.preventDefault();
    $('.menu').hidden = false;
  });

  $('#confirm-box').addEventListener('change', function (event) {
    $('#delete-all').disabled = !event.target.checked;
  });
  $('#delete-all').addEventListener('click', function () {
    var sure = window.confirm('Delete all todos?');
    $('#danger-result').textContent = sure ? 'All todos deleted' : 'Nothing was deleted';
  });

  var keystrokes = 0;
  $('#shortcut').addEventListener('keydown', function () {
    keystrokes += 1;
    $('#keystrokes').textContent = 'Keystrokes: ' + keystrokes;
  });

  new IntersectionObserver(function (entries) {
    if (entries.some(function (entry) { return entry.isIntersecting; })) $('#end-seen').textContent = 'You reached the end';
  }).observe($('#end-title'));
})();
