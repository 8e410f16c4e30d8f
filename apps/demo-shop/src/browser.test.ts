import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SHOP_PATH, DEMO_SHOP_USER, demoShopPlugin } from './index.js';

const TEST_TIMEOUT_MS = 60_000;

let app: FastifyInstance;
let browser: Browser;
let shopUrl: string;
let context: BrowserContext;
let page: Page;

/** A date `days` ahead in this machine's time zone, which is also the browser's. */
function localDateInDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The text of the elements a field's aria-describedby points at, as a screen reader would read it. */
async function accessibleDescription(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
  const parts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return parts.map((part) => part?.trim() ?? '').join(' ');
}

/** Resolves the returned promise's `release` to let a held request through. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

beforeAll(async () => {
  app = Fastify();
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs: 50 });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  shopUrl = `${address}${DEMO_SHOP_PATH}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
});

describe('demo shop in a browser', () => {
  it(
    'takes a shopper from search to a placed order',
    async () => {
      // Hold the first product request so that the loading state can be seen for certain.
      const firstLoad = gate();
      let heldFirstLoad = false;
      await page.route('**/api/products?q=', async (route) => {
        heldFirstLoad = true;
        await firstLoad.opened;
        await route.continue();
      });
      await page.goto(shopUrl);
      const status = page.getByRole('status');
      const products = page.getByRole('list', { name: 'Products' }).getByRole('listitem');
      expect(await status.textContent()).toBe('Loading products…');
      expect(await products.count()).toBe(0);
      await expect.poll(() => heldFirstLoad).toBe(true);
      firstLoad.release();
      await expect.poll(() => status.textContent()).toBe('12 products');
      expect(await products.count()).toBe(12);
      expect(await page.getByRole('button', { name: 'Add Two-Person Tent to cart' }).isDisabled()).toBe(true);

      // Search filters as you type, without submitting.
      await page.getByLabel('Search products').fill('backpack');
      await expect.poll(() => status.textContent()).toBe('2 products matching “backpack”');
      expect(await products.count()).toBe(2);
      expect(page.url()).toContain('?q=backpack');

      // "Trail Backpack" is also a prefix of "Trail Backpack Mini", so the link needs an exact name.
      await page.getByRole('link', { name: 'Trail Backpack', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Trail Backpack' }).waitFor();
      expect(await page.getByTestId('product-price').textContent()).toBe('$89.00');

      const colour = page.getByLabel('Colour');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      expect(await accessibleDescription(colour)).toBe('Choose a colour');
      expect(await colour.getAttribute('aria-invalid')).toBe('true');

      await colour.selectOption('Slate');
      await page.getByLabel('Quantity').fill('2');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Added 2 × Trail Backpack (Slate) to your cart');
      expect(await page.getByTestId('cart-count').textContent()).toBe('2');

      await page.getByRole('link', { name: /^Cart/ }).click();
      await page.getByRole('heading', { name: 'Your cart' }).waitFor();
      const row = page.getByRole('row', { name: /Trail Backpack/ });
      expect(await row.getByRole('cell').first().textContent()).toBe('$89.00');
      expect(await page.getByLabel('Quantity of Trail Backpack (Slate)').inputValue()).toBe('2');
      expect(await page.getByTestId('cart-total').textContent()).toBe('$178.00');

      // Checkout needs a signed-in shopper, so the shop sends us to sign in first.
      await page.getByRole('link', { name: 'Proceed to checkout' }).click();
      await page.waitForURL(/login\.html\?returnTo=checkout\.html/);
      expect(await page.getByText('Sign in to continue to checkout.').isVisible()).toBe(true);
      await page.getByLabel('Email').fill(DEMO_SHOP_USER.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password');
      await page.getByLabel('Password').fill(DEMO_SHOP_USER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Matched on the path: the sign-in page's own address ends in "returnTo=checkout.html".
      await page.waitForURL((url) => url.pathname.endsWith('/checkout.html'));
      await page.getByRole('banner').getByText(`Signed in as ${DEMO_SHOP_USER.name}`).waitFor();
      expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

      // First attempt: the page's own validation stops it.
      const deliveryDate = page.getByLabel('Delivery date');
      const terms = page.getByLabel('I agree to the terms and conditions');
      await page.getByLabel('Full name').fill('Dana Demo');
      expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_SHOP_USER.email);
      await page.getByLabel('Address').fill('Hauptstraße 1');
      await page.getByLabel('City').fill('Berlin');
      await page.getByLabel('Postal code').fill('ABC');
      await page.getByLabel('Country').selectOption('Germany');
      await deliveryDate.fill(localDateInDays(-1));
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('There are problems with 2 fields.');
      expect(await accessibleDescription(deliveryDate)).toBe('We deliver from tomorrow onwards. Delivery date must be tomorrow or later');
      expect(await accessibleDescription(terms)).toBe('You must accept the terms and conditions');
      expect(await deliveryDate.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(':focus').getAttribute('id')).toBe('deliveryDate');
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Second attempt passes the page but not the server, which checks the postal code per country.
      await deliveryDate.fill(localDateInDays(3));
      expect(await deliveryDate.getAttribute('aria-invalid')).toBeNull();
      await terms.check();
      await page.getByRole('button', { name: 'Place order' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your order' });
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect(await dialog.textContent()).toContain('2 items for $178.00');

      // Focus starts on Cancel and cannot leave the dialog; Escape closes it and returns focus.
      const focused = page.locator(':focus');
      expect(await focused.textContent()).toBe('Cancel');
      await page.keyboard.press('Tab');
      expect(await focused.textContent()).toBe('Confirm');
      await page.keyboard.press('Tab');
      expect(await focused.textContent()).toBe('Cancel');
      await page.keyboard.press('Shift+Tab');
      expect(await focused.textContent()).toBe('Confirm');
      expect(await dialog.locator(':focus').count()).toBe(1);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await focused.textContent()).toBe('Place order');

      await page.getByRole('button', { name: 'Place order' }).click();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const postalCode = page.getByLabel('Postal code');
      await expect.poll(() => accessibleDescription(postalCode)).toBe('Enter a valid postal code for Germany');
      expect(await postalCode.getAttribute('aria-invalid')).toBe('true');

      // Third attempt goes through.
      await postalCode.fill('10115');
      await page.getByRole('button', { name: 'Place order' }).click();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/confirmation\.html\?order=RH-/);
      await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
      const orderNumber = await page.getByTestId('order-number').textContent();
      expect(orderNumber).toMatch(/^RH-[A-HJ-NP-Z2-9]{6}$/);
      expect(page.url()).toContain(`order=${orderNumber}`);
      expect(await page.getByTestId('cart-count').textContent()).toBe('0');
      expect(await page.getByText('2 × Trail Backpack (Slate)').isVisible()).toBe(true);

      const stored = await app.inject({ url: `${DEMO_SHOP_PATH}/api/orders/${orderNumber}` });
      expect(stored.json()).toMatchObject({ totalCents: 17800, deliveryDate: localDateInDays(3), customer: { postalCode: '10115' } });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'ignores a slow search answer that a newer search has overtaken',
    async () => {
      await page.goto(`${shopUrl}?q=`);
      const status = page.getByRole('status');
      await expect.poll(() => status.textContent()).toBe('12 products');

      const slowMug = gate();
      let heldMug = false;
      await page.route('**/api/products?q=mug', async (route) => {
        heldMug = true;
        await slowMug.opened;
        // The page aborts this request once a newer search starts; continuing it then fails.
        await route.continue().catch(() => {});
      });
      const search = page.getByLabel('Search products');
      await search.fill('mug');
      await expect.poll(() => heldMug).toBe(true);
      await search.fill('headlamp');
      await expect.poll(() => status.textContent()).toBe('1 product matching “headlamp”');
      slowMug.release();
      await page.waitForTimeout(200);
      expect(await status.textContent()).toBe('1 product matching “headlamp”');
      const names = await page.getByRole('list', { name: 'Products' }).getByRole('heading').allTextContents();
      expect(names).toEqual(['Ridge Headlamp']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'lets the cart change quantities and remove lines',
    async () => {
      await page.goto(`${shopUrl}?q=mug`);
      await page.getByRole('button', { name: 'Add Enamel Camp Mug to cart' }).click();
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Added Enamel Camp Mug (White) to your cart');
      await page.getByRole('link', { name: 'View cart' }).click();
      await page.getByRole('heading', { name: 'Your cart' }).waitFor();

      const quantity = page.getByLabel('Quantity of Enamel Camp Mug (White)');
      await quantity.fill('3');
      await quantity.press('Tab');
      await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('$49.45'); // 3 × $14.50 + $5.95 shipping
      expect(await page.getByTestId('cart-count').textContent()).toBe('3');

      await page.getByRole('button', { name: 'Remove Enamel Camp Mug (White)' }).click();
      await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
      expect(await page.getByTestId('cart-count').textContent()).toBe('0');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows the signed-in name after signing in from any page, and signs out',
    async () => {
      await page.goto(`${shopUrl}product.html?id=merino-beanie`);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(DEMO_SHOP_USER.email);
      await page.getByLabel('Password').fill(DEMO_SHOP_USER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/product.html') && url.search === '?id=merino-beanie');
      await page.getByRole('banner').getByText(DEMO_SHOP_USER.name).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});
