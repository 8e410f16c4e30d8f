import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRIES } from './checkout.js';
import { DEMO_SHOP_PATH, DEMO_SHOP_USER, demoShopPlugin } from './index.js';

const API = `${DEMO_SHOP_PATH}/api`;

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

const validOrder = {
  fullName: 'Dana Demo',
  email: 'demo@rehearse.dev',
  address: 'Hauptstraße 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  deliveryDate: daysFromNow(5),
  terms: true,
  items: [
    { productId: 'trail-backpack', option: 'Slate', quantity: 1 },
    { productId: 'enamel-camp-mug', option: 'Navy', quantity: 2 },
  ],
};

let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  app = Fastify();
  // The host server registers @fastify/static for its own files; the shop must coexist with that.
  await app.register(fastifyStatic, { root: import.meta.dirname, prefix: '/host-files/' });
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs: 50 });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: { email: DEMO_SHOP_USER.email, password: DEMO_SHOP_USER.password },
  });
  token = login.json<{ token: string }>().token;
});

afterAll(async () => {
  await app.close();
});

function placeOrder(payload: unknown, headers: Record<string, string> = { authorization: `Bearer ${token}` }) {
  return app.inject({ method: 'POST', url: `${API}/orders`, headers, payload: payload as object });
}

describe('pages', () => {
  it('redirects the bare prefix to the trailing slash, keeping the query', async () => {
    const response = await app.inject({ url: `${DEMO_SHOP_PATH}?q=mug` });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`${DEMO_SHOP_PATH}/?q=mug`);
  });

  it('serves the home page with a loading status before the products arrive', async () => {
    const response = await app.inject({ url: `${DEMO_SHOP_PATH}/` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toMatch(/<p id="product-status" class="status" role="status">Loading products…<\/p>/);
    expect(response.body).toContain('<label for="search">Search products</label>');
  });

  it.each(['product.html', 'cart.html', 'login.html', 'checkout.html', 'confirmation.html', 'css/shop.css', 'js/shell.js'])(
    'serves %s',
    async (file) => {
      const response = await app.inject({ url: `${DEMO_SHOP_PATH}/${file}` });
      expect(response.statusCode).toBe(200);
    },
  );

  it('offers exactly the countries the server accepts', async () => {
    const page = (await app.inject({ url: `${DEMO_SHOP_PATH}/checkout.html` })).body;
    const options = [...page.matchAll(/<option value="([A-Z]{2})">([^<]+)<\/option>/g)].map(([, code, name]) => ({ code, name }));
    expect(options).toEqual(COUNTRIES.map(({ code, name }) => ({ code, name })));
  });

  it('answers unknown pages with an HTML 404 and unknown API paths with JSON', async () => {
    const page = await app.inject({ url: `${DEMO_SHOP_PATH}/nope.html` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Page not found');
    const api = await app.inject({ url: `${API}/nope` });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ ok: false, error: `No API route for GET ${API}/nope` });
  });

  it('leaves the host server’s own static files alone', async () => {
    const response = await app.inject({ url: '/host-files/api.test.ts' });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET products', () => {
  it('lists every product after the artificial delay', async () => {
    const started = performance.now();
    const response = await app.inject({ url: `${API}/products` });
    expect(performance.now() - started).toBeGreaterThanOrEqual(35); // 50 ms jittered by at most −25%
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ query: string; products: { id: string; priceCents: number; currency: string }[] }>();
    expect(body.query).toBe('');
    expect(body.products).toHaveLength(12);
    expect(body.products[0]).toMatchObject({ id: 'trail-backpack', priceCents: 8900, currency: 'USD' });
  });

  it('filters by the query', async () => {
    const response = await app.inject({ url: `${API}/products?q=${encodeURIComponent(' Backpack ')}` });
    const body = response.json<{ query: string; products: { name: string }[] }>();
    expect(body.query).toBe('Backpack');
    expect(body.products.map((product) => product.name)).toEqual(['Trail Backpack', 'Trail Backpack Mini']);
    const none = await app.inject({ url: `${API}/products?q=kayak` });
    expect(none.json<{ products: unknown[] }>().products).toEqual([]);
  });

  it('returns one product by id, or 404', async () => {
    const found = await app.inject({ url: `${API}/products/summit-rain-jacket` });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ name: 'Summit Rain Jacket', option: { label: 'Size' } });
    const missing = await app.inject({ url: `${API}/products/no-such-thing` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ ok: false, error: 'Product not found' });
  });
});

