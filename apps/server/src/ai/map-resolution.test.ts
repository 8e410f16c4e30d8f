import { describe, expect, it } from 'vitest';
import { resolveOnMap, type AppOnMap } from './map-resolution.js';
import { translateFlow } from './plain-english.js';

/**
 * Issue 44, Build item 2: nouns resolved against the app's map, not the words alone. The TodoMVC
 * page below is the map's snapshot as the recorder leaves it after two todos were added
 * (RecorderSession.recordedPages on apps/todomvc, markup we did not write).
 */
const TODOMVC = `- heading "todos" [level=1]
- textbox "What needs to be done?"
- checkbox "Mark all as complete": »
- list:
  - listitem:
    - checkbox: ✔
    - text: feed the cat
  - listitem:
    - checkbox: ✔
    - text: buy milk
- strong: "2"
- text: items left
- list:
  - listitem:
    - link "All":
      - /url: "#/"
  - listitem:
    - link "Active":
      - /url: "#/active"
- contentinfo:
  - paragraph: Double-click to edit a todo`;

const todoMvc: AppOnMap = {
  memory: { paths: { '/vanillajs/': { pathsmap: {}, snapshot: TODOMVC } } },
  baseUrls: ['http://127.0.0.1:4173/vanillajs/'],
};

const read = (flow: string[], app: AppOnMap = todoMvc) => resolveOnMap(translateFlow(flow), app);
const stepsOf = (flow: string[], app?: AppOnMap) => read(flow, app).steps.map((step) => step.text);

describe('nouns read against the application map (issue 44)', () => {
  it('opens the map page whose heading the words name, not a file guessed from them', () => {
    const { steps, resolved } = read(['start at the todo page']);
    expect(steps.map((step) => step.text)).toEqual(['I open "/"']);
    expect(resolved).toEqual([
      [
        {
          from: 'I open "todo.html"',
          to: 'I open "/"',
          why: 'The app’s map has no page “todo.html”: this opens /, its page headed “todos”.',
        },
      ],
    ]);
  });

  it('ticks the row of an item the flow added when no checkbox is named so, in actions and assertions', () => {
    const { steps, resolved } = read(['add "p"', 'tick "p"', '"p" should be checked', 'untick "p"']);
    expect(steps.map((step) => step.text)).toEqual([
      'I fill the 1st "textbox" with "p"',
      'I press "Enter"',
      'I check "checkbox" in the item containing "p"',
      '"checkbox" in the item containing "p" should be checked',
      'I uncheck "checkbox" in the item containing "p"',
    ]);
    expect(resolved[1]![0]!.why).toBe('No checkbox on the app’s map is named “p”: this means the checkbox in the item containing “p”.');
  });

  it('finds an item the map shows in a row with a checkbox, without the flow adding it', () => {
    expect(stepsOf(['tick "buy milk"'])).toEqual(['I check "checkbox" in the item containing "buy milk"']);
  });

  it('keeps a checkbox the map names, and a name that is neither a checkbox nor an item', () => {
    expect(stepsOf(['tick "Mark all as complete"'])).toEqual(['I check "Mark all as complete"']);
    expect(stepsOf(['tick "I agree to the terms"'])).toEqual(['I check "I agree to the terms"']);
  });

  it('types into the page’s only field when the words name none', () => {
    const { steps, resolved } = read(['open the app', 'type "milk" into the todo box']);
    expect(steps.map((step) => step.text)).toEqual(['I open "/"', 'I type "milk" into "What needs to be done?"']);
    expect(resolved[1]![0]!.why).toBe(
      'No field of this page on the app’s map is named “todo”: this uses the field “What needs to be done?”, the page’s only one.',
    );
    // A filter link keeps the page; the field is still that page's.
    expect(stepsOf(['open the app', 'click the Active filter', 'fill the todo input with "x"'])).toEqual([
      'I open "/"',
      'I click "Active"',
      'I fill "What needs to be done?" with "x"',
    ]);
  });

  it('leaves a field alone where the flow may be on a page the map has not seen', () => {
    // Not opened yet, on a page the map lacks, or after a click that may have navigated: its fields are unknown.
    expect(stepsOf(['type "milk" into the todo box'])).toEqual(['I type "milk" into "todo"']);
    expect(stepsOf(['open the login page', 'fill the email field with "a@b.c"'])).toEqual([
      'I open "login.html"',
      'I fill "email" with "a@b.c"',
    ]);
    expect(stepsOf(['open the app', 'click "Sign in"', 'fill the email field with "a@b.c"'])).toEqual([
      'I open "/"',
      'I click "Sign in"',
      'I fill "email" with "a@b.c"',
    ]);
  });

  it('picks the field sharing a word among several, and asks nothing of the map when none or two fit', () => {
    const form: AppOnMap = {
      memory: {
        paths: {
          '/shop/': {
            pathsmap: {},
            snapshot: '- heading "Shop" [level=1]\n- searchbox "Search products"\n- textbox "Email address"\n- textbox "Promo code"',
          },
        },
      },
      baseUrls: ['http://127.0.0.1:4173/shop/'],
    };
    const onShop = (line: string) => stepsOf(['open the shop', line], form).slice(1);
    expect(onShop('fill the products search box with "lamp"')).toEqual(['I fill "Search products" with "lamp"']);
    expect(onShop('fill "email" with "a@b.c"')).toEqual(['I fill "email" with "a@b.c"']);
    expect(onShop('fill the todo input with "milk"')).toEqual(['I fill "todo" with "milk"']);
  });

  it('leaves a page the map has, a page two map pages could be, and a flow on an empty map', () => {
    const two: AppOnMap = {
      memory: {
        paths: {
          '/app/login.html': { pathsmap: {}, snapshot: '- heading "Sign in" [level=1]' },
          '/app/orders/': { pathsmap: {}, snapshot: '- heading "Orders" [level=1]' },
          '/app/orders/archive': { pathsmap: {}, snapshot: '- heading "Archived orders" [level=1]' },
        },
      },
      baseUrls: ['http://127.0.0.1:4173/app/'],
    };
    expect(stepsOf(['open the login page'], two)).toEqual(['I open "login.html"']);
    expect(stepsOf(['open the orders page'], two)).toEqual(['I open "orders.html"']);
    expect(stepsOf(['open the archived page'], two)).toEqual(['I open "/orders/archive"']);
    const empty = read(['start at the todo page', 'add "p"', 'tick "p"'], { memory: { paths: {} }, baseUrls: [] });
    expect(empty.steps.map((step) => step.text)).toEqual(
      translateFlow(['start at the todo page', 'add "p"', 'tick "p"']).steps.map((s) => s.text),
    );
    expect(empty.resolved).toEqual([[], [], []]);
  });
});
