import { describe, expect, it } from 'vitest';
import { builtInStepCode } from './ai.service.js';
import { ideasFromMemory, routeBelow } from './ideas.js';
import { translateFlow } from './plain-english.js';
import { candidatesFor, mapElements } from './questions.js';

const LOGIN_SNAPSHOT = `- banner:
  - link "Trailhead Supply":
    - /url: ./
  - navigation "Main":
    - list:
      - listitem:
        - link "Products":
          - /url: index.html
      - listitem:
        - link "Cart 0 items":
          - /url: /demo-shop/cart.html?from=nav
      - listitem:
        - link "Our blog":
          - /url: https://blog.example.com/
      - listitem:
        - link "Top":
          - /url: "#top"
- main:
  - heading "Sign in" [level=1]
  - textbox "Email"
  - textbox "Password"
  - button "Sign in"`;

const HOME_SNAPSHOT = `- main:
  - search:
    - searchbox "Search products"
    - button "Search"`;

const CHECKOUT_SNAPSHOT = `- main:
  - textbox "Full name"
  - textbox "Address"
  - combobox "Country"
  - button "Place order"`;

describe('scenario ideas from the application memory', () => {
  it('finds the sign-in form, the search box, forms to fill and navigation paths', () => {
    const ideas = ideasFromMemory(
      {
        paths: {
          '/demo-shop/login.html': { pathsmap: {}, snapshot: LOGIN_SNAPSHOT },
          '/demo-shop/': { pathsmap: {}, snapshot: HOME_SNAPSHOT },
          '/demo-shop/checkout.html': { pathsmap: {}, snapshot: CHECKOUT_SNAPSHOT },
        },
      },
      '',
    );
    expect(ideas.map((idea) => idea.name)).toEqual([
      'Sign in on /demo-shop/login.html',
      'Go to Trailhead Supply from /demo-shop/login.html',
      'Go to Products from /demo-shop/login.html',
      'Go to Cart 0 items from /demo-shop/login.html',
      'Search on /demo-shop/',
      'Fill the form on /demo-shop/checkout.html',
    ]);
    // A link is a flow only with where it leads asserted; other sites and `#` anchors are not the app's.
    expect(ideas[1]!.flow).toEqual(['open "/demo-shop/login.html"', 'click "Trailhead Supply"', 'the URL should contain "/"']);
    expect(ideas[3]!.flow).toEqual([
      'open "/demo-shop/login.html"',
      'click "Cart 0 items"',
      'the URL should contain "demo-shop/cart.html"',
    ]);
    expect(ideas[0]).toEqual({
      name: 'Sign in on /demo-shop/login.html',
      flow: [
        'open "/demo-shop/login.html"',
        'fill "Email" with "{{user}}"',
        'fill "Password" with "{{password}}"',
        'click "Sign in"',
        'the "Password" field should be hidden',
      ],
      parameters: { user: 'user@example.com', password: 'secret' },
    });
    expect(ideas.at(-1)!.flow).toEqual([
      'open "/demo-shop/checkout.html"',
      'fill "Full name" with "{{full_name}}"',
      'fill "Address" with "{{address}}"',
      'fill "Country" with "{{country}}"',
      'click "Place order"',
    ]);
  });

  it('writes a name holding quotes in the quotes it lacks, so the grammar reads it whole', () => {
    const snapshot = `- main:
  - textbox "Email"
  - textbox "Password"
  - button "Say \\"hi\\""
  - link "Rock 'n' \\"roll\\"":
    - /url: /rock`;
    const ideas = ideasFromMemory({ paths: { '/': { pathsmap: {}, snapshot } } }, '');
    expect(ideas.find((idea) => idea.name === 'Sign in on /')!.flow.at(3)).toBe(`click 'Say "hi"'`);
    const link = ideas.find((idea) => idea.name.startsWith('Go to Rock'))!;
    expect(link.flow[1]).toBe('click “Rock \'n\' "roll"”');
    expect(translateFlow(link.flow).steps.map((step) => step.text)).toEqual([
      'I open "/"',
      'I click "Rock \'n\' \\"roll\\""',
      'the URL should contain "rock"',
    ]);
  });

  it('ends every idea a description names in an assertion', () => {
    const ideas = ideasFromMemory({ paths: {} }, 'sign in, search, buy and sign up');
    expect(ideas.map((idea) => idea.name)).toEqual(['Sign in', 'Search for a product', 'Buy a product', 'Create an account']);
    for (const idea of ideas) expect(translateFlow(idea.flow).steps.at(-1)?.kind, idea.name).toBe('outcome');
  });

  it('puts a description the grammar reads first, as its own flow', () => {
    const ideas = ideasFromMemory({ paths: {} }, "open the shop, search for 'lamp'");
    expect(ideas[0]).toEqual({ name: "open the shop, search for 'lamp'", flow: ['open the shop', "search for 'lamp'"], parameters: {} });
    expect(ideas[1]!.name).toBe('Search for a product');
  });
});

