import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.js';

describe('security headers', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  it('sends CSP with frame-ancestors none, X-Frame-Options DENY, nosniff and a referrer policy on API and app answers', async () => {
    for (const url of ['/api/health', '/api/auth/me', '/some/deep/link']) {
      const response = await test.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect([url, response.headers['x-content-type-options']]).toEqual([url, 'nosniff']);
      expect(response.headers['referrer-policy']).toBe('same-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("object-src 'none'");
    }
  });

  it('lets only this origin frame the demo shop, which keeps its own scripts', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/demo-shop/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
