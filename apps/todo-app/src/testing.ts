import Fastify, { type FastifyInstance } from 'fastify';
import { TODO_APP_PATH, TODO_APP_V2_PATH, todoAppPlugin, todoAppV2Plugin } from './index.js';

/** Both versions of the todo app on one free port, for tests and benches. */
export async function startTodoVersions(): Promise<{ app: FastifyInstance; v1: string; v2: string }> {
  const app = Fastify();
  await app.register(todoAppPlugin, { prefix: TODO_APP_PATH });
  await app.register(todoAppV2Plugin, { prefix: TODO_APP_V2_PATH });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, v1: `${address}${TODO_APP_PATH}/`, v2: `${address}${TODO_APP_V2_PATH}/` };
}
