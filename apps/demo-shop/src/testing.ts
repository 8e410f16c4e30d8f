import Fastify, { type FastifyInstance } from 'fastify';
import { DEMO_SHOP_PATH, DEMO_SHOP_V2_PATH, demoShopPlugin, demoShopV2Plugin } from './index.js';

/** Both versions of the shop on one free port, without the product list's simulated delay, for tests and benches. */
export async function startShopVersions(): Promise<{ app: FastifyInstance; v1: string; v2: string }> {
  const app = Fastify();
  await app.register(demoShopPlugin, { prefix: DEMO_SHOP_PATH, productDelayMs: 0 });
  await app.register(demoShopV2Plugin, { prefix: DEMO_SHOP_V2_PATH, productDelayMs: 0 });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, v1: `${address}${DEMO_SHOP_PATH}/`, v2: `${address}${DEMO_SHOP_V2_PATH}/` };
}
