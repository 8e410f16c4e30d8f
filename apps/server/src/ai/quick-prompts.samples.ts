/**
 * Twenty step files, generated-style (recorder output: named functions, element maps, options
 * objects) and hand-written (inline callbacks, arrows, tabs, loops, helpers), each with the step
 * the quick-prompt tests transform and run.
 */
export interface Sample {
  name: string;
  code: string;
  /** The `function_name` the web app sends. */
  functionName: string;
  /** The step pattern that runs the function, and its arguments. */
  pattern: string;
  args: unknown[];
}

const HEADER = `import { Given, When, Then } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

const elements = {
  add_to_cart: { name: 'Add to cart', locators: [{ kind: 'role', role: 'button', name: 'Add to cart' }] },
  quantity: { name: 'Quantity', locators: [{ kind: 'label', value: 'Quantity' }] },
  colour: { name: 'Colour', locators: [{ kind: 'testId', value: 'colour-select' }] },
  terms: { name: 'Terms', locators: [{ kind: 'label', value: 'I accept' }] },
  menu: { name: 'Menu', locators: [{ kind: 'css', value: 'nav .menu' }] },
};
`;

export const SAMPLES: Sample[] = [
  {
    name: 'generated named function with several commands',
    functionName: 'add_to_cart_with_quantity',
    pattern: 'I add {string} items to the cart',
    args: ['2'],
    code: `${HEADER}
/**
 * Add items to the cart
 * @recorder
 * @implemented_at=2026-11-01T10:00:00Z
 */
async function add_to_cart_with_quantity(quantity) {
  const _params = { quantity };
  const options = {};
  await context.web.fill(elements["quantity"], "{{quantity}}", _params, options, this);
  await context.web.click(elements["add_to_cart"], _params, options, this);
}
When("I add {string} items to the cart", add_to_cart_with_quantity);
`,
  },
  {
    name: 'inline function expression in When',
    functionName: 'I add it to the cart',
    pattern: 'I add it to the cart',
    args: [],
    code: `${HEADER}
When('I add it to the cart', async function () {
  await context.web.click(elements.add_to_cart, {}, {}, this);
});
`,
  },
  {
    name: 'arrow function with parameters',
    functionName: 'I pick the colour {string}',
    pattern: 'I pick the colour {string}',
    args: ['Slate'],
    code: `${HEADER}
When('I pick the colour {string}', async (colour) => {
  await context.web.select(elements.colour, colour);
  await context.web.click(elements.add_to_cart, { colour });
});
`,
  },
  {
    name: 'expression-bodied arrow',
    functionName: 'I buy now',
    pattern: 'I buy now',
    args: [],
    code: `${HEADER}
When('I buy now', async () => context.web.click(elements.add_to_cart));
`,
  },
  {
    name: 'click with an existing timeout',
    functionName: 'slow_click',
    pattern: 'I click slowly',
    args: [],
    code: `${HEADER}
async function slow_click() {
  await context.web.click(elements.add_to_cart, {}, { timeout: 5000 }, this);
}
When('I click slowly', slow_click);
`,
  },
  {
    name: 'click with options from a variable',
    functionName: 'click_with_shared_options',
    pattern: 'I click with shared options',
    args: [],
    code: `${HEADER}
const shared = { screenshot: false };
async function click_with_shared_options() {
  await context.web.click(elements.add_to_cart, {}, shared, this);
}
When('I click with shared options', click_with_shared_options);
`,
  },
  {
    name: 'click by visible words with one argument',
    functionName: 'I sign in',
    pattern: 'I sign in',
    args: [],
    code: `${HEADER}
Given('I sign in', async function () {
  await context.web.click('Sign in');
});
`,
  },
  {
    name: 'fill then an assertion',
    functionName: 'search_for',
    pattern: 'I search for {string}',
    args: ['mug'],
    code: `${HEADER}
async function search_for(term) {
  await context.web.fill(elements.quantity, term, {}, {}, this);
  await context.web.verifyText('Results', {}, {}, this);
}
When('I search for {string}', search_for);
`,
  },
  {
    name: 'page-level key press',
    functionName: 'I press enter in the field',
    pattern: 'I press enter in the field',
    args: [],
    code: `${HEADER}
When('I press enter in the field', async function () {
  await context.web.press(elements.quantity, 'Tab', {}, {}, this);
  await context.web.press(null, 'Enter', {}, {}, this);
});
`,
  },
  {
    name: 'hand-written with comments, blank lines and tabs',
    functionName: 'checkout',
    pattern: 'I check out',
    args: [],
    code: `import { When } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

const elements = { add_to_cart: { name: 'Add to cart', locators: [{ kind: 'text', value: 'Add to cart' }] } };

async function checkout() {
\t// first the cart
\tawait context.web.click(elements.add_to_cart, {}, {}, this);

\t// then the form
\tawait context.web.fill('Email', 'dana@example.com', {}, {}, this);
}

When('I check out', checkout);
`,
  },
  {
    name: 'four-space indentation',
    functionName: 'open_menu',
    pattern: 'I open the menu',
    args: [],
    code: `import { When } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

const elements = { menu: { name: 'Menu', locators: [{ kind: 'css', value: 'nav .menu' }] } };

async function open_menu() {
    await context.web.hover(elements.menu, {}, {}, this);
    await context.web.click(elements.menu, {}, {}, this);
}

When('I open the menu', open_menu);
`,
  },
  {
    name: 'loop over items',
    functionName: 'I add {int} things',
    pattern: 'I add {int} things',
    args: [2],
    code: `${HEADER}
When('I add {int} things', async function (count) {
  for (let i = 0; i < count; i += 1) {
    await context.web.click(elements.add_to_cart, {}, {}, this);
  }
});
`,
  },
  {
    name: 'if and else branches',
    functionName: 'I choose {string}',
    pattern: 'I choose {string}',
    args: ['terms'],
    code: `${HEADER}
When('I choose {string}', async function (what) {
  if (what === 'terms') {
    await context.web.check(elements.terms, {}, {}, this);
  } else {
    await context.web.click(elements.menu, {}, {}, this);
  }
});
`,
  },
  {
    name: 'existing try and finally',
    functionName: 'careful_click',
    pattern: 'I click carefully',
    args: [],
    code: `${HEADER}
async function careful_click() {
  try {
    await context.web.click(elements.add_to_cart, {}, {}, this);
  } finally {
    await context.web.wait(100, {}, {}, this);
  }
}
When('I click carefully', careful_click);
`,
  },
  {
    name: 'local helper and computed value',
    functionName: 'fill_twice',
    pattern: 'I fill the quantity twice',
    args: [],
    code: `${HEADER}
const twice = (n) => String(Number(n) * 2);
async function fill_twice() {
  const value = twice('2');
  await context.web.fill(elements.quantity, value, {}, {}, this);
  return value;
}
When('I fill the quantity twice', fill_twice);
`,
  },
  {
    name: 'regular-expression step',
    functionName: '^I open the (\\w+) menu$',
    pattern: '^I open the (\\w+) menu$',
    args: ['main'],
    code: `${HEADER}
Then(/^I open the (\\w+) menu$/, async function (which) {
  await context.web.click(elements.menu, { which }, {}, this);
});
`,
  },
  {
    name: 'function held in a variable',
    functionName: 'accept_terms',
    pattern: 'I accept the terms',
    args: [],
    code: `${HEADER}
const accept_terms = async function () {
  await context.web.check(elements.terms, {}, {}, this);
  await context.web.click(elements.add_to_cart, {}, {}, this);
};
When('I accept the terms', accept_terms);
`,
  },
  {
    name: 'empty generated body',
    functionName: 'nothing_yet',
    pattern: 'nothing happens yet',
    args: [],
    code: `${HEADER}
async function nothing_yet() {}
When('nothing happens yet', nothing_yet);
`,
  },
  {
    name: 'select, check and hover',
    functionName: 'configure',
    pattern: 'I configure the product',
    args: [],
    code: `${HEADER}
async function configure() {
  await context.web.select(elements.colour, 'Slate', {}, {}, this);
  await context.web.check(elements.terms, {}, {}, this);
  await context.web.hover(elements.menu, {}, {}, this);
  await context.web.click(elements.add_to_cart, {}, { screenshot: false }, this);
}
When('I configure the product', configure);
`,
  },
  {
    name: 'one of several functions in a file',
    functionName: 'second_step',
    pattern: 'the second step',
    args: [],
    code: `${HEADER}
async function first_step() {
  await context.web.click(elements.menu, {}, {}, this);
}
async function second_step() {
  await context.web.click(elements.add_to_cart, {}, {}, this);
  await context.web.verifyVisible(elements.quantity, {}, {}, this);
}
async function third_step() {
  await context.web.click(elements.menu, {}, {}, this);
}
When('the first step', first_step);
When('the second step', second_step);
When('the third step', third_step);
`,
  },
];
