import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { TRACE_VIEWER_PATH } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Where playwright-core keeps its built trace viewer (the one `npx playwright show-trace` serves).
 * Only its static files are read: nothing of Playwright is loaded into this process.
 */
export function traceViewerDir(): string | undefined {
  try {
    const dir = path.join(
      path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')),
      'lib',
      'vite',
      'traceViewer',
    );
    return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves Playwright's own trace viewer at `TRACE_VIEWER_PATH`, so "Open trace" needs no internet
 * and sends no trace to a third party. It loads a trace from a signed `/trace-files/…` link (see
 * RunArtifactsService.traceLink). Its service worker renders the recorded DOM snapshots with a nonce-only
 * script policy of its own, so a tested page's scripts do not run in this origin; the viewer needs a
 * secure context (https, or localhost) for that worker.
 */
export async function registerTraceViewer(app: FastifyInstance): Promise<void> {
  const root = traceViewerDir();
  if (!root) return;
  await app.register(fastifyStatic, {
    root,
    prefix: TRACE_VIEWER_PATH,
    decorateReply: false,
    index: ['index.html'],
    // A new playwright-core ships new hashed names; index.html and the worker must be asked for again.
    cacheControl: false,
    setHeaders: (reply) => {
      void reply.header('cache-control', 'no-cache');
    },
  });
}
