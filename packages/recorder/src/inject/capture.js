// The recorder's in-page script (DESIGN §7). Injected into every frame before any page script
// runs; it turns user actions into commands and hands them to the recorder through the
// `__rehearseRecord` binding. Plain JavaScript evaluated as `(source)(config)`, so it must not use
// imports or helpers a bundler would add.
/* global window, document, location, Node, Element, HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement, CSS, MutationObserver */
/* eslint-disable @typescript-eslint/no-unused-expressions -- the file is one function expression */
(function installRehearseRecorder(config, visibleLines) {
  if (window.__rehearseRecorderInstalled) return;
  window.__rehearseRecorderInstalled = true;

  var SECRET_TYPES = { password: true };
  var TEXT_INPUT_TYPES = {
    '': 1,
    text: 1,
    email: 1,
    password: 1,
    search: 1,
    tel: 1,
    url: 1,
    number: 1,
    date: 1,
    'datetime-local': 1,
    month: 1,
    time: 1,
    week: 1,
  };
  var KEYS_THAT_MATTER = { Enter: 1, Escape: 1, Tab: 1 };
  var assertMode = null;

  /** `linesBefore`: the page's lines taken when the step began, where the app reacts before the step can be sent (a tick). */
  function send(command, linesBefore) {
    command.path = pagePath();
    command.url = location.href;
    command.title = document.title;
    try {
      // The page's lines as this step begins: the step before it did what changed since.
      window.__rehearseRecord(command, linesBefore || shareableLines());
    } catch {
      // A frame the recorder did not expose the binding to (about:blank during navigation).
    }
  }

  function pagePath() {
    var base = config.baseUrl || '';
    var href = location.href.split('#')[0];
    if (base && href.indexOf(base) === 0) {
      var rest = href.slice(base.length);
      return '/' + rest.replace(/^\//, '');
    }
    return location.pathname + location.search;
  }

  // ---- accessible role and name (the parts Playwright's getByRole uses) ----

  function norm(text) {
    return (text || '').replace(/\s+/g, ' ').trim();
  }

  function implicitRole(el) {
    var tag = el.tagName.toLowerCase();
    var type = (el.getAttribute('type') || '').toLowerCase();
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : null;
      case 'button':
        return 'button';
      case 'input':
        if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button';
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (type === 'number') return 'spinbutton';
        if (type === 'search') return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        if (type === 'hidden') return null;
        if (el.hasAttribute('list')) return 'combobox';
        return 'textbox';
      case 'select':
        return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea':
        return 'textbox';
      case 'option':
        return 'option';
      case 'img':
        return el.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return 'heading';
      case 'nav':
        return 'navigation';
      case 'main':
        return 'main';
      case 'form':
        return 'form';
      case 'dialog':
        return 'dialog';
      case 'table':
        return 'table';
      case 'tr':
        return 'row';
      case 'td':
        return 'cell';
      case 'th':
        return 'columnheader';
      case 'ul':
      case 'ol':
        return 'list';
      case 'li':
        return 'listitem';
      case 'header':
        return 'banner';
      case 'footer':
        return 'contentinfo';
      case 'aside':
        return 'complementary';
      case 'section':
        return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
      case 'article':
        return 'article';
      default:
        return null;
    }
  }

  function roleOf(el) {
    var explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return explicit || implicitRole(el);
  }

  function isHidden(el) {
    if (!el.isConnected) return true;
    var style = window.getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return true;
    var rect = el.getBoundingClientRect();
    return rect.width === 0 && rect.height === 0 && style.display !== 'contents';
  }

  function textAlternative(node, depth) {
    if (depth > 8) return '';
    if (node.nodeType === Node.TEXT_NODE) return node.textContent || '';
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    var el = node;
    if (el.getAttribute('aria-hidden') === 'true') return '';
    var tag = el.tagName.toLowerCase();
    if (tag === 'script' || tag === 'style' || tag === 'template') return '';
    if (depth > 0) {
      var label = el.getAttribute('aria-label');
      if (label && norm(label)) return label;
      if (tag === 'img') return el.getAttribute('alt') || '';
      if (tag === 'input' && /^(button|submit|reset)$/i.test(el.type)) return el.value || '';
      var style = window.getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') return '';
    }
    var out = '';
    for (var child = el.firstChild; child; child = child.nextSibling) {
      var part = textAlternative(child, depth + 1);
      var block = child.nodeType === Node.ELEMENT_NODE && window.getComputedStyle(child).display !== 'inline';
      out += block ? ' ' + part + ' ' : part;
    }
    return out;
  }

  function byIds(ids) {
    return ids
      .split(/\s+/)
      .map(function (id) {
        var target = document.getElementById(id);
        return target ? norm(textAlternative(target, 1)) : '';
      })
      .join(' ');
  }

  function labelsText(el) {
    if (!el.labels || el.labels.length === 0) return '';
    var parts = [];
    for (var i = 0; i < el.labels.length; i++) parts.push(norm(textOfLabel(el.labels[i], el)));
    return norm(parts.join(' '));
  }

  function textOfLabel(label, control) {
    var out = '';
    for (var child = label.firstChild; child; child = child.nextSibling) {
      if (child === control) continue;
      if (child.nodeType === Node.ELEMENT_NODE && /^(INPUT|SELECT|TEXTAREA)$/.test(child.tagName)) continue;
      out += ' ' + textAlternative(child, 1);
    }
    return out;
  }

  var NAME_FROM_CONTENT = {
    button: 1,
    link: 1,
    heading: 1,
    cell: 1,
    columnheader: 1,
    rowheader: 1,
    option: 1,
    tab: 1,
    menuitem: 1,
    menuitemcheckbox: 1,
    menuitemradio: 1,
    checkbox: 1,
    radio: 1,
    switch: 1,
    treeitem: 1,
    tooltip: 1,
    row: 1,
    listitem: 0,
  };

  function accessibleName(el) {
    var labelledby = el.getAttribute('aria-labelledby');
    if (labelledby && norm(byIds(labelledby))) return norm(byIds(labelledby));
    var ariaLabel = el.getAttribute('aria-label');
    if (ariaLabel && norm(ariaLabel)) return norm(ariaLabel);
    var tag = el.tagName.toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      var type = (el.getAttribute('type') || '').toLowerCase();
      if (tag === 'input' && /^(button|submit|reset)$/.test(type))
        return norm(el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
      if (tag === 'input' && type === 'image') return norm(el.getAttribute('alt') || el.getAttribute('title') || '');
      var fromLabel = labelsText(el);
      if (fromLabel) return fromLabel;
      if (el.getAttribute('title')) return norm(el.getAttribute('title'));
      if (el.getAttribute('placeholder')) return norm(el.getAttribute('placeholder'));
      return '';
    }
    if (tag === 'img') return norm(el.getAttribute('alt') || el.getAttribute('title') || '');
    var role = roleOf(el);
    if (role && NAME_FROM_CONTENT[role]) {
      var content = norm(textAlternative(el, 0));
      if (content) return content;
    }
    if (tag === 'fieldset') {
      var legend = el.querySelector('legend');
      if (legend) return norm(legend.textContent);
    }
    if (tag === 'table') {
      var caption = el.querySelector('caption');
      if (caption) return norm(caption.textContent);
    }
    return norm(el.getAttribute('title') || '');
  }

  // ---- locator candidates, each checked for uniqueness among visible elements ----

  function allVisible(selector) {
    var list = document.querySelectorAll(selector || '*');
    var out = [];
    for (var i = 0; i < list.length; i++) if (!isHidden(list[i])) out.push(list[i]);
    return out;
  }

  function countRoleName(role, name, exactCase) {
    var count = 0;
    var all = allVisible('*');
    for (var i = 0; i < all.length; i++) {
      if (roleOf(all[i]) !== role) continue;
      var other = accessibleName(all[i]);
      if (exactCase ? other === name : other.toLowerCase().indexOf(name.toLowerCase()) !== -1) count++;
    }
    return count;
  }

  function indexAmongRoleName(el, role, name) {
    var all = allVisible('*');
    var index = 0;
    for (var i = 0; i < all.length; i++) {
      if (all[i] === el) return index;
      if (roleOf(all[i]) === role && accessibleName(all[i]) === name) index++;
    }
    return 0;
  }

  function countWhere(predicate) {
    var all = allVisible('*');
    var count = 0;
    for (var i = 0; i < all.length; i++) if (predicate(all[i])) count++;
    return count;
  }

  function cssEscape(value) {
    return window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/[^\w-]/g, '\\$&');
  }

  function cssPath(el) {
    var parts = [];
    var node = el;
    while (node && node.nodeType === Node.ELEMENT_NODE && node !== document.documentElement) {
      if (node.id && document.querySelectorAll('#' + cssEscape(node.id)).length === 1) {
        parts.unshift('#' + cssEscape(node.id));
        break;
      }
      var tag = node.tagName.toLowerCase();
      var parent = node.parentElement;
      if (parent) {
        var same = 0;
        var position = 0;
        for (var sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
          if (sibling.tagName === node.tagName) {
            same++;
            if (sibling === node) position = same;
          }
        }
        parts.unshift(same > 1 ? tag + ':nth-of-type(' + position + ')' : tag);
      } else {
        parts.unshift(tag);
      }
      node = parent;
    }
    return parts.join(' > ');
  }

  function shortText(el) {
    var text = norm(el.innerText || el.textContent || '');
    return text.length > 200 ? text.slice(0, 200) : text;
  }

  /** Whether `o` shows exactly `text` and none of its children does (getByText's innermost match). */
  function innermostWith(o, text, textOf) {
    if (textOf(o) !== text) return false;
    for (var c = o.firstElementChild; c; c = c.nextElementSibling) if (textOf(c) === text) return false;
    return true;
  }

  function candidatesFor(el) {
    var out = [];
    var testId = el.getAttribute('data-testid');
    if (
      testId &&
      countWhere(function (o) {
        return o.getAttribute('data-testid') === testId;
      }) === 1
    ) {
      out.push({ kind: 'testId', value: testId });
    }
    var role = roleOf(el);
    var name = accessibleName(el);
    if (role && name && name.length <= 120 && countRoleName(role, name, true) === 1) {
      out.push({ kind: 'role', role: role, name: name, exact: true });
    }
    var tag = el.tagName.toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      var label = labelsText(el);
      if (
        label &&
        countWhere(function (o) {
          return o !== el && o.labels && labelsText(o) === label;
        }) === 0
      ) {
        out.push({ kind: 'label', value: label, exact: true });
      }
      var placeholder = el.getAttribute('placeholder');
      if (
        placeholder &&
        countWhere(function (o) {
          return o.getAttribute('placeholder') === placeholder;
        }) === 1
      ) {
        out.push({ kind: 'placeholder', value: placeholder, exact: true });
      }
    }
    var alt = el.getAttribute('alt');
    if (
      alt &&
      countWhere(function (o) {
        return o.getAttribute('alt') === alt;
      }) === 1
    )
      out.push({ kind: 'altText', value: alt, exact: true });
    var title = el.getAttribute('title');
    if (
      title &&
      countWhere(function (o) {
        return o.getAttribute('title') === title;
      }) === 1
    )
      out.push({ kind: 'title', value: title, exact: true });
    var text = shortText(el);
    if (text && text.length <= 80 && out.length === 0) {
      // getByText matches the innermost elements holding the text, so count elements whose own
      // text is exactly this and none of whose children is.
      var matches = countWhere(function (o) {
        return innermostWith(o, text, shortText);
      });
      // …and that one must be this element: a row whose text is its label's would be found as the label.
      if (matches === 1 && innermostWith(el, text, shortText)) out.push({ kind: 'text', value: text, exact: true });
    }
    out.push({ kind: 'css', value: cssPath(el) });
    return out;
  }

  var FINGERPRINT_ATTRIBUTES = ['id', 'class', 'name', 'type', 'href', 'data-testid', 'placeholder', 'aria-label', 'title', 'alt'];

  function fingerprintOf(el, role, name) {
    var attributes = {};
    for (var i = 0; i < FINGERPRINT_ATTRIBUTES.length; i++) {
      var value = el.getAttribute(FINGERPRINT_ATTRIBUTES[i]);
      if (value !== null) attributes[FINGERPRINT_ATTRIBUTES[i]] = value.slice(0, 500);
    }
    if (el.tagName === 'BUTTON' || (el.tagName === 'INPUT' && /^(button|submit|reset)$/i.test(el.type))) {
      if (el.value) attributes.value = String(el.value).slice(0, 500);
    }
    var ancestors = [];
    for (var a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      ancestors.unshift(roleOf(a) || a.tagName.toLowerCase());
    }
    var rect = el.getBoundingClientRect();
    var fp = { tag: el.tagName.toLowerCase(), attributes: attributes, ancestors: ancestors.slice(-50) };
    if (role) fp.role = role;
    if (name) fp.name = name;
    var text = shortText(el);
    if (text) fp.text = text;
    fp.index = role && name ? indexAmongRoleName(el, role, name) : 0;
    fp.rect = { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
    var container = repeatedContainer(el);
    if (container) fp.container = container;
    return fp;
  }

  var REPEATED = 'li, tr, [role=row], [role=listitem], [role=option], article';

  /** The row, item or card around `el` that has siblings of its kind, by its text: which of several alike it is. */
  function repeatedContainer(el) {
    var box = el.parentElement ? el.parentElement.closest(REPEATED) : null;
    if (el.matches && el.matches(REPEATED)) box = el;
    if (!box || !box.parentElement) return null;
    // A list item or table row is a row even when it is the only one yet; a card only among others.
    if (box.tagName === 'ARTICLE') {
      var alike = 0;
      for (var sibling = box.parentElement.firstElementChild; sibling; sibling = sibling.nextElementSibling)
        if (sibling.tagName === box.tagName) alike++;
      if (alike < 2) return null;
    }
    // A card's heading, else the row's first text of its own (a todo's label, a table's first cell;
    // not a badge before the title), a hidden one when the row shows none (a todo being edited
    // hides its label), the text in its field, else all of it.
    var heading = box.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
    var text =
      (heading && !isHidden(heading) ? shortText(heading) : '') ||
      firstOwnText(box, true) ||
      firstOwnText(box, false) ||
      fieldValue(box) ||
      shortText(box);
    if (!text) return null;
    return { tag: box.tagName.toLowerCase(), text: text.slice(0, 200) };
  }

  /** What a row that holds only a field shows: the field's text (a todo being edited, in some apps). */
  function fieldValue(box) {
    var field = box.querySelector('input:not([type]), input[type=text], textarea');
    return field ? norm(field.value) : '';
  }

  function firstOwnText(box, visibleOnly) {
    var all = box.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      if (/^(SCRIPT|STYLE)$/.test(all[i].tagName) || (visibleOnly && isHidden(all[i]))) continue;
      var own = '';
      for (var node = all[i].firstChild; node; node = node.nextSibling) if (node.nodeType === Node.TEXT_NODE) own += node.textContent;
      if (norm(own)) return norm(own);
    }
    return '';
  }

  function evaluatesTo(selector, el) {
    var found = document.evaluate(selector, document, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
    return found.snapshotLength === 1 && found.snapshotItem(0) === el;
  }

  /** XPath of the row, item or card holding `text` (its own text, or a field's value). */
  function rowXPath(container) {
    var literal = xpathLiteral(container.text);
    return '//' + container.tag + '[.//text()[normalize-space(.)=' + literal + ']]';
  }

  /**
   * What finds `el` by the row it sits in, when nothing on the page finds it alone otherwise (a
   * todo's edit box, a row's "×" button, the row itself): the row by its text, then the element
   * inside it by kind and own text. The name a person reads for an unnamed field or a row is the
   * row's text. Null outside rows; no locator when the row's text does not find it alone.
   */
  function inRow(el, name) {
    var container = repeatedContainer(el);
    if (!container) return null;
    var row = rowXPath(container);
    var tag = el.tagName.toLowerCase();
    var selector;
    if (el.matches(REPEATED)) {
      selector = row;
    } else if (isTextField(el)) {
      selector =
        row +
        '//' +
        (tag === 'textarea'
          ? tag
          : tag === 'input'
            ? "input[not(@type='checkbox' or @type='radio' or @type='button' or @type='submit' or @type='reset' or @type='hidden' or @type='image' or @type='file')]"
            : '*[@contenteditable and @contenteditable!="false"]');
    } else {
      var text = shortText(el);
      selector = row + '//' + tag + (text && text.length <= 80 ? '[normalize-space(.)=' + xpathLiteral(text) + ']' : '');
    }
    var unnamed = !name && (isTextField(el) || el.matches(REPEATED));
    return {
      text: unnamed ? container.text : null,
      locator: evaluatesTo(selector, el) ? { kind: 'css', value: 'xpath=' + selector } : null,
    };
  }

  function humanName(el, role, name) {
    if (name) return name.slice(0, 120);
    var tag = el.tagName.toLowerCase();
    // What a person sees before what a developer named it: a card's text, not its id.
    var text = shortText(el);
    return (
      norm(
        el.getAttribute('placeholder') ||
          el.getAttribute('name') ||
          (text.length <= 60 ? text : '') ||
          el.id ||
          text.slice(0, 60) ||
          role ||
          tag,
      ) || tag
    );
  }

  // ---- a checkbox labelled only by the text beside it (a todo row's <label> without for) ----

  function isCheckable(el) {
    var role = roleOf(el);
    return role === 'checkbox' || role === 'radio' || role === 'switch';
  }

  function xpathLiteral(text) {
    if (text.indexOf('"') === -1) return '"' + text + '"';
    if (text.indexOf("'") === -1) return "'" + text + "'";
    return (
      'concat(' +
      text
        .split('"')
        .map(function (part) {
          return '"' + part + '"';
        })
        .join(", '\"', ") +
      ')'
    );
  }

  /**
   * The text a person reads as an unnamed checkbox's name, with the runner's own locator for "the
   * checkable beside this text" (config.checkableBeside, from packages/runner), when that locator
   * finds this control and nothing else; null otherwise (two rows showing the same text).
   */
  function besideText(el) {
    if (!config.checkableBeside || !isCheckable(el)) return null;
    var box = el;
    for (var up = 0; up < 3 && box.parentElement; up++) {
      box = box.parentElement;
      var controls = box.querySelectorAll('input[type=checkbox], input[type=radio], [role=checkbox], [role=radio], [role=switch]');
      if (controls.length > 1) return null;
      var texts = box.querySelectorAll('*');
      for (var i = 0; i < texts.length; i++) {
        var candidate = texts[i];
        if (candidate === el || /^(SCRIPT|STYLE)$/.test(candidate.tagName)) continue;
        var text = norm(candidate.textContent);
        if (
          !text ||
          text.length > 80 ||
          !innermostWith(candidate, text, function (o) {
            return norm(o.textContent);
          })
        )
          continue;
        var selector = config.checkableBeside.split('"\u0001"').join(xpathLiteral(text));
        var found = document.evaluate(selector.replace(/^xpath=/, ''), document, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
        if (found.snapshotLength === 1 && found.snapshotItem(0) === el) return { text: text, locator: { kind: 'css', value: selector } };
        return null;
      }
    }
    return null;
  }

  /**
   * How to find `el` inside the repeated row it sits in, for a step that names the row: the runner
   * looks for these candidates only inside that row (Playwright scopes them: an XPath's `//` and a
   * CSS path start at the row), so each is checked unique among the row's visible elements. The row
   * itself is `:scope`. Null outside rows or when nothing inside tells it apart.
   */
  function rowScope(el) {
    var container = repeatedContainer(el);
    var box = el.matches(REPEATED) ? el : el.parentElement ? el.parentElement.closest(REPEATED) : null;
    if (!container || !box) return null;
    var word = container.tag === 'tr' ? 'row' : 'item';
    if (box === el) return { container: word, text: container.text, locators: [{ kind: 'css', value: ':scope' }] };
    var inside = [];
    var all = box.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) if (all[i] === el || !isHidden(all[i])) inside.push(all[i]);
    var countInside = function (predicate) {
      var count = 0;
      for (var j = 0; j < inside.length; j++) if (predicate(inside[j])) count++;
      return count;
    };
    var out = [];
    var testId = el.getAttribute('data-testid');
    if (
      testId &&
      countInside(function (o) {
        return o.getAttribute('data-testid') === testId;
      }) === 1
    )
      out.push({ kind: 'testId', value: testId });
    var role = roleOf(el);
    var name = accessibleName(el);
    if (
      role &&
      name &&
      name.length <= 120 &&
      countInside(function (o) {
        return roleOf(o) === role && accessibleName(o) === name;
      }) === 1
    )
      out.push({ kind: 'role', role: role, name: name, exact: true });
    var text = shortText(el);
    if (
      text &&
      text.length <= 80 &&
      !name &&
      countInside(function (o) {
        return innermostWith(o, text, shortText);
      }) === 1
    )
      out.push({ kind: 'text', value: text, exact: true });
    if (
      role &&
      countInside(function (o) {
        return roleOf(o) === role;
      }) === 1
    )
      out.push({ kind: 'role', role: role });
    var tag = el.tagName.toLowerCase();
    var classes = Array.prototype.filter.call(el.classList, function (c) {
      return /^[A-Za-z_-][\w-]*$/.test(c);
    });
    if (classes.length) {
      var selector = tag + '.' + classes.map(cssEscape).join('.');
      if (
        countInside(function (o) {
          return o.matches(selector);
        }) === 1
      )
        out.push({ kind: 'css', value: selector });
    }
    return out.length ? { container: word, text: container.text, locators: out } : null;
  }

  /**
   * `revealed`: the element shows only while its row is hovered, so its look-alikes in other rows
   * are hidden now, not absent: its role and text find it alone only by accident.
   */
  function describe(el, revealed) {
    var role = roleOf(el);
    var name = accessibleName(el);
    var locators = candidatesFor(el);
    if (revealed)
      locators = locators.filter(function (c) {
        return c.kind !== 'role' && c.kind !== 'text';
      });
    var beside = name ? null : besideText(el);
    // Only a positional path finds it, or it is a row itself: find it by its row's text first.
    var row = !beside && (locators.length === 1 || (!name && el.matches(REPEATED))) ? inRow(el, name) : null;
    var found = beside || row;
    // Named as the row shows it, and found by that text ahead of any positional CSS.
    if (found && found.locator) locators.splice(locators.length - 1, 0, found.locator);
    var shown = (beside && beside.text) || (row && row.text);
    var described = { name: shown || humanName(el, role, name), locators: locators, fingerprint: fingerprintOf(el, role, name) };
    var scoped = rowScope(el);
    if (scoped) described.row = scoped;
    return described;
  }

  // ---- which class an element's state shows ----
  // A class is how many apps show state (a completed row, the selected filter); the class worth
  // asserting is the one the person just saw change, so changes are watched from the start. Classes
  // that follow the pointer or focus are not state, and changes while picking are the picker's.

  var TRANSIENT_CLASS = /hover|focus/i;
  var STATE_CLASS =
    /^(?:is-|has-)|(?:^|[-_])(?:selected|active|current|completed?|done|checked|open|opened|expanded|collapsed|disabled|enabled|invalid|valid|error|success|warning|editing|visible|hidden|on|off)$/i;
  var READABLE_CLASS = /^[A-Za-z][A-Za-z-]*[A-Za-z]$/;
  var lastClassChange = new WeakMap();

  function watchClassChanges() {
    var observer = new MutationObserver(function (records) {
      if (assertMode) return;
      for (var i = 0; i < records.length; i++) {
        var target = records[i].target;
        if (!(target instanceof Element) || target.closest('[data-rehearse-ui]')) continue;
        var before = (records[i].oldValue || '').split(/\s+/).filter(Boolean);
        var now = Array.prototype.slice.call(target.classList);
        var changed = now
          .filter(function (c) {
            return before.indexOf(c) === -1;
          })
          .concat(
            before.filter(function (c) {
              return now.indexOf(c) === -1;
            }),
          )
          .filter(function (c) {
            return READABLE_CLASS.test(c) && !TRANSIENT_CLASS.test(c);
          });
        if (changed.length) lastClassChange.set(target, changed[0]);
      }
    });
    observer.observe(document, { attributes: true, attributeFilter: ['class'], attributeOldValue: true, subtree: true });
  }
  watchClassChanges();

  /**
   * The class to assert for a picked element, on it or on what holds it up to its row: the class
   * that last changed there (asserted present or absent, as it is now), else a class that names a
   * state, else the element's own first readable class. Null when none reads as a word.
   */
  function classAssertion(el) {
    var row = el.closest(REPEATED);
    var chain = [];
    for (var node = el; node && node !== document.body && chain.length < 6; node = node.parentElement) {
      chain.push(node);
      if (node === row) break;
    }
    for (var i = 0; i < chain.length; i++) {
      var changed = lastClassChange.get(chain[i]);
      if (changed) return { el: chain[i], name: changed, present: chain[i].classList.contains(changed) };
    }
    for (var j = 0; j < chain.length; j++) {
      var states = Array.prototype.filter.call(chain[j].classList, function (c) {
        return READABLE_CLASS.test(c) && STATE_CLASS.test(c);
      });
      if (states.length) return { el: chain[j], name: states[0], present: true };
    }
    var own = Array.prototype.filter.call(el.classList, function (c) {
      return READABLE_CLASS.test(c) && !TRANSIENT_CLASS.test(c);
    });
    return own.length ? { el: el, name: own[0], present: true } : null;
  }

  // ---- how many items a list shows (the runner's "I should see N "word" items") ----

  var LISTS = 'ul, ol, table, [role=list], [role=listbox], [role=grid], [role=table], [role=rowgroup]';

  /**
   * The list around a clicked item, named by a word of its label, id, class or test id that names
   * no other list on the page (the runner finds the list by that word), and how many items it shows.
   */
  function listCount(el) {
    var item = el.closest('li, tr, [role=listitem], [role=row], [role=option]');
    var list = item && item.parentElement ? item.parentElement.closest(LISTS) : null;
    if (!list) return null;
    // Each shown item's first line of text, as the runner's "the "word" items should be:" reads it.
    var items = [];
    var rows = list.tagName === 'TABLE' ? list.querySelectorAll(':scope > tbody > tr, :scope > tr') : list.children;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].tagName !== item.tagName || isHidden(rows[i])) continue;
      var lines = (rows[i].innerText || '').split('\n').filter(function (line) {
        return line.trim() !== '';
      });
      items.push(norm(lines[0] || ''));
    }
    var count = items.length;
    var sources = [list.getAttribute('aria-label'), list.id, list.getAttribute('class'), list.getAttribute('data-testid')];
    for (var s = 0; s < sources.length; s++) {
      var tokens = (sources[s] || '').split(/\s+/).filter(Boolean);
      for (var t = 0; t < tokens.length; t++) {
        // The token's first word first ("todo" of "todo-list"), then the whole token.
        var words = [tokens[t].split(/[-_]/)[0], tokens[t]];
        for (var w = 0; w < words.length; w++) {
          var word = words[w].toLowerCase();
          if (word.length < 3 || !/^[a-z0-9-_]+$/.test(word)) continue;
          var named = 0;
          var lists = document.querySelectorAll(LISTS);
          for (var l = 0; l < lists.length; l++) {
            var hay = [
              lists[l].getAttribute('aria-label'),
              lists[l].id,
              lists[l].getAttribute('class'),
              lists[l].getAttribute('data-testid'),
            ]
              .join(' ')
              .toLowerCase();
            if (hay.indexOf(word) !== -1) named++;
          }
          if (named === 1) return { word: word, count: count, items: items };
        }
      }
    }
    return null;
  }

  // ---- controls shown only on hover ----

  var REVEALING = ['visibility', 'opacity', 'display', 'pointer-events'];

  function hoverRules() {
    var out = [];
    function walk(rules) {
      for (var i = 0; i < rules.length; i++) {
        var rule = rules[i];
        if (rule.cssRules && !rule.selectorText) walk(rule.cssRules);
        else if (rule.selectorText && rule.selectorText.indexOf(':hover') !== -1) out.push(rule);
      }
    }
    for (var i = 0; i < document.styleSheets.length; i++) {
      try {
        walk(document.styleSheets[i].cssRules);
      } catch {
        /* a cross-origin sheet: not readable */
      }
    }
    return out;
  }

  /**
   * The ancestor whose :hover rule reveals `el` (`li:hover .destroy { visibility: visible }`), or
   * null. A rule about the element's own hover (a button turning darker) reveals nothing.
   */
  function hoverRevealer(el) {
    var rules = hoverRules();
    for (var i = 0; i < rules.length; i++) {
      var style = rules[i].style;
      if (
        !REVEALING.some(function (property) {
          return style.getPropertyValue(property);
        })
      )
        continue;
      var selectors = rules[i].selectorText.split(',');
      for (var j = 0; j < selectors.length; j++) {
        var selector = selectors[j].trim();
        var at = selector.lastIndexOf(':hover');
        var hovered = selector.slice(0, at).replace(/:hover/g, '');
        var rest = selector.slice(at + ':hover'.length);
        if (!hovered || !/^\s*[>+~]?\s*\S/.test(rest) || /^[\w-]*[:.[#]/.test(rest)) continue;
        try {
          var plain = selector.replace(/:hover/g, '');
          var target = el.matches(plain) ? el : el.closest(plain);
          if (!target) continue;
          var owner = target.parentElement && target.parentElement.closest(hovered);
          if (owner && owner !== document.body && owner !== document.documentElement) return owner;
        } catch {
          /* a selector this browser cannot match */
        }
      }
    }
    return null;
  }

  // ---- which element an event is about ----

  var INTERACTIVE =
    'a[href], button, input, select, textarea, summary, label, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [onclick], [tabindex]';

  function actionTarget(target) {
    if (!(target instanceof Element)) return null;
    var el = target.closest(INTERACTIVE) || target;
    // A click on a label acts on its control; record the control (it has the label locator).
    if (el.tagName === 'LABEL' && el.control) return el.control;
    return el;
  }

  function isTextField(el) {
    if (el instanceof HTMLTextAreaElement) return true;
    if (el instanceof HTMLInputElement) return !!TEXT_INPUT_TYPES[(el.getAttribute('type') || '').toLowerCase()];
    return el instanceof Element && el.isContentEditable;
  }

  // ---- typed values: test data references and secrets ----

  function sha256Hex(text) {
    // Small synchronous SHA-256: crypto.subtle is absent on plain-http pages, and typed values
    // must be matched against test data before they leave the page.
    var k = [];
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var n = 2;
    while (k.length < 64) {
      var prime = true;
      for (var d = 2; d * d <= n; d++)
        if (n % d === 0) {
          prime = false;
          break;
        }
      if (prime) k.push((Math.pow(n, 1 / 3) * 0x100000000) | 0);
      n++;
    }
    var bytes = unescape(encodeURIComponent(text));
    var words = [];
    var length = bytes.length;
    for (var i = 0; i < length; i++) words[i >> 2] |= (bytes.charCodeAt(i) & 0xff) << (24 - (i % 4) * 8);
    words[length >> 2] |= 0x80 << (24 - (length % 4) * 8);
    words[(((length + 8) >> 6) + 1) * 16 - 1] = length * 8;
    for (var block = 0; block < words.length; block += 16) {
      var w = [];
      var a = h[0],
        b = h[1],
        c = h[2],
        dd = h[3],
        e = h[4],
        f = h[5],
        g = h[6],
        hh = h[7];
      for (var t = 0; t < 64; t++) {
        if (t < 16) w[t] = words[block + t] | 0;
        else {
          var x = w[t - 15],
            y = w[t - 2];
          var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
          var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
          w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
        }
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (hh + S1 + ch + k[t] + w[t]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) | 0;
        hh = g;
        g = f;
        f = e;
        e = (dd + t1) | 0;
        dd = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      h = [
        (h[0] + a) | 0,
        (h[1] + b) | 0,
        (h[2] + c) | 0,
        (h[3] + dd) | 0,
        (h[4] + e) | 0,
        (h[5] + f) | 0,
        (h[6] + g) | 0,
        (h[7] + hh) | 0,
      ];
    }
    return h
      .map(function (v) {
        return ('00000000' + (v >>> 0).toString(16)).slice(-8);
      })
      .join('');
  }

  function keyFromName(name) {
    var key = norm(name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
    return key || 'secret';
  }

  /** The value a fill records: a `{{key}}` reference when it is test data, never a secret's text. */
  function recordedValue(el, value, element) {
    var digest = (config.testData && config.testData.length) || el.type === 'password' ? sha256Hex(value) : '';
    var rows = config.testData || [];
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].sha256 === digest) {
        if (rows[i].secret) typedSecrets.push(value);
        return { value: '{{' + rows[i].key + '}}', secret: !!rows[i].secret };
      }
    }
    if (SECRET_TYPES[(el.getAttribute('type') || '').toLowerCase()]) {
      typedSecrets.push(value);
      return { value: '{{' + keyFromName(element.name) + '}}', secret: true };
    }
    return { value: value, secret: false };
  }

  // Secrets typed in this page: a line of page text that shows one never leaves the page.
  var typedSecrets = [];
  function shareableLines() {
    return visibleLines().filter(function (line) {
      return !typedSecrets.some(function (secret) {
        return secret.length >= 3 && line.indexOf(secret) !== -1;
      });
    });
  }

  // ---- event capture ----

  var lastFilled = new WeakMap();

  function recordFill(el, linesBefore) {
    if (!el || !isTextField(el)) return;
    var value = el.isContentEditable ? el.innerText : el.value;
    if (lastFilled.get(el) === value) return;
    lastFilled.set(el, value);
    var element = describe(el);
    var recorded = recordedValue(el, value, element);
    send({ type: 'fill', element: element, value: recorded.value, secret: recorded.secret || undefined }, linesBefore);
  }

  /**
   * `toggledByPick`: the pick was a click on this very checkbox, which the browser ticks before the
   * click event reaches us (and unticks again after, since we cancel it): the state the person saw
   * is the opposite of what the box says now.
   */
  function recordAssertion(el, toggledByPick) {
    var element = describe(el);
    if (assertMode === 'verifyText') {
      var text = shortText(el);
      if (text) send({ type: 'verifyText', value: text });
    } else if (assertMode === 'verifyValue' && 'value' in el) {
      send({ type: 'verifyValue', element: element, value: String(el.value) });
    } else if (assertMode === 'verifyChecked') {
      // A click on a checkbox's label or row text asserts on the checkbox.
      var box = isCheckable(el) ? el : el.control && isCheckable(el.control) ? el.control : null;
      if (!box) {
        var row = el.closest(REPEATED) || el.parentElement;
        box = row ? row.querySelector('input[type=checkbox], input[type=radio], [role=checkbox], [role=radio], [role=switch]') : null;
      }
      if (box) {
        var checkedNow = box.checked || box.getAttribute('aria-checked') === 'true';
        var seen = toggledByPick === box && 'checked' in box ? !checkedNow : checkedNow;
        send({ type: 'verifyChecked', element: describe(box), value: seen ? 'checked' : 'unchecked' });
      }
    } else if (assertMode === 'verifyCount') {
      var counted = listCount(el);
      if (counted) send({ type: 'verifyCount', value: counted.word, count: counted.count });
    } else if (assertMode === 'verifyItems') {
      var listed = listCount(el);
      if (listed) send({ type: 'verifyItems', value: listed.word, items: listed.items });
    } else if (assertMode === 'verifyClass') {
      var classed = classAssertion(el);
      if (classed) send({ type: classed.present ? 'verifyClass' : 'verifyNoClass', element: describe(classed.el), value: classed.name });
    } else {
      send({ type: 'verifyVisible', element: element });
    }
    assertMode = null;
    try {
      window.__rehearseAssertDone();
    } catch {
      // Older frames without the binding.
    }
  }

  // The local recorder's panel (inject/panel.js) sits in the page but is not part of it. Its events
  // reach the window retargeted to its host element, which carries `data-rehearse-ui`.
  function fromRecorderUi(event) {
    var target = event.target;
    return target instanceof Element && !!target.closest('[data-rehearse-ui]');
  }

  // ---- the element picker (assertions) ----
  // While an assertion waits for its element, the element under the pointer is outlined and
  // named. ArrowDown steps to the element beneath it (a counter under a filter bar laid over it),
  // ArrowUp back; a click or Enter takes the outlined element.

  var pick = null;
  var highlight = null;
  var highlightLabel = null;

  function elementsAt(x, y) {
    return document.elementsFromPoint(x, y).filter(function (el) {
      return !el.closest('[data-rehearse-ui]') && el !== document.documentElement && el !== document.body;
    });
  }

  function picked() {
    return pick ? pick.stack[pick.index] || null : null;
  }

  function drawPick() {
    var el = picked();
    if (!highlight && el) {
      highlight = document.createElement('div');
      highlight.setAttribute('data-rehearse-ui', 'picker');
      highlight.style.cssText =
        'position:fixed;z-index:2147483646;pointer-events:none;box-sizing:border-box;border:2px solid #4f46e5;background:rgba(79,70,229,0.10);border-radius:3px;';
      highlightLabel = document.createElement('div');
      highlightLabel.style.cssText =
        'position:absolute;left:-2px;bottom:100%;margin-bottom:2px;max-width:420px;padding:2px 6px;border-radius:3px;background:#312e81;color:#fff;font:12px/1.4 system-ui,sans-serif;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;';
      highlight.appendChild(highlightLabel);
      (document.body || document.documentElement).appendChild(highlight);
    }
    if (!highlight) return;
    if (!el) {
      highlight.style.display = 'none';
      return;
    }
    var box = el.getBoundingClientRect();
    highlight.style.display = 'block';
    highlight.style.left = box.left + 'px';
    highlight.style.top = box.top + 'px';
    highlight.style.width = box.width + 'px';
    highlight.style.height = box.height + 'px';
    var words = shortText(el) || el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.tagName.toLowerCase();
    var beneath = pick.index < pick.stack.length - 1 ? ' · ↓ the element beneath' : '';
    var above = pick.index > 0 ? ' · ↑ back' : '';
    highlightLabel.textContent = (words.length > 60 ? words.slice(0, 60) + '…' : words) + beneath + above;
  }

  function endPick() {
    pick = null;
    if (highlight) highlight.style.display = 'none';
  }

  window.addEventListener(
    'pointermove',
    function (event) {
      if (!assertMode || fromRecorderUi(event)) return;
      var stack = elementsAt(event.clientX, event.clientY);
      // The same spot keeps the element stepped to.
      if (
        pick &&
        pick.stack.length === stack.length &&
        pick.stack.every(function (el, i) {
          return el === stack[i];
        })
      )
        return;
      pick = { stack: stack, index: 0 };
      drawPick();
    },
    true,
  );
  window.addEventListener(
    'keydown',
    function (event) {
      if (!assertMode || !pick || fromRecorderUi(event)) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        pick.index = Math.max(0, Math.min(pick.stack.length - 1, pick.index + (event.key === 'ArrowDown' ? 1 : -1)));
        drawPick();
      } else if (event.key === 'Enter' && picked()) {
        var chosen = picked();
        endPick();
        recordAssertion(chosen);
      } else return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true,
  );

  // Capture phase on the window: the page's own handlers (which may stop propagation or navigate)
  // run after us.
  window.addEventListener(
    'pointerdown',
    function (event) {
      if (!assertMode || fromRecorderUi(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true,
  );
  window.addEventListener(
    'click',
    function (event) {
      if (!event.isTrusted || fromRecorderUi(event)) return;
      if (swallowClick) {
        swallowClick = false;
        return;
      }
      var el = actionTarget(event.target);
      if (!el) return;
      if (assertMode) {
        event.preventDefault();
        event.stopImmediatePropagation();
        // An element stepped to with ArrowDown is taken as it is; otherwise the control clicked.
        var chosen = pick && pick.index > 0 ? picked() : null;
        endPick();
        var clickedBox =
          event.target instanceof HTMLInputElement && (event.target.type === 'checkbox' || event.target.type === 'radio')
            ? event.target
            : null;
        recordAssertion(
          chosen || (event.target instanceof Element ? event.target.closest(INTERACTIVE) || event.target : el),
          chosen ? null : clickedBox,
        );
        return;
      }
      if (isTextField(el) || el instanceof HTMLSelectElement) return;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        noteToggle(el);
        return;
      }
      if (el.tagName === 'OPTION') return;
      // A pending fill (the change event comes on blur) goes first.
      if (document.activeElement && document.activeElement !== el) recordFill(document.activeElement);
      // A control the page shows only while the pointer is over its row (a todo's "×"): replay
      // must hover the row first, as the person did.
      var revealer = hoverRevealer(el);
      if (revealer) send({ type: 'hover', element: describe(revealer) });
      send({ type: 'click', element: describe(el, !!revealer) });
    },
    true,
  );
  // A right-click opens what the page shows for it (a context menu); the browser sends no click.
  window.addEventListener(
    'contextmenu',
    function (event) {
      if (!event.isTrusted || assertMode || fromRecorderUi(event)) return;
      var el = actionTarget(event.target);
      if (!el) return;
      if (document.activeElement && document.activeElement !== el) recordFill(document.activeElement);
      send({ type: 'rightClick', element: describe(el) });
    },
    true,
  );
  // A drag is one step from what was picked up to what it was dropped on. HTML5 drag and drop
  // (draggable="true") ends in a drop event; a drag built on pointer events (sortable lists,
  // boards) ends in a pointerup over another element after the pointer travelled.
  var dragSource = null;
  window.addEventListener(
    'dragstart',
    function (event) {
      if (!event.isTrusted || assertMode || fromRecorderUi(event)) return;
      var el = event.target instanceof Element ? event.target : null;
      // Described now: by the drop the source may have moved into the target.
      dragSource = el ? { el: el, element: describe(el) } : null;
      pointerDrag = null;
    },
    true,
  );
  window.addEventListener(
    'drop',
    function (event) {
      if (!event.isTrusted || !dragSource || fromRecorderUi(event)) return;
      var target = event.target instanceof Element ? event.target : null;
      if (target && target !== dragSource.el) send({ type: 'drag', element: dragSource.element, target: describe(target) });
      dragSource = null;
    },
    true,
  );
  window.addEventListener(
    'dragend',
    function () {
      dragSource = null;
    },
    true,
  );

  var POINTER_DRAG_PX = 12;
  var pointerDrag = null;
  var swallowClick = false;
  window.addEventListener(
    'pointerdown',
    function (event) {
      if (!event.isTrusted || assertMode || event.button !== 0 || fromRecorderUi(event)) return;
      var el = actionTarget(event.target);
      pointerDrag =
        el && !isTextField(el) && !(el instanceof HTMLSelectElement)
          ? { el: el, element: describe(el), x: event.clientX, y: event.clientY }
          : null;
    },
    true,
  );
  window.addEventListener(
    'pointerup',
    function (event) {
      var started = pointerDrag;
      pointerDrag = null;
      if (!started || !event.isTrusted || fromRecorderUi(event)) return;
      if (Math.hypot(event.clientX - started.x, event.clientY - started.y) < POINTER_DRAG_PX) return;
      // Dragging across text selects it: that is not moving an element.
      var selection = window.getSelection();
      if (selection && selection.toString().trim() !== '') return;
      // What lies under the pointer, looking past the dragged element (it often follows the pointer).
      var under = document.elementsFromPoint(event.clientX, event.clientY).filter(function (candidate) {
        return (
          !started.el.contains(candidate) &&
          !candidate.closest('[data-rehearse-ui]') &&
          candidate !== document.documentElement &&
          candidate !== document.body
        );
      })[0];
      if (!under) return;
      send({ type: 'drag', element: started.element, target: describe(under) });
      // The click the browser sends after a drag (on what both ends share) is not a step.
      swallowClick = true;
      window.setTimeout(function () {
        swallowClick = false;
      }, 0);
    },
    true,
  );

  // A double-click is one step (the two clicks it starts with are taken back by the session):
  // replaying two clicks would never open what a double-click opens, such as a row's edit box.
  window.addEventListener(
    'dblclick',
    function (event) {
      if (!event.isTrusted || assertMode || fromRecorderUi(event)) return;
      var el = actionTarget(event.target);
      if (!el || isTextField(el) || el instanceof HTMLSelectElement) return;
      send({ type: 'doubleClick', element: describe(el) });
    },
    true,
  );
  // A checkbox the app removes in answer to its own click (a todo ticked on the "Active" list is
  // redrawn away) never gets its change event to the window: the event fires on a box no longer in
  // the page. So the tick is noted at the click, described while its row is still there, and sent
  // by the change event or, when none reaches us, once the click's handlers have run.
  var pendingToggle = null;

  function sendToggle(toggle) {
    if (toggle.sent) return;
    toggle.sent = true;
    if (document.activeElement && document.activeElement !== toggle.el && document.activeElement.isConnected)
      recordFill(document.activeElement, toggle.lines);
    send({ type: toggle.el.type === 'radio' || toggle.checked ? 'check' : 'uncheck', element: toggle.element }, toggle.lines);
  }

  /**
   * At the click, before the page's own handlers: the box, how it stands, and the page's lines.
   * By its change event the app has already redrawn (a counter, a struck row), and those lines
   * would make the tick's effect look like the step before it did it.
   */
  function noteToggle(box) {
    var toggle = { el: box, element: describe(box), checked: box.checked, sent: false, lines: shareableLines() };
    pendingToggle = toggle;
    window.setTimeout(function () {
      if (pendingToggle === toggle) pendingToggle = null;
      // Still in the page and not changed (the page cancelled the click): nothing happened.
      if (!toggle.sent && (!box.isConnected || box.checked === toggle.checked)) sendToggle(toggle);
    }, 0);
  }

  window.addEventListener(
    'change',
    function (event) {
      var el = event.target;
      if (!(el instanceof Element) || fromRecorderUi(event)) return;
      // A field typed into before this control changed (its own change comes on blur) goes first.
      if (!isTextField(el) && document.activeElement && document.activeElement !== el) recordFill(document.activeElement);
      if (el instanceof HTMLSelectElement) {
        var option = el.options[el.selectedIndex];
        send({ type: 'select', element: describe(el), value: option ? norm(option.label || option.text) : el.value });
      } else if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        if (pendingToggle && pendingToggle.el === el) sendToggle(pendingToggle);
        else send({ type: el.type === 'radio' || el.checked ? 'check' : 'uncheck', element: describe(el) });
      } else if (isTextField(el)) {
        recordFill(el);
      }
    },
    true,
  );
  window.addEventListener(
    'keydown',
    function (event) {
      if (!event.isTrusted || !KEYS_THAT_MATTER[event.key] || event.isComposing || fromRecorderUi(event)) return;
      var el = document.activeElement;
      if (event.key === 'Tab') {
        // Tab only moves focus; what matters is the value left behind.
        if (el) recordFill(el);
        return;
      }
      if (el && isTextField(el)) recordFill(el);
      var onElement = el && el !== document.body && el !== document.documentElement;
      send({ type: 'press', element: onElement ? describe(el) : undefined, value: event.key });
    },
    true,
  );

  window.__rehearseSetAssertMode = function (mode) {
    assertMode = mode;
    if (!mode) endPick();
  };
  window.__rehearseDescribe = describe;
});
