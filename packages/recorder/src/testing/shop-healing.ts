import { DEMO_SHOP_USER } from '@rehearse/demo-shop';
import { startShopVersions } from '@rehearse/demo-shop/testing';
import type { Page } from 'playwright-core';
import type { RecorderSession } from '../session.js';
import type { BenchScenario, BenchTarget } from './healing-bench.js';

/**
 * The demo shop as a target of the recorded healing benchmark (healing-bench.ts): version 2 is a
 * redesign (ids and classes renamed, DOM reordered and wrapped, "Sign in" → "Log in", "Cart" →
 * "Basket", the menu moved). The state compared after each step is the page, the cart, whether
 * someone is signed in, and the values in the page's fields.
 */

async function type(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.type(text);
}

const WRONG_PASSWORD = 'not-the-password';

async function signIn(page: Page, password = DEMO_SHOP_USER.password): Promise<void> {
  await type(page, 'Email', DEMO_SHOP_USER.email);
  await type(page, 'Password', password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function addFromList(page: Page, product: string): Promise<void> {
  await page.getByRole('button', { name: `Add ${product} to cart` }).click();
  await page.getByText(`Added ${product}`).waitFor();
}

async function openCart(page: Page): Promise<void> {
  await page.getByRole('link', { name: /^Cart/ }).click();
  await page.getByRole('heading', { name: 'Your cart', exact: true }).waitFor();
}

async function seeElement(session: RecorderSession, page: Page, find: (page: Page) => ReturnType<Page['getByText']>): Promise<void> {
  await find(page).waitFor();
  await session.assertNext('verifyVisible');
  await find(page).click();
}

async function seeText(session: RecorderSession, page: Page, text: string): Promise<void> {
  await page.getByText(text).first().waitFor();
  await session.assertText(text);
}

export const SHOP_SCENARIOS: BenchScenario[] = [
  {
    name: 'Sign in',
    start: 'login.html',
    drive: async (page, session) => {
      await signIn(page);
      await seeText(session, page, 'Signed in as');
    },
  },
  {
    name: 'Sign in with a wrong password',
    start: 'login.html',
    drive: async (page, session) => {
      await signIn(page, WRONG_PASSWORD);
      await seeElement(session, page, (p) => p.getByRole('alert'));
    },
  },
  {
    name: 'Open sign-in from the header',
    drive: async (page, session) => {
      await page.getByRole('link', { name: 'Sign in' }).click();
      await seeText(session, page, 'Demo account');
    },
  },
  {
    name: 'Back to products from a product',
    start: 'product.html?id=trail-backpack',
    drive: async (page, session) => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await seeText(session, page, 'Gear for the trail ahead');
    },
  },
  {
    name: 'Open the cart from the header',
    drive: async (page, session) => {
      await openCart(page);
      await seeText(session, page, 'Your cart');
    },
  },
  {
    name: 'Search for a mug',
    drive: async (page, session) => {
      await type(page, 'Search products', 'mug');
      await page.getByRole('button', { name: 'Search' }).click();
      await seeText(session, page, 'Enamel Camp Mug');
    },
  },
  {
    name: 'Add a backpack from the list',
    drive: async (page) => {
      await addFromList(page, 'Trail Backpack');
    },
  },
  {
    name: 'Add a mug from the list',
    drive: async (page) => {
      await addFromList(page, 'Enamel Camp Mug');
    },
  },
  {
    name: 'Open a product',
    drive: async (page, session) => {
      await page.getByRole('link', { name: 'Summit Rain Jacket', exact: true }).click();
      await seeText(session, page, 'Free returns within 30 days');
    },
  },
  {
    name: 'Add two backpacks',
    start: 'product.html?id=trail-backpack',
    drive: async (page, session) => {
      await page.getByLabel('Colour').selectOption('Slate');
      await page.getByLabel('Quantity').fill('2');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await seeText(session, page, 'Added 2 × Trail Backpack (Slate)');
    },
  },
  {
    name: 'Add without a colour',
    start: 'product.html?id=trail-backpack',
    drive: async (page, session) => {
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await seeText(session, page, 'Choose a colour');
    },
  },
  {
    name: 'The price is shown',
    start: 'product.html?id=trail-backpack',
    drive: async (page, session) => {
      await seeElement(session, page, (p) => p.getByTestId('product-price'));
    },
  },
  {
    name: 'Remove the line',
    drive: async (page, session) => {
      await addFromList(page, 'Trail Backpack');
      await openCart(page);
      await page.getByRole('button', { name: /^Remove/ }).click();
      await seeText(session, page, 'Your cart is empty');
    },
  },
  {
    name: 'Proceed to checkout',
    drive: async (page, session) => {
      await addFromList(page, 'Trail Backpack');
      await openCart(page);
      await page.getByRole('link', { name: 'Proceed to checkout' }).click();
      await seeText(session, page, 'Demo account');
    },
  },
  {
    name: 'Fill the address',
    start: 'login.html?returnTo=checkout.html',
    drive: async (page) => {
      // Signed in with nothing in the cart, checkout says so: fill the cart first, then go there.
      await signIn(page);
      await page
        .getByRole('heading', { name: /checkout|cart is empty/i })
        .first()
        .waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await addFromList(page, 'Enamel Camp Mug');
      await openCart(page);
      await page.getByRole('link', { name: 'Proceed to checkout' }).click();
      await type(page, 'Full name', 'Dana Demo');
      await type(page, 'Address', '1 Trail Way');
      await type(page, 'City', 'Berlin');
      await type(page, 'Postal code', '10115');
      await page.getByLabel('Country').selectOption('Germany');
      await page.getByText('I agree to the terms and conditions').click();
    },
  },
];

// Runs in the page after every step: the same for both versions, whatever their markup.
const SHOP_STATE_SCRIPT = `(() => {
  const read = (key) => { try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch { return null; } };
  const cart = (read('demo-shop.cart') || []).map((line) => line.productId + ':' + (line.option || '') + ':' + line.quantity);
  const fields = [...document.querySelectorAll('input,select,textarea')]
    .filter((e) => e.type !== 'hidden' && e.getClientRects().length > 0)
    .map((e) => (e.type === 'checkbox' || e.type === 'radio' ? (e.checked ? 'checked' : '') : e.value))
    .filter(Boolean)
    .sort();
  return { page: location.pathname.replace(/^.*\\/demo-shop(-v2)?\\//, '') + location.search, cart, signedIn: Boolean(read('demo-shop.session')), fields };
})()`;

/** The demo shop as the recorded healing benchmark's target. */
export const SHOP_TARGET: BenchTarget = {
  name: 'demo shop',
  start: startShopVersions,
  ready: (page) => page.waitForLoadState('load'),
  stateScript: SHOP_STATE_SCRIPT,
  // A click that navigates returns before the next page has loaded.
  settleMs: 100,
  testData: [
    { key: 'user', value: DEMO_SHOP_USER.email },
    { key: 'password', value: DEMO_SHOP_USER.password, secret: true },
    // A password field is only ever recorded as a reference: the wrong one is test data too.
    { key: 'wrong_password', value: WRONG_PASSWORD, secret: true },
  ],
  scenarios: SHOP_SCENARIOS,
};
