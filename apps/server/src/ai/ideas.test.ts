import { describe, expect, it } from 'vitest';
import { builtInStepCode, ideasFromMemory } from './ai.service.js';

const LOGIN_SNAPSHOT = `- banner:
  - link "Trailhead Supply"
  - navigation "Main":
    - list:
      - listitem:
        - link "Products"
      - listitem:
        - link "Cart 0 items"
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
    expect(ideas[0]).toEqual({
      name: 'Sign in on /demo-shop/login.html',
      flow: ['open "/demo-shop/login.html"', 'fill "Email" with "{{user}}"', 'fill "Password" with "{{password}}"', 'click "Sign in"'],
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
