import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';

/** The TodoMVC implementations served, as the todomvc package ships them (see README.md). */
export const TODOMVC_APPS = ['vanillajs', 'vue'] as const;
export type TodoMvcApp = (typeof TODOMVC_APPS)[number];

/**
 * One injected bug: the text `find` in one of the app's files (which must occur exactly once)
 * replaced by `replace`. `says` is what a user of the broken app would notice.
 */
export interface Mutation {
  id: string;
  app: TodoMvcApp;
  file: string;
  find: string;
  replace: string;
  says: string;
}

const PUBLIC = fileURLToPath(new URL('../public/', import.meta.url));
// Both apps load the shared TodoMVC stylesheet and script from their own bower_components folder.
const COMMON = 'bower_components/todomvc-common/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

function fileOf(app: TodoMvcApp, urlPath: string): string | undefined {
  const relative = urlPath === '' ? 'index.html' : urlPath;
  const file = relative.startsWith(COMMON)
    ? path.join(PUBLIC, 'todomvc-common', relative.slice(COMMON.length))
    : path.join(PUBLIC, app, relative);
  // Only files below the app's folders: no `..` out of them.
  return file.startsWith(PUBLIC) && !relative.split('/').includes('..') ? file : undefined;
}

/** The file's text with the mutation applied; refuses a mutation whose text is not there once. */
export function mutate(text: string, mutation: Mutation): string {
  const at = text.indexOf(mutation.find);
  if (at < 0 || text.indexOf(mutation.find, at + 1) >= 0)
    throw new Error(`Mutation ${mutation.id}: the text to replace occurs ${at < 0 ? 'nowhere' : 'more than once'} in ${mutation.file}`);
  return text.slice(0, at) + mutation.replace + text.slice(at + mutation.find.length);
}

/**
 * Serves each TodoMVC app under `/<app>/` on a free port of 127.0.0.1, with the `mutation`'s bug
 * injected when one is given (checked before the server listens).
 */
export async function startTodoMvc(mutation?: Mutation): Promise<{ app: FastifyInstance; urls: Record<TodoMvcApp, string> }> {
  const mutated = mutation && { ...mutation, text: mutate(await readFile(fileOf(mutation.app, mutation.file)!, 'utf8'), mutation) };
  const app = Fastify();
  app.get('/:app/*', async (request, reply) => {
    const { app: name, '*': rest } = request.params as { app: string; '*': string };
    const todo = TODOMVC_APPS.find((known) => known === name);
    const file = todo && fileOf(todo, rest);
    if (!todo || !file) return reply.status(404).send('Not found');
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    if (mutated && mutated.app === todo && mutated.file === rest) return reply.type(type).send(mutated.text);
    const body = await readFile(file).catch(() => undefined);
    return body ? reply.type(type).send(body) : reply.status(404).send('Not found');
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const urls = Object.fromEntries(TODOMVC_APPS.map((name) => [name, `${address}/${name}/`])) as Record<TodoMvcApp, string>;
  return { app, urls };
}
