import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { Messages } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app and answers every other GET that wants HTML with index.html, so deep
 * links into the single-page app work. API paths never fall back to HTML.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false, decorateReply: true });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    // A missing asset (a path with an extension) stays a 404 unless a browser asks for a page.
    const looksLikePage = (request.headers.accept ?? '').includes('text/html') || !path.extname(pathname);
    if (request.method === 'GET' && hasWebApp && looksLikePage && !isApi) {
      return reply.type('text/html').sendFile('index.html', { maxAge: 0 });
    }
    return reply.status(404).send({ status: false, error: Messages.notFound });
  });
}
