import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_SHOP_USER } from './account.js';
import { BoundedMap } from './bounded-map.js';
import { CURRENCY, findProduct, searchProducts } from './catalog.js';
import type { Product } from './catalog.js';
import { validateCheckout } from './checkout.js';
import type { OrderDraft } from './checkout.js';

export interface ApiOptions {
  productDelayMs: number;
}

export interface Order extends OrderDraft {
  orderId: string;
  createdAt: string;
  currency: string;
}

interface Session {
  email: string;
  name: string;
}

const STORE_CAPACITY = 1000;
const MAX_QUERY_LENGTH = 100;
// Far above any real checkout body; keeps a public demo from buffering megabytes per request.
const BODY_LIMIT_BYTES = 64 * 1024;
// No 0/O or 1/I, so an order number read off a screenshot or spoken aloud is unambiguous.
const ORDER_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newOrderId(): string {
  let suffix = '';
  for (let i = 0; i < 6; i += 1) suffix += ORDER_ID_ALPHABET[randomInt(ORDER_ID_ALPHABET.length)];
  return `RH-${suffix}`;
}

/**
 * Jitters the configured delay by ±25% so that responses to quick successive searches can arrive
 * out of order, as they do on real networks; the page must cope with that.
 */
function jittered(delayMs: number): number {
  if (delayMs <= 0) return 0;
  return Math.round(delayMs * (0.75 + Math.random() * 0.5));
}

function toPublicProduct(product: Product) {
  return { ...product, currency: CURRENCY };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON object a POST must carry, or undefined after answering with a 4xx that says what is
 * wrong. Fastify parses text/plain bodies too, so the content type is checked here.
 */
function jsonObjectBody(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> | undefined {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    void reply.status(415).send({ ok: false, error: 'Send the request body as application/json' });
    return undefined;
  }
  if (!isRecord(request.body)) {
    void reply.status(400).send({ ok: false, error: 'Request body must be a JSON object' });
    return undefined;
  }
  return request.body;
}

export async function demoShopApi(app: FastifyInstance, opts: ApiOptions): Promise<void> {
  const sessions = new BoundedMap<string, Session>(STORE_CAPACITY);
  const orders = new BoundedMap<string, Order>(STORE_CAPACITY);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get<{ Querystring: { q?: unknown } }>('/products', async (request) => {
    const raw = request.query.q;
    const query = (typeof raw === 'string' ? raw : '').trim().slice(0, MAX_QUERY_LENGTH);
    await sleep(jittered(opts.productDelayMs));
    return { query, products: searchProducts(query).map(toPublicProduct) };
  });

  app.get<{ Params: { id: string } }>('/products/:id', async (request, reply) => {
    const product = findProduct(request.params.id);
    if (!product) return reply.status(404).send({ ok: false, error: 'Product not found' });
    return toPublicProduct(product);
  });

  app.post('/login', { bodyLimit: BODY_LIMIT_BYTES }, async (request, reply) => {
    const body = jsonObjectBody(request, reply);
    if (!body) return reply;
    const email = typeof body['email'] === 'string' ? body['email'].trim() : '';
    const password = typeof body['password'] === 'string' ? body['password'] : '';
    if (!email || !password) {
      return reply.status(400).send({ ok: false, error: 'Enter your email and password' });
    }
    if (email.toLowerCase() !== DEMO_SHOP_USER.email || password !== DEMO_SHOP_USER.password) {
      return reply.status(401).send({ ok: false, error: 'Invalid email or password' });
    }
    const token = randomUUID();
    sessions.set(token, { email: DEMO_SHOP_USER.email, name: DEMO_SHOP_USER.name });
    return { ok: true, name: DEMO_SHOP_USER.name, email: DEMO_SHOP_USER.email, token };
  });

  app.post('/logout', { bodyLimit: BODY_LIMIT_BYTES }, async (request) => {
    const token = bearerToken(request);
    if (token) sessions.delete(token);
    return { ok: true };
  });

  app.post('/orders', { bodyLimit: BODY_LIMIT_BYTES }, async (request, reply) => {
    const token = bearerToken(request);
    if (!token || !sessions.has(token)) {
      return reply.status(401).send({ ok: false, error: 'Sign in to place an order' });
    }
    const body = jsonObjectBody(request, reply);
    if (!body) return reply;
    const result = validateCheckout(body, new Date());
    if (!result.ok) {
      return reply.status(400).send({ ok: false, error: 'Please correct the highlighted fields', errors: result.errors });
    }
    let orderId = newOrderId();
    while (orders.has(orderId)) orderId = newOrderId();
    orders.set(orderId, { ...result.draft, orderId, createdAt: new Date().toISOString(), currency: CURRENCY });
    return reply.status(201).send({ ok: true, orderId });
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (request, reply) => {
    const order = orders.get(request.params.id.toUpperCase());
    if (!order) return reply.status(404).send({ ok: false, error: 'Order not found' });
    return order;
  });

  // Without this, unknown API paths would fall through to the static files and answer with HTML.
  app.all('/*', async (request, reply) => {
    return reply.status(404).send({ ok: false, error: `No API route for ${request.method} ${request.url}` });
  });
}
