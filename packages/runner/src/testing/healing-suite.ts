import { DEMO_SHOP_USER } from '@rehearse/demo-shop';
import { startShopVersions } from '@rehearse/demo-shop/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ElementNotFoundError, resolveElement } from '../support/commands.js';
import { candidateLocator, type Element, type LocatorCandidate } from '../support/elements.js';
import { fingerprintOf, healElement, type ElementNeed } from '../support/healing.js';

/**
 * The self-healing benchmark (issue 10 "Must show"): scenarios recorded on the demo shop (v1),
 * replayed on "version 2" of the shop (renamed ids and classes, reordered and wrapped DOM,
 * one-word text changes, a moved menu). Every step whose recorded locators no longer find their
 * element is a broken step; healing either finds the right element (checked against where the
 * element really is in v2), a wrong one, or nothing.
 */

/** Both shop versions on one free port. */
export const startShops = startShopVersions;

/** What state a page needs before it opens: a cart line, a signed-in session. */
type Setup = 'none' | 'cart' | 'cart+session';

interface BenchElement {
  /** Page (relative URL) and state the element is recorded on. */
  page: string;
  setup: Setup;
  /** Candidates as a recorder ranks them: a CSS path first, then role/label with exact names. */
  locators: LocatorCandidate[];
  /** Where the element really is in version 2 (ground truth for "healed correctly"). */
  v2: string;
  /** What brings the element up on v1 before it is recorded (an error message after a failed sign-in). */
  before?: (page: Page) => Promise<void>;
}

const css = (value: string): LocatorCandidate => ({ kind: 'css', value });
const role = (r: string, name: string): LocatorCandidate => ({ kind: 'role', role: r, name, exact: true });
const label = (value: string): LocatorCandidate => ({ kind: 'label', value, exact: true });
const testId = (value: string): LocatorCandidate => ({ kind: 'testId', value });

const PRODUCTS: Array<[id: string, name: string]> = [
  ['trail-backpack', 'Trail Backpack'],
  ['enamel-camp-mug', 'Enamel Camp Mug'],
  ['summit-rain-jacket', 'Summit Rain Jacket'],
  ['ridge-headlamp', 'Ridge Headlamp'],
  ['merino-beanie', 'Merino Beanie'],
];

export const ELEMENTS: Record<string, BenchElement> = {
  nav_products: {
    page: 'product.html?id=trail-backpack',
    setup: 'none',
    locators: [css('.main-nav a[href="./"]'), role('link', 'Products')],
    v2: '.primary-menu a[href="./"]',
  },
  nav_cart: { page: './', setup: 'none', locators: [css('.main-nav .cart-link')], v2: '.basket-link' },
  header_sign_in: { page: './', setup: 'none', locators: [css('.account a.btn'), role('link', 'Sign in')], v2: '.user-menu a.btn' },
  login_email: { page: 'login.html', setup: 'none', locators: [css('#email'), label('Email')], v2: '#signin-email' },
  login_password: { page: 'login.html', setup: 'none', locators: [css('#password'), label('Password')], v2: '#signin-password' },
  login_submit: {
    page: 'login.html',
    setup: 'none',
    locators: [css('#login-form button[type="submit"]'), role('button', 'Sign in')],
    v2: '#signin-form button[type="submit"]',
  },
  login_error: {
    page: 'login.html',
    setup: 'none',
    locators: [css('#login-error')],
    v2: '#login-error',
    before: async (page) => {
      await page.fill('#email', DEMO_SHOP_USER.email);
      await page.fill('#password', 'wrong password');
      await page.click('#login-form button[type="submit"]');
    },
  },
  search_input: { page: './', setup: 'none', locators: [css('#search'), label('Search products')], v2: '#query' },
  search_button: { page: './', setup: 'none', locators: [css('#search-form button'), role('button', 'Search')], v2: '#find-form button' },
  product_grid: { page: './', setup: 'none', locators: [testId('product-list')], v2: '[data-testid="catalog"]' },
  ...Object.fromEntries(
    PRODUCTS.flatMap(([id, name]) => [
      [
        `add_${id}`,
        {
          page: './',
          setup: 'none',
          locators: [css(`button[data-add="${id}"]`), role('button', `Add ${name} to cart`)],
          v2: `button[data-product="${id}"]`,
        },
      ],
      [
        `link_${id}`,
        {
          page: './',
          setup: 'none',
          locators: [css(`.product-card-name a[href="product.html?id=${id}"]`)],
          v2: `.card-title a[href="product.html?id=${id}"]`,
        },
      ],
    ]),
  ),
  option: { page: 'product.html?id=trail-backpack', setup: 'none', locators: [css('#option'), label('Colour')], v2: '#variant' },
  quantity: { page: 'product.html?id=trail-backpack', setup: 'none', locators: [css('#quantity'), label('Quantity')], v2: '#qty' },
  add_to_cart: {
    page: 'product.html?id=trail-backpack',
    setup: 'none',
    locators: [css('#purchase-form button[type="submit"]'), role('button', 'Add to cart')],
    v2: '#buy-form button[type="submit"]',
  },
  price: { page: 'product.html?id=trail-backpack', setup: 'none', locators: [testId('product-price')], v2: '[data-testid="price"]' },
  checkout_link: {
    page: 'cart.html',
    setup: 'cart',
    locators: [css('.summary-card a.btn-primary'), role('link', 'Proceed to checkout')],
    v2: '.summary-card a.checkout-link',
  },
  remove_line: {
    page: 'cart.html',
    setup: 'cart',
    locators: [css('button[data-remove]'), role('button', 'Remove Trail Backpack (Slate)')],
    v2: 'button[data-delete]',
  },
  cart_total: { page: 'cart.html', setup: 'cart', locators: [testId('cart-total')], v2: '[data-testid="order-total"]' },
  full_name: { page: 'checkout.html', setup: 'cart+session', locators: [css('#fullName'), label('Full name')], v2: '#name' },
  checkout_email: { page: 'checkout.html', setup: 'cart+session', locators: [css('#email'), label('Email')], v2: '#contact-email' },
  address: { page: 'checkout.html', setup: 'cart+session', locators: [css('#address'), label('Address')], v2: '#address' },
  city: { page: 'checkout.html', setup: 'cart+session', locators: [css('#city'), label('City')], v2: '#city' },
  postal_code: { page: 'checkout.html', setup: 'cart+session', locators: [css('#postalCode'), label('Postal code')], v2: '#zip' },
  country: { page: 'checkout.html', setup: 'cart+session', locators: [css('#country'), label('Country')], v2: '#country-select' },
  terms: {
    page: 'checkout.html',
    setup: 'cart+session',
    locators: [css('#terms'), label('I agree to the terms and conditions')],
    v2: '#accept-terms',
  },
  place_order: {
    page: 'checkout.html',
    setup: 'cart+session',
    locators: [css('#place-order'), role('button', 'Place order')],
    v2: '#submit-order',
  },
};

