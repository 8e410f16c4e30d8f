import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { demoShopPlugin } from './src/index.js';
const app = Fastify({ logger: false });
// Imitates the host server, which registers @fastify/static for its own files.
await app.register(fastifyStatic, { root: '/tmp', prefix: '/hoststatic/' });
await app.register(demoShopPlugin, { prefix: '/demo-shop', productDelayMs: 800 });
await app.listen({ port: 4777, host: '127.0.0.1' });
console.log('listening');
