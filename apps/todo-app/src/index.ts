import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where version 1 of the todo app is mounted. */
export const TODO_APP_PATH = '/todo-app';
/** Where version 2 (the same app after a framework rewrite) is mounted, beside version 1. */
export const TODO_APP_V2_PATH = '/todo-app-v2';

// Resolved from this module, not the working directory: the server runs this file from source.
const PUBLIC = (folder: string) => fileURLToPath(new URL(`../public/${folder}/`, import.meta.url));

const NOT_FOUND = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Page not found · Rehearse todo app</title><link rel="icon" href="data:,"></head>
<body><main><h1>Page not found</h1><p>There is no such page in the todo app.</p><p><a href="./">Back to the list</a></p></main></body>
</html>`;

async function servePages(app: FastifyInstance, version: 'v1' | 'v2'): Promise<void> {
  const prefix = app.prefix;
  app.setNotFoundHandler((_request, reply) => reply.status(404).type('text/html; charset=utf-8').send(NOT_FOUND));
  // Pages link to each other relatively, which only works below the trailing slash.
  app.get('', (_request, reply) => reply.redirect(`${prefix}/`, 301));
  await app.register(fastifyStatic, {
    // The version's own pages first; the tools and help pages are shared by both versions.
    root: [PUBLIC(version), PUBLIC('shared')],
    // The host server registers @fastify/static too; a second reply decorator would clash.
    decorateReply: false,
    index: ['index.html'],
  });
}

/**
 * Version 1: a TodoMVC-style todo list (rows without test ids or labelled checkboxes, double-click
 * to edit, hash-routed filters, toggle-all, localStorage). Mount with `{ prefix: TODO_APP_PATH }`.
 */
export async function todoAppPlugin(app: FastifyInstance): Promise<void> {
  await servePages(app, 'v1');
}

/**
 * Version 2: the same behaviour and visible text, restructured as a framework rewrite would be
 * (other classes, wrappers, ids and element order). Mount with `{ prefix: TODO_APP_V2_PATH }`.
 */
export async function todoAppV2Plugin(app: FastifyInstance): Promise<void> {
  await servePages(app, 'v2');
}
