import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { TODOMVC_APPS, type Mutation, type TodoMvcApp } from './mutations.js';
import { REDESIGN } from './redesign.js';

// The testing entry names the apps and a mutation's shape too; they live in mutations.ts, beside
// the bugs, so that redesign.ts and mutations.ts never import this file that serves them.
export { TODOMVC_APPS, type Mutation, type TodoMvcApp };

/** What is served: the two apps, and our redesign of the vanilla one (`/redesign/`, src/redesign.ts). */
export type ServedApp = TodoMvcApp | 'redesign';

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
 * The files each served app changes, by `<app>/<file>`: the `mutation`'s file in its app, and the
 * redesign's files, which are the vanilla app's with the mutation applied first (a redesign of a
 * release ships that release's bugs). Throws when the mutation's text is not there exactly once;
 * a mutation the redesign cannot carry (it rewrites that text) leaves the redesign unserved, and
 * `redesignRefused` says why.
 */
async function changedFiles(mutation?: Mutation): Promise<{ changed: Map<string, string>; redesignRefused?: string }> {
  const changed = new Map<string, string>();
  const apply = async (served: ServedApp, source: TodoMvcApp, edits: readonly Mutation[]) => {
    for (const each of edits) {
      const key = `${served}/${each.file}`;
      const text = changed.get(key) ?? (await readFile(fileOf(source, each.file)!, 'utf8'));
      changed.set(key, mutate(text, each));
    }
  };
  const bug = mutation ? [mutation] : [];
  for (const app of TODOMVC_APPS)
    await apply(
      app,
      app,
      bug.filter((each) => each.app === app),
    );
  try {
    await apply('redesign', 'vanillajs', [...bug.filter((each) => each.app === 'vanillajs'), ...REDESIGN]);
  } catch (error) {
    return { changed, redesignRefused: `The redesign cannot carry this bug: ${(error as Error).message}` };
  }
  return { changed };
}

/**
 * Serves each TodoMVC app under `/<app>/`, and the redesign under `/redesign/`, on a free port of
 * 127.0.0.1, with the `mutation`'s bug injected when one is given (checked before the server
 * listens).
 */
export async function startTodoMvc(mutation?: Mutation): Promise<{ app: FastifyInstance; urls: Record<ServedApp, string> }> {
  const { changed, redesignRefused } = await changedFiles(mutation);
  const app = Fastify();
  app.get('/:app/*', async (request, reply) => {
    const { app: name, '*': rest } = request.params as { app: string; '*': string };
    const served = name === 'redesign' ? name : TODOMVC_APPS.find((known) => known === name);
    const file = served && fileOf(served === 'redesign' ? 'vanillajs' : served, rest);
    if (!served || !file) return reply.status(404).send('Not found');
    if (served === 'redesign' && redesignRefused) return reply.status(404).send(redesignRefused);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const text = changed.get(`${served}/${rest === '' ? 'index.html' : rest}`);
    if (text !== undefined) return reply.type(type).send(text);
    const body = await readFile(file).catch(() => undefined);
    return body ? reply.type(type).send(body) : reply.status(404).send('Not found');
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const names: ServedApp[] = [...TODOMVC_APPS, 'redesign'];
  const urls = Object.fromEntries(names.map((name) => [name, `${address}/${name}/`])) as Record<ServedApp, string>;
  return { app, urls };
}