type Action = 'click' | 'fill' | 'select' | 'check' | 'visible';

export interface BenchStep {
  action: Action;
  element: string;
  value?: string;
}

export interface BenchScenario {
  name: string;
  page: string;
  setup: Setup;
  steps: BenchStep[];
  /** Text the page must show at the end (a text assertion, never healed). */
  expect?: string;
}

const click = (element: string): BenchStep => ({ action: 'click', element });
const fill = (element: string, value: string): BenchStep => ({ action: 'fill', element, value });
const visible = (element: string): BenchStep => ({ action: 'visible', element });

export const SCENARIOS: BenchScenario[] = [
  {
    name: 'Sign in',
    page: 'login.html',
    setup: 'none',
    steps: [fill('login_email', DEMO_SHOP_USER.email), fill('login_password', DEMO_SHOP_USER.password), click('login_submit')],
    expect: 'Signed in as',
  },
  {
    name: 'Sign in with a wrong password',
    page: 'login.html',
    setup: 'none',
    steps: [fill('login_email', DEMO_SHOP_USER.email), fill('login_password', 'nope'), click('login_submit'), visible('login_error')],
  },
  { name: 'Type the email only', page: 'login.html', setup: 'none', steps: [fill('login_email', 'someone@example.com')] },
  { name: 'Open sign-in from the header', page: './', setup: 'none', steps: [click('header_sign_in')], expect: 'Demo account' },
  {
    name: 'Back to products from a product',
    page: 'product.html?id=trail-backpack',
    setup: 'none',
    steps: [click('nav_products')],
    expect: 'Gear for the trail ahead',
  },
  { name: 'Open the cart from the header', page: './', setup: 'none', steps: [click('nav_cart')], expect: 'Your cart' },
  {
    name: 'Search for a mug',
    page: './',
    setup: 'none',
    steps: [fill('search_input', 'mug'), click('search_button')],
    expect: 'Enamel Camp Mug',
  },
  {
    name: 'Search for a jacket',
    page: './',
    setup: 'none',
    steps: [fill('search_input', 'jacket'), click('search_button')],
    expect: 'Summit Rain Jacket',
  },
  { name: 'Product grid is shown', page: './', setup: 'none', steps: [visible('product_grid')] },
  ...PRODUCTS.map(([id, name]): BenchScenario => ({
    name: `Add ${name} from the list`,
    page: './',
    setup: 'none',
    steps: [click(`add_${id}`)],
    expect: `Added ${name}`,
  })),
  ...PRODUCTS.slice(0, 3).map(([id, name]): BenchScenario => ({
    name: `Open ${name}`,
    page: './',
    setup: 'none',
    steps: [click(`link_${id}`)],
    expect: 'Free returns within 30 days',
  })),
  {
    name: 'Add two backpacks',
    page: 'product.html?id=trail-backpack',
    setup: 'none',
    steps: [{ action: 'select', element: 'option', value: 'Slate' }, fill('quantity', '2'), click('add_to_cart')],
    expect: 'Added 2 × Trail Backpack (Slate)',
  },
  { name: 'Set the quantity', page: 'product.html?id=trail-backpack', setup: 'none', steps: [fill('quantity', '3')] },
  {
    name: 'Add without a colour',
    page: 'product.html?id=trail-backpack',
    setup: 'none',
    steps: [click('add_to_cart')],
    expect: 'Choose a colour',
  },
  { name: 'Price is shown', page: 'product.html?id=trail-backpack', setup: 'none', steps: [visible('price')] },
  { name: 'Proceed to checkout', page: 'cart.html', setup: 'cart', steps: [click('checkout_link')], expect: 'Demo account' },
  { name: 'Remove the line', page: 'cart.html', setup: 'cart', steps: [click('remove_line')], expect: 'Your cart is empty' },
  { name: 'Cart total is shown', page: 'cart.html', setup: 'cart', steps: [visible('cart_total')] },
  { name: 'Cart back to products', page: 'cart.html', setup: 'cart', steps: [click('nav_products')], expect: 'Gear for the trail ahead' },
  { name: 'Enter the full name', page: 'checkout.html', setup: 'cart+session', steps: [fill('full_name', 'Dana Demo')] },
  { name: 'Enter the email', page: 'checkout.html', setup: 'cart+session', steps: [fill('checkout_email', 'dana@example.com')] },
  { name: 'Enter the postal code', page: 'checkout.html', setup: 'cart+session', steps: [fill('postal_code', '10115')] },
  {
    name: 'Choose the country',
    page: 'checkout.html',
    setup: 'cart+session',
    steps: [{ action: 'select', element: 'country', value: 'DE' }],
  },
  { name: 'Accept the terms', page: 'checkout.html', setup: 'cart+session', steps: [{ action: 'check', element: 'terms' }] },
  {
    name: 'Place an empty order',
    page: 'checkout.html',
    setup: 'cart+session',
    steps: [click('place_order')],
    expect: 'Enter your full name',
  },
  {
    name: 'Fill the whole address',
    page: 'checkout.html',
    setup: 'cart+session',
    steps: [
      fill('full_name', 'Dana Demo'),
      fill('checkout_email', 'dana@example.com'),
      fill('address', '1 Trail Way'),
      fill('city', 'Berlin'),
      fill('postal_code', '10115'),
      { action: 'select', element: 'country', value: 'DE' },
      { action: 'check', element: 'terms' },
    ],
  },
  {
    name: 'Sign in then search',
    page: 'login.html',
    setup: 'none',
    steps: [
      fill('login_email', DEMO_SHOP_USER.email),
      fill('login_password', DEMO_SHOP_USER.password),
      click('login_submit'),
      fill('search_input', 'bottle'),
      click('search_button'),
    ],
    expect: 'Insulated Water Bottle',
  },
];

