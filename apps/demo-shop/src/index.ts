import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import { demoShopApi } from './api.js';

export { DEMO_SHOP_USER } from './account.js';
export { DEMO_SHOP_V2_PATH, demoShopV2Plugin, V2_EDITS } from './v2.js';

export const DEMO_SHOP_PATH = '/demo-shop';

export interface DemoShopOptions {
  /** How long `GET products` waits before answering, in ms (jittered ±25%). Default 800; tests may set 0. */
  productDelayMs?: number;
}

export const DEFAULT_PRODUCT_DELAY_MS = 800;
// Resolved from this module rather than the working directory, because the server runs this file
// straight from TypeScript source (tsx, vitest) from whatever directory it was started in.
const PUBLIC_ROOT = fileURLToPath(new URL('../public/', import.meta.url));

const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
};

function notFoundPage(prefix: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Page not found · Trailhead Supply</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${prefix}/css/shop.css">
</head>
<body>
  <main id="main" class="container narrow page-message">
    <h1>Page not found</h1>
    <p>We couldn't find that page. It may have moved, or the address may be mistyped.</p>
    <p><a class="btn btn-primary" href="${prefix}/">Back to the shop</a></p>
  </main>
</body>
</html>`;
}

/** Registers the demo shop's pages and API. The caller mounts it with `{ prefix: '/demo-shop' }`. */
export async function demoShopPlugin(app: FastifyInstance, opts: DemoShopOptions): Promise<void> {
  const productDelayMs = Math.max(0, opts.productDelayMs ?? DEFAULT_PRODUCT_DELAY_MS);
  const prefix = app.prefix;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'demo shop request failed');
      return reply.status(500).send({ ok: false, error: 'Something went wrong on our side. Please try again.' });
    }
    const message = (error.code && CLIENT_ERROR_MESSAGES[error.code]) ?? error.message;
    return reply.status(status).send({ ok: false, error: message });
  });

  app.setNotFoundHandler((_request, reply) => {
    return reply.status(404).type('text/html; charset=utf-8').send(notFoundPage(prefix));
  });

  // Pages link to each other relatively, which only works below the trailing slash.
  app.get('', (request, reply) => {
    const queryStart = request.url.indexOf('?');
    const query = queryStart === -1 ? '' : request.url.slice(queryStart);
    return reply.redirect(`${prefix}/${query}`, 301);
  });

  await app.register(demoShopApi, { prefix: '/api', productDelayMs });

  await app.register(fastifyStatic, {
    root: PUBLIC_ROOT,
    // The host server registers @fastify/static too; a second reply decorator would clash.
    decorateReply: false,
    index: ['index.html'],
  });
}