describe('POST login', () => {
  it('signs the demo user in', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/login`,
      payload: { email: 'Demo@Rehearse.dev ', password: DEMO_SHOP_USER.password },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, name: DEMO_SHOP_USER.name, email: DEMO_SHOP_USER.email, token: expect.any(String) });
  });

  it('rejects a wrong password with 401', async () => {
    const response = await app.inject({ method: 'POST', url: `${API}/login`, payload: { email: DEMO_SHOP_USER.email, password: 'wrong' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ ok: false, error: 'Invalid email or password' });
  });

  it.each([
    ['missing fields', { 'content-type': 'application/json' }, '{}', 400, 'Enter your email and password'],
    ['bad JSON', { 'content-type': 'application/json' }, '{"email":', 400, 'Request body is not valid JSON'],
    ['an empty JSON body', { 'content-type': 'application/json' }, '', 400, 'Request body is empty; send a JSON object'],
    ['a JSON array', { 'content-type': 'application/json' }, '[]', 400, 'Request body must be a JSON object'],
    ['plain text', { 'content-type': 'text/plain' }, 'demo', 415, 'Send the request body as application/json'],
  ])('answers %s with a clear 4xx', async (_case, headers, payload, status, error) => {
    const response = await app.inject({ method: 'POST', url: `${API}/login`, headers, payload });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ ok: false, error });
  });
});

describe('orders', () => {
  it('requires a signed-in shopper', async () => {
    const anonymous = await placeOrder(validOrder, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ ok: false, error: 'Sign in to place an order' });
    const forged = await placeOrder(validOrder, { authorization: 'Bearer not-a-token' });
    expect(forged.statusCode).toBe(401);
  });

  it('rejects an empty order with an error for each field', async () => {
    const response = await placeOrder({});
    expect(response.statusCode).toBe(400);
    const body = response.json<{ ok: boolean; error: string; errors: Record<string, string> }>();
    expect(body.ok).toBe(false);
    expect(body.error).toBe('Please correct the highlighted fields');
    expect(Object.keys(body.errors).sort()).toEqual(
      ['address', 'city', 'country', 'deliveryDate', 'email', 'fullName', 'items', 'postalCode', 'terms'].sort(),
    );
  });

  it('rejects a delivery date in the past', async () => {
    const response = await placeOrder({ ...validOrder, deliveryDate: daysFromNow(-2) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: { deliveryDate: 'Delivery date must be tomorrow or later' } });
  });

  it('rejects a postal code that does not fit the country', async () => {
    const response = await placeOrder({ ...validOrder, postalCode: 'ABC' });
    expect(response.json()).toMatchObject({ errors: { postalCode: 'Enter a valid postal code for Germany' } });
  });

  it('answers bad JSON with 400, never 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/orders`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"fullName": "Dana",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ ok: false, error: 'Request body is not valid JSON' });
  });

  it('stores an order and returns it by its number', async () => {
    const created = await placeOrder(validOrder);
    expect(created.statusCode).toBe(201);
    const { orderId } = created.json<{ orderId: string }>();
    expect(orderId).toMatch(/^RH-[A-HJ-NP-Z2-9]{6}$/);

    const fetched = await app.inject({ url: `${API}/orders/${orderId}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toMatchObject({
      orderId,
      currency: 'USD',
      deliveryDate: validOrder.deliveryDate,
      customer: { fullName: 'Dana Demo', city: 'Berlin', country: 'DE', countryName: 'Germany' },
      items: [
        { productId: 'trail-backpack', name: 'Trail Backpack', option: 'Slate', quantity: 1, lineTotalCents: 8900 },
        { productId: 'enamel-camp-mug', name: 'Enamel Camp Mug', option: 'Navy', quantity: 2, lineTotalCents: 2900 },
      ],
      subtotalCents: 11800,
      shippingCents: 0,
      totalCents: 11800,
    });

    const lowercase = await app.inject({ url: `${API}/orders/${orderId.toLowerCase()}` });
    expect(lowercase.statusCode).toBe(200);
  });

  it('charges shipping below $100', async () => {
    const created = await placeOrder({ ...validOrder, items: [{ productId: 'merino-beanie', option: 'Teal', quantity: 1 }] });
    const { orderId } = created.json<{ orderId: string }>();
    const order = (await app.inject({ url: `${API}/orders/${orderId}` })).json();
    expect(order).toMatchObject({ subtotalCents: 2400, shippingCents: 595, totalCents: 2995 });
  });

  it('answers an unknown order number with 404', async () => {
    const response = await app.inject({ url: `${API}/orders/RH-NOPE00` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ ok: false, error: 'Order not found' });
  });

  it('forgets the session on logout', async () => {
    const login = await app.inject({
      method: 'POST',
      url: `${API}/login`,
      payload: { email: DEMO_SHOP_USER.email, password: DEMO_SHOP_USER.password },
    });
    const sessionToken = login.json<{ token: string }>().token;
    const logout = await app.inject({ method: 'POST', url: `${API}/logout`, headers: { authorization: `Bearer ${sessionToken}` } });
    expect(logout.statusCode).toBe(200);
    const response = await placeOrder(validOrder, { authorization: `Bearer ${sessionToken}` });
    expect(response.statusCode).toBe(401);
  });
});