export const VIEWPORT = { width: 1024, height: 768 };

const CART_LINE = {
  productId: 'trail-backpack',
  name: 'Trail Backpack',
  optionLabel: 'Colour',
  option: 'Slate',
  priceCents: 12900,
  art: 'backpack',
  quantity: 1,
};

/** A fresh page at `base + page` with the state `setup` asks for. */
export async function openPage(context: BrowserContext, base: string, page: string, setup: Setup): Promise<Page> {
  const tab = await context.newPage();
  if (setup !== 'none') {
    let session: unknown = null;
    if (setup === 'cart+session') {
      const answer = await tab.request.post(new URL('api/login', base).href, {
        data: { email: DEMO_SHOP_USER.email, password: DEMO_SHOP_USER.password },
      });
      const body = (await answer.json()) as { name: string; email: string; token: string };
      session = { name: body.name, email: body.email, token: body.token };
    }
    // Source text: the script runs in the page, before the shop's own scripts read the storage.
    await tab.addInitScript({
      content: `localStorage.setItem('demo-shop.cart', ${JSON.stringify(JSON.stringify([CART_LINE]))});${
        session ? `localStorage.setItem('demo-shop.session', ${JSON.stringify(JSON.stringify(session))});` : ''
      }`,
    });
  }
  await tab.goto(new URL(page, base).href, { waitUntil: 'load' });
  return tab;
}

