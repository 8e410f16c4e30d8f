// The local recorder's panel (DESIGN §7): the recorded steps, Add assertion, Undo last and Publish,
// drawn inside the recorded page's top frame. It lives in a shadow root hung on <html> (outside
// <body>), so the page's styles do not reach it, the page's ARIA snapshot and locator counts do not
// include it, and the capture script ignores every event that comes from it (`data-rehearse-ui`).
// It holds no state of its own: the recorder sends the whole state on every change
// (`__rehearsePanelRender`) and gets actions through the `__rehearsePanel` binding, so a navigation
// that rebuilds the panel loses nothing. The one thing it does at once is arm its page for an
// assertion, so the click that follows the button never races that round trip. Plain JavaScript
// evaluated as `(source)(config)`.
/* global window, document, CSSStyleSheet */
/* eslint-disable @typescript-eslint/no-unused-expressions -- the file is one function expression */
(function installRehearsePanel(config) {
  if (window.top !== window || window.__rehearsePanelInstalled) return;
  window.__rehearsePanelInstalled = true;
  var labels = config.labels;

  var CSS_TEXT = [
    ':host{all:initial;position:fixed;bottom:12px;right:12px;z-index:2147483647;font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a}',
    '.panel{width:280px;max-height:calc(100vh - 24px);display:flex;flex-direction:column;background:#fff;border:1px solid #cbd5e1;border-radius:10px;box-shadow:0 10px 30px rgba(15,23,42,.25);overflow:hidden}',
    'header{display:flex;align-items:center;gap:8px;padding:6px 10px;background:#0f172a;color:#fff;cursor:move;user-select:none;touch-action:none}',
    'h2{font-size:13px;font-weight:600;margin:0;flex:1}',
    '.dot{width:8px;height:8px;border-radius:50%;background:#ef4444}',
    'button{font:inherit;cursor:pointer;border:1px solid #cbd5e1;background:#f8fafc;color:#0f172a;border-radius:6px;padding:4px 8px}',
    'button:hover:not(:disabled){background:#e2e8f0}button:disabled{opacity:.5;cursor:default}',
    'button:focus-visible,input:focus-visible{outline:2px solid #2563eb;outline-offset:1px}',
    'header button{background:transparent;color:#fff;border-color:#475569;padding:2px 8px}',
    'header button:hover:not(:disabled){background:#334155}',
    '.body{display:flex;flex-direction:column;min-height:0}',
    '.panel.collapsed .body{display:none}',
    'ol{margin:0;padding:6px 10px 6px 30px;overflow-y:auto;max-height:min(30vh,220px);min-height:40px}',
    'li{padding:2px 0;border-bottom:1px solid #f1f5f9;word-break:break-word}li.assertion{color:#047857}',
    'li.empty{list-style:none;margin-left:-20px;color:#64748b}',
    'section{padding:6px 10px;border-top:1px solid #e2e8f0;display:flex;flex-direction:column;gap:6px}',
    '.row{display:flex;gap:6px}.row button{flex:1}',
    // Six kinds of assertion, three to a line: the panel is 280 px wide.
    '.assertions{display:grid;grid-template-columns:repeat(3,1fr);gap:6px}',
    'button[aria-pressed=true]{background:#dbeafe;border-color:#2563eb}',
    '.label{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#475569}',
    'label{font-size:12px;color:#334155}',
    'input{font:inherit;border:1px solid #cbd5e1;border-radius:6px;padding:4px 6px;width:100%;box-sizing:border-box}',
    '.primary{background:#2563eb;border-color:#2563eb;color:#fff}.primary:hover:not(:disabled){background:#1d4ed8}',
    '.hint{font-size:12px;color:#1d4ed8;margin:0}.ok{font-size:12px;color:#047857;margin:0}.error{font-size:12px;color:#b91c1c;margin:0}',
    // The self-check after Publish: a spinner while the recording replays, then the pass or the flag.
    '[hidden]{display:none!important}',
    '.check{font-size:12px;margin:0;display:flex;gap:6px;align-items:flex-start;word-break:break-word}',
    '.check.checking{color:#334155}.check.passed{color:#047857}',
    '.check.failed,.check.error{flex-direction:column;gap:4px;color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:6px;padding:6px 8px}',
    '.check.failed .text,.check.error .text{font-weight:600}',
    '.spin{flex:none;width:10px;height:10px;margin-top:2px;border:2px solid #bfdbfe;border-top-color:#2563eb;border-radius:50%;animation:rehearse-spin .8s linear infinite}',
    '@keyframes rehearse-spin{to{transform:rotate(360deg)}}',
    '@media (prefers-reduced-motion:reduce){.spin{animation-duration:2.4s}}',
  ].join('\n');

  var state = {
    steps: [],
    featureName: '',
    scenarioName: '',
    features: [],
    assertMode: null,
    status: null,
    check: null,
    position: null,
    collapsed: false,
  };
  var host;
  var els = {};

  function ask(request) {
    try {
      return Promise.resolve(window.__rehearsePanel(request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    for (var name in attributes || {}) {
      if (name === 'text') node.textContent = attributes[name];
      else node.setAttribute(name, attributes[name]);
    }
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function build() {
    host = document.createElement('rehearse-recorder-panel');
    host.setAttribute('data-rehearse-ui', '');
    host.id = 'rehearse-recorder-panel';
    var root = host.attachShadow({ mode: 'open' });
    try {
      // A constructed sheet is not an inline <style>, so a page's style-src CSP does not block it.
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS_TEXT);
      root.adoptedStyleSheets = [sheet];
    } catch {
      root.appendChild(el('style', { text: CSS_TEXT }));
    }

    els.count = el('span', { 'aria-live': 'off' });
    els.toggle = el('button', { type: 'button', 'aria-expanded': 'true', 'aria-controls': 'rehearse-panel-body', text: labels.hide });
    els.steps = el('ol', { 'aria-label': labels.steps });
    els.visible = el('button', { type: 'button', 'data-mode': 'verifyVisible', 'aria-pressed': 'false', text: labels.assertVisible });
    els.text = el('button', { type: 'button', 'data-mode': 'verifyText', 'aria-pressed': 'false', text: labels.assertText });
    els.value = el('button', { type: 'button', 'data-mode': 'verifyValue', 'aria-pressed': 'false', text: labels.assertValue });
    els.checked = el('button', { type: 'button', 'data-mode': 'verifyChecked', 'aria-pressed': 'false', text: labels.assertChecked });
    els.counted = el('button', { type: 'button', 'data-mode': 'verifyCount', 'aria-pressed': 'false', text: labels.assertCount });
    els.listed = el('button', { type: 'button', 'data-mode': 'verifyItems', 'aria-pressed': 'false', text: labels.assertItems });
    els.classed = el('button', { type: 'button', 'data-mode': 'verifyClass', 'aria-pressed': 'false', text: labels.assertClass });
    // Not a mode: the address is taken as it is when pressed.
    els.url = el('button', { type: 'button', 'data-mode': 'verifyUrl', text: labels.assertUrl });
    els.hint = el('p', { class: 'hint', role: 'status' });
    els.undo = el('button', { type: 'button', text: labels.undo });
    els.feature = el('input', { id: 'rehearse-feature', list: 'rehearse-features', required: '', maxlength: '80', autocomplete: 'off' });
    els.featureList = el('datalist', { id: 'rehearse-features' });
    els.scenario = el('input', { id: 'rehearse-scenario', required: '', maxlength: '80', autocomplete: 'off' });
    els.publish = el('button', { type: 'submit', class: 'primary', text: labels.publish });
    els.result = el('p', { role: 'status' });
    els.check = el('div', { 'data-testid': 'recording-check', hidden: '' });
    els.form = el('form', {}, [
      el('label', { for: 'rehearse-feature', text: labels.featureName }),
      els.feature,
      els.featureList,
      el('label', { for: 'rehearse-scenario', text: labels.scenarioName }),
      els.scenario,
      els.publish,
      els.result,
      els.check,
    ]);
    var assertGroup = el('div', { class: 'assertions', role: 'group', 'aria-labelledby': 'rehearse-assert-label' }, [
      els.visible,
      els.text,
      els.value,
      els.checked,
      els.counted,
      els.listed,
      els.classed,
      els.url,
    ]);
    els.panel = el('div', { class: 'panel', role: 'complementary', 'aria-label': labels.title }, [
      el('header', {}, [el('span', { class: 'dot', 'aria-hidden': 'true' }), el('h2', { text: labels.title }), els.count, els.toggle]),
      el('div', { class: 'body', id: 'rehearse-panel-body' }, [
        els.steps,
        el('section', {}, [
          el('span', { class: 'label', id: 'rehearse-assert-label', text: labels.addAssertion }),
          assertGroup,
          els.hint,
          els.undo,
        ]),
        el('section', {}, [els.form]),
      ]),
    ]);
    root.appendChild(els.panel);

    els.toggle.addEventListener('click', function () {
      state.collapsed = !state.collapsed;
      render();
      void ask({ action: 'layout', collapsed: state.collapsed, position: state.position });
    });
    // The panel covers part of the page: its header drags it out of the way (the place is kept
    // for the next pages of the recording).
    var header = els.panel.querySelector('header');
    var drag = null;
    header.addEventListener('pointerdown', function (event) {
      if (event.target !== header && event.target.tagName !== 'H2') return;
      var box = host.getBoundingClientRect();
      drag = { dx: event.clientX - box.left, dy: event.clientY - box.top };
      header.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    header.addEventListener('pointermove', function (event) {
      if (!drag) return;
      state.position = clampPosition(event.clientX - drag.dx, event.clientY - drag.dy);
      place();
    });
    var endDrag = function () {
      if (!drag) return;
      drag = null;
      void ask({ action: 'layout', collapsed: state.collapsed, position: state.position });
    };
    header.addEventListener('pointerup', endDrag);
    header.addEventListener('pointercancel', endDrag);
    [els.visible, els.text, els.value, els.checked, els.counted, els.listed, els.classed, els.url].forEach(function (button) {
      button.addEventListener('click', function () {
        var mode = button.getAttribute('data-mode');
        var next = state.assertMode === mode ? null : mode;
        // The pick starts in this page at once, before the round trip to the recorder: a person
        // who clicks the element straight after the button (or a busy machine slow to carry the
        // request there and back) had that click recorded as a click (a CI run saw it). The
        // recorder arms the frames inside this page and sends the state back. URL is no pick: it
        // records at once.
        if (mode !== 'verifyUrl' && typeof window.__rehearseSetAssertMode === 'function') {
          window.__rehearseSetAssertMode(next);
          state.assertMode = next;
          render();
        }
        void ask({ action: 'assert', mode: next });
      });
    });
    els.undo.addEventListener('click', function () {
      void ask({ action: 'undo' });
    });
    var names = function () {
      void ask({ action: 'names', featureName: els.feature.value, scenarioName: els.scenario.value });
    };
    els.feature.addEventListener('input', names);
    els.scenario.addEventListener('input', names);
    els.form.addEventListener('submit', function (event) {
      event.preventDefault();
      void ask({ action: 'publish', featureName: els.feature.value.trim(), scenarioName: els.scenario.value.trim() });
    });
    // Keep the page's own listeners out of what happens in the panel: composed events would
    // otherwise reach the page's document/window handlers (menus that close on an outside click,
    // keyboard shortcuts) as events on the host.
    [
      'click',
      'dblclick',
      'mousedown',
      'mouseup',
      'mousemove',
      'pointerdown',
      'pointerup',
      'pointermove',
      'keydown',
      'keyup',
      'keypress',
      'input',
      'focusin',
      'focusout',
      'wheel',
      'contextmenu',
    ].forEach(function (type) {
      host.addEventListener(type, function (event) {
        event.stopPropagation();
      });
    });
    document.documentElement.appendChild(host);
  }

  function clampPosition(x, y) {
    var box = host.getBoundingClientRect();
    return {
      x: Math.round(Math.max(0, Math.min(window.innerWidth - Math.min(box.width, 80), x))),
      y: Math.round(Math.max(0, Math.min(window.innerHeight - 32, y))),
    };
  }

  function place() {
    if (!state.position) {
      host.style.removeProperty('left');
      host.style.removeProperty('top');
      host.style.removeProperty('right');
      host.style.removeProperty('bottom');
      return;
    }
    var at = clampPosition(state.position.x, state.position.y);
    host.style.setProperty('left', at.x + 'px', 'important');
    host.style.setProperty('top', at.y + 'px', 'important');
    host.style.setProperty('right', 'auto', 'important');
    host.style.setProperty('bottom', 'auto', 'important');
  }

  function render() {
    if (!host) return;
    if (!host.isConnected) document.documentElement.appendChild(host);
    var collapsed = !!state.collapsed;
    els.panel.className = collapsed ? 'panel collapsed' : 'panel';
    els.toggle.textContent = collapsed ? labels.show : labels.hide;
    els.toggle.setAttribute('aria-expanded', String(!collapsed));
    place();
    els.count.textContent = String(state.steps.length);
    els.steps.replaceChildren.apply(
      els.steps,
      state.steps.length === 0
        ? [el('li', { class: 'empty', text: labels.noSteps })]
        : state.steps.map(function (step) {
            return el('li', { class: step.assertion ? 'assertion' : '', text: step.text });
          }),
    );
    var last = els.steps.lastElementChild;
    if (last && last.scrollIntoView) last.scrollIntoView({ block: 'nearest' });
    [els.visible, els.text, els.value, els.checked, els.counted, els.listed, els.classed].forEach(function (button) {
      button.setAttribute('aria-pressed', String(state.assertMode === button.getAttribute('data-mode')));
    });
    els.hint.textContent = state.assertMode ? labels.assertHint : '';
    els.undo.disabled = state.steps.length <= 1;
    // Typed names stay as typed; the recorder's copy only fills an empty panel (after a navigation).
    if (document.activeElement !== host) {
      if (!els.feature.value) els.feature.value = state.featureName;
      if (!els.scenario.value) els.scenario.value = state.scenarioName;
    }
    els.featureList.replaceChildren.apply(
      els.featureList,
      state.features.map(function (name) {
        return el('option', { value: name });
      }),
    );
    var status = state.status;
    els.publish.disabled = state.steps.length < 2 || (status && status.kind === 'busy');
    els.result.className = status ? (status.kind === 'error' ? 'error' : status.kind === 'published' ? 'ok' : 'hint') : '';
    els.result.setAttribute('role', status && status.kind === 'error' ? 'alert' : 'status');
    els.result.textContent = status ? status.text : '';
    renderCheck(state.check);
  }

  function renderCheck(check) {
    if (!check) {
      els.check.hidden = true;
      els.check.replaceChildren();
      return;
    }
    els.check.hidden = false;
    els.check.className = 'check ' + check.kind;
    // A flag is an alert: a screen reader says it when it appears; the rest is a status.
    els.check.setAttribute('role', check.kind === 'failed' || check.kind === 'error' ? 'alert' : 'status');
    var parts = [];
    if (check.kind === 'checking') parts.push(el('span', { class: 'spin', 'aria-hidden': 'true' }));
    if (check.kind === 'passed') parts.push(el('span', { 'aria-hidden': 'true', text: '✓' }));
    parts.push(el('span', { class: 'text', text: check.text }));
    if (check.hint) parts.push(el('span', { text: check.hint }));
    els.check.replaceChildren.apply(els.check, parts);
  }

  window.__rehearsePanelRender = function (next) {
    state = next;
    render();
  };

  function start() {
    if (!document.documentElement) return;
    build();
    render();
    ask({ action: 'state' }).then(
      function (initial) {
        if (initial) window.__rehearsePanelRender(initial);
      },
      function () {
        // The binding is not there (a page the recorder does not own): no panel.
        if (host) host.remove();
      },
    );
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
});
