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