/** Records every element's fingerprint on v1, as the recorder would: the locator file of the suite. */
export async function recordElements(browser: Browser, v1: string): Promise<Record<string, Element>> {
  const recorded: Record<string, Element> = {};
  for (const [key, spec] of Object.entries(ELEMENTS)) {
    // A context per page, as a run has per scenario: no cart or session leaks from one to the next.
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await openPage(context, v1, spec.page, spec.setup);
    try {
      await spec.before?.(page);
      const locator = await resolveElement(page, { name: key, locators: spec.locators }, 5_000, [], (text) => text);
      recorded[key] = { name: key, locators: spec.locators, fingerprint: await fingerprintOf(page, locator) };
    } finally {
      await context.close();
    }
  }
  return recorded;
}

const NEED: Record<Action, ElementNeed> = { click: 'any', fill: 'fill', select: 'select', check: 'check', visible: 'any' };

async function perform(action: Action, target: Locator, value: string | undefined): Promise<void> {
  if (action === 'click') await target.click({ timeout: 5_000 });
  else if (action === 'fill') await target.fill(value ?? '', { timeout: 5_000 });
  else if (action === 'select') await target.selectOption(value ?? '', { timeout: 5_000 });
  else if (action === 'check') await target.check({ timeout: 5_000 });
}

export type StepOutcome = 'unbroken' | 'healed-correctly' | 'healed-wrongly' | 'not-healed';

export interface StepResult {
  scenario: string;
  element: string;
  assertion: boolean;
  outcome: StepOutcome;
  confidence: number;
  reason: string;
}

export interface ScenarioResult {
  name: string;
  steps: StepResult[];
  /** The scenario's own text assertion held at the end (it is never healed). */
  passed: boolean;
}

/**
 * Replays a scenario on `base` with the recorded elements. A step whose candidates fail is healed;
 * the healed element is compared with the real one (`v2` selector). The run goes on with the real
 * element either way, so one miss does not hide how later steps would fare.
 */
export async function replay(
  browser: Browser,
  base: string,
  scenario: BenchScenario,
  recorded: Record<string, Element>,
  timeoutMs: number,
): Promise<ScenarioResult> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await openPage(context, base, scenario.page, scenario.setup);
  const steps: StepResult[] = [];
  let passed = true;
  try {
    for (const step of scenario.steps) {
      const element = recorded[step.element]!;
      const assertion = step.action === 'visible';
      const truth = page.locator(ELEMENTS[step.element]!.v2).filter({ visible: true });
      let target: Locator;
      try {
        target = await resolveElement(page, element, timeoutMs, [], (text) => text);
        steps.push({
          scenario: scenario.name,
          element: step.element,
          assertion,
          outcome: 'unbroken',
          confidence: 1,
          reason: 'a recorded candidate still matches',
        });
      } catch (error) {
        if (!(error instanceof ElementNotFoundError)) throw error;
        const attempt = await healElement(page, element, NEED[step.action], assertion);
        let outcome: StepOutcome = 'not-healed';
        if (attempt.healed) {
          const same = await attempt.healed.locator.evaluate(
            (healed, selector) =>
              healed ===
              (globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document.querySelector(selector),
            ELEMENTS[step.element]!.v2,
          );
          outcome = same ? 'healed-correctly' : 'healed-wrongly';
          // The healed candidates must find the element on their own, as the next plain run will.
          const first = attempt.healed.locators[0]!;
          if (same && (await candidateLocator(page, first).count()) !== 1) outcome = 'healed-wrongly';
        }
        steps.push({
          scenario: scenario.name,
          element: step.element,
          assertion,
          outcome,
          confidence: attempt.confidence,
          reason: attempt.reason,
        });
        target = truth;
      }
      await perform(step.action, target, step.value);
    }
    if (scenario.expect) {
      passed = await page
        .getByText(scenario.expect)
        .first()
        .waitFor({ timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
    }
  } catch {
    passed = false;
  } finally {
    await context.close();
  }
  return { name: scenario.name, steps, passed };
}

export interface BenchSummary {
  scenarios: number;
  steps: number;
  broken: number;
  healedCorrectly: number;
  healedWrongly: number;
  healedWronglyOnAssertions: number;
  notHealed: number;
  v1Passed: number;
  v2Passed: number;
}

export function summarize(v1: ScenarioResult[], v2: ScenarioResult[]): BenchSummary {
  const steps = v2.flatMap((scenario) => scenario.steps);
  const broken = steps.filter((step) => step.outcome !== 'unbroken');
  return {
    scenarios: v2.length,
    steps: steps.length,
    broken: broken.length,
    healedCorrectly: broken.filter((step) => step.outcome === 'healed-correctly').length,
    healedWrongly: broken.filter((step) => step.outcome === 'healed-wrongly').length,
    healedWronglyOnAssertions: broken.filter((step) => step.outcome === 'healed-wrongly' && step.assertion).length,
    notHealed: broken.filter((step) => step.outcome === 'not-healed').length,
    v1Passed: v1.filter((scenario) => scenario.passed).length,
    v2Passed: v2.filter((scenario) => scenario.passed).length,
  };
}
