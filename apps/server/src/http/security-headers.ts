import { TRACE_VIEWER_PATH } from '@rehearse/contract';
import { DEMO_SHOP_PATH } from '@rehearse/demo-shop';
import type { FastifyInstance } from 'fastify';

/**
 * The web app's Content-Security-Policy: its own scripts only (Vite builds no inline script),
 * inline style attributes (Radix and CodeMirror position elements with them), screenshots as
 * data:/blob: images, sockets and calls to this origin, and no framing by any other page.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The web app's policy, but the trace viewer may be framed by its own pages. */
export const TRACE_VIEWER_CSP = WEB_APP_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

/**
 * Security headers on every answer: no MIME sniffing, no referrer leaving the origin, no framing.
 * The demo shop is a test target the recorder and trace viewer may show, so it keeps its own
 * scripts unrestricted and may be framed by this origin only.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    const isDemoShop = request.url === DEMO_SHOP_PATH || request.url.startsWith(`${DEMO_SHOP_PATH}/`);
    if (isDemoShop) {
      reply.header('x-frame-options', 'SAMEORIGIN');
      reply.header('content-security-policy', "frame-ancestors 'self'");
    } else if (request.url.startsWith(TRACE_VIEWER_PATH)) {
      // Playwright's trace viewer frames its own pages (snapshots, the network pane); nobody else may.
      reply.header('x-frame-options', 'SAMEORIGIN');
      reply.header('content-security-policy', TRACE_VIEWER_CSP);
    } else {
      reply.header('x-frame-options', 'DENY');
      reply.header('content-security-policy', WEB_APP_CSP);
    }
  });
}