describe('code for a step from the grammar', () => {
  it('turns the quoted values into parameters and the rest into context.web calls', () => {
    expect(builtInStepCode('I search for "lamp" and should see "Desk Lamp"')).toBe(
      [
        '  await context.web.fill("Search", p1, {}, {}, this);',
        '  await context.web.press(null, "Enter", {}, {}, this);',
        '  await context.web.verifyText(p2, {}, {}, this);',
      ].join('\n'),
    );
    expect(builtInStepCode('the moon is full')).toBeUndefined();
  });
});

describe('ideas for a list the user adds to', () => {
  const SHOPPING_LIST = `- heading "Groceries" [level=1]
- textbox "New item"
- button "Add"
- list:
  - listitem:
    - checkbox "bread"
    - text: bread`;

  it('adds with the page’s own button, and offers only what the page shows', () => {
    const ideas = ideasFromMemory({ paths: { '/lists/groceries': { pathsmap: {}, snapshot: SHOPPING_LIST } } }, '', [
      'https://shop.example/lists/',
    ]);
    expect(ideas.map((idea) => idea.name)).toEqual(['Add a grocery', 'Complete a grocery', 'Delete a grocery']);
    expect(ideas[0]!.flow).toEqual([
      'open "/groceries"',
      'type "{{first}}" into "New item"',
      'click "Add"',
      'should see "{{first}}"',
      '"New item" should be empty',
    ]);
    // No filter to redraw the list with: the completed row itself is asserted, and the other one.
    expect(ideas[1]!.flow.slice(-2)).toEqual([
      '"checkbox" in the item containing "{{first}}" should be checked',
      '"checkbox" in the item containing "{{second}}" should not be checked',
    ]);
  });

  it('opens a page by its path below the environment’s base URL', () => {
    expect(routeBelow('/vanillajs/', ['http://127.0.0.1:4000/vanillajs/'])).toBe('/');
    expect(routeBelow('/demo-shop/cart.html', ['http://a.test/', 'http://b.test/demo-shop'])).toBe('/cart.html');
    expect(routeBelow('/other/page', ['http://b.test/demo-shop/'])).toBe('/other/page');
    expect(routeBelow('/demo-shopping', ['http://b.test/demo-shop/'])).toBe('/demo-shopping');
  });
});

describe('questions for a clause no step reads', () => {
  const elements = mapElements({
    paths: {
      '/checkout.html': { pathsmap: {}, snapshot: CHECKOUT_SNAPSHOT },
      '/login.html': { pathsmap: {}, snapshot: LOGIN_SNAPSHOT },
    },
  });
  it('offers steps on the elements of the map that share a word with it, then the closest built-in steps', () => {
    expect(candidatesFor('smash the big order button', elements)).toEqual(['I click "Place order"']);
    expect(candidatesFor('pick "Germany" for the country', elements)).toEqual(['I select "Germany" from "Country"']);
    expect(candidatesFor('put "Ada" in the name', elements)).toEqual(['I fill "Full name" with "Ada"']);
    expect(candidatesFor('I should sea "Welcome"', elements)).toEqual(['I should see "Welcome"', 'I should not see "Welcome"']);
    expect(candidatesFor('dance a jig', elements)).toEqual([]);
  });
});
