import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.js';

describe('serving the web app', () => {
  let test: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'rehearse-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Rehearse</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log("app")');
    test = await startTestApp('pglite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => test?.close());

  it('answers deep links into the single-page app with index.html', async () => {
    for (const url of ['/', '/login?callbackUrl=%2F', '/6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b/dashboard', '/invitation?id=1']) {
      const response = await test.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect([url, response.statusCode, response.headers['content-type']]).toEqual([url, 200, 'text/html; charset=utf-8']);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves built assets and keeps 404s for missing files and API paths', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log("app")');
    expect((await test.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await test.app.inject({ method: 'GET', url: '/api/unknown', headers: { accept: 'text/html' } });
    expect([api.statusCode, api.json().status]).toEqual([404, false]);
  });

  it('serves the demo shop under /demo-shop', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/demo-shop/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});
