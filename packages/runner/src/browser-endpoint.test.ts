import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserServer } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserEndpoint, findBrowserExecutable } from './browser.js';
import { makeWorkspace, startDemoShop } from './testing/shop-workspace.js';

// The `rehearse` a user runs is the composed CLI's (packages/cli), started as a program.
const BIN = fileURLToPath(new URL('../../cli/bin/rehearse.mjs', import.meta.url));

describe('which kind of endpoint REHEARSE_BROWSER_WS_ENDPOINT names', () => {
  const of = (value: string) => browserEndpoint({ REHEARSE_BROWSER_WS_ENDPOINT: value });

  it('takes ws:// addresses as Playwright browser servers and http(s):// or ws://…/devtools/… as CDP', () => {
    expect(of('ws://grid:3000/playwright?token=x')).toEqual({ protocol: 'playwright', url: 'ws://grid:3000/playwright?token=x' });
    expect(of('wss://moon.example.com/playwright/chromium')?.protocol).toBe('playwright');
    expect(of('http://127.0.0.1:9222')).toEqual({ protocol: 'cdp', url: 'http://127.0.0.1:9222' });
    expect(of('https://chrome.example.com')?.protocol).toBe('cdp');
    expect(of('ws://127.0.0.1:9222/devtools/browser/5b1e')?.protocol).toBe('cdp');
    expect(browserEndpoint({})).toBeUndefined();
    expect(of('  ')).toBeUndefined();
  });

  it('refuses anything else with a sentence naming the variable', () => {
    expect(() => of('ftp://grid/')).toThrow('REHEARSE_BROWSER_WS_ENDPOINT must be a ws://, wss://, http:// or https:// address');
    expect(() => of('grid:3000')).toThrow('REHEARSE_BROWSER_WS_ENDPOINT must be');
    expect(() => of('not a url')).toThrow('REHEARSE_BROWSER_WS_ENDPOINT must be');
  });
});

/** `rehearse run` as a user runs it, in its own process, noting every executable its child processes run. */
function rehearseRun(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string; childExecutables: Set<string> }> {
  return new Promise((resolve) => {
    const childExecutables = new Set<string>();
    const child = execFile(
      process.execPath,
      [
        BIN,
        'run',
        '--env',
        'environments/default.json',
        '--headless',
        '--out',
        'out',
        '--name',
        'Search finds the mug',
        'features/shop.feature',
      ],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 200_000 },
      (error, stdout, stderr) => {
        clearInterval(sampler);
        resolve({ code: child.exitCode ?? (error ? -1 : 0), stdout, stderr, childExecutables });
      },
    );
    // A launched Chromium is a direct child of the run's process; sample them while it runs.
    const sampler = setInterval(() => {
      if (child.pid === undefined) return;
      let pids: string[] = [];
      try {
        pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' })
          .trim()
          .split(/\s+/)
          .filter(Boolean);
      } catch {
        return; // ps exits 1 when there is no child
      }
      for (const pid of pids) {
        try {
          childExecutables.add(readlinkSync(`/proc/${pid}/exe`));
        } catch {
          // the child ended between ps and readlink
        }
      }
    }, 50);
  });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

describe.skipIf(!findBrowserExecutable('chromium', process.env, true))(
  'rehearse run with a browser from REHEARSE_BROWSER_WS_ENDPOINT',
  () => {
    let shop: { app: FastifyInstance; baseUrl: string };
    let server: BrowserServer;
    let ws: string;

    beforeAll(async () => {
      shop = await startDemoShop();
      // The grid: Playwright's own browser server on loopback, in this (the test's) process.
      server = await chromium.launchServer({
        executablePath: findBrowserExecutable('chromium', process.env, true),
        headless: true,
        host: '127.0.0.1',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      ws = makeWorkspace({ baseUrl: shop.baseUrl });
    });

    afterAll(async () => {
      await server?.close();
      await shop?.app.close();
      if (ws) rmSync(ws, { recursive: true, force: true });
    });

    it('runs a demo-shop scenario in the browser server and launches no Chromium of its own', async () => {
      const result = await rehearseRun(ws, { REHEARSE_BROWSER_WS_ENDPOINT: server.wsEndpoint() });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('✓ PASSED    Trailhead shop › Search finds the mug');
      const report = JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')) as RunReport;
      expect(report.testCases.map((testCase) => testCase.result.status)).toEqual(['PASSED']);
      const browsers = [...result.childExecutables].filter((exe) => /chrom|headless_shell/i.test(path.basename(exe)));
      expect(browsers).toEqual([]);
      // The remote browser outlives the run: closing a connected browser only disconnects.
      expect(server.process().exitCode).toBeNull();
    }, 240_000);

    it('runs it in a Chromium reached over CDP (http://host:port) too', async () => {
      // A Chromium with a DevTools port, as a grid exposes it: the port is written to DevToolsActivePort.
      const profile = mkdtempSync(path.join(tmpdir(), 'rehearse-cdp-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: findBrowserExecutable('chromium', process.env, true),
        headless: true,
        args: [
          '--remote-debugging-port=0',
          '--remote-debugging-address=127.0.0.1',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
        ],
      });
      try {
        let port = '';
        for (let i = 0; i < 100 && !port; i++) {
          port = existsSync(path.join(profile, 'DevToolsActivePort'))
            ? (readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0] ?? '')
            : '';
          if (!port) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const result = await rehearseRun(ws, { REHEARSE_BROWSER_WS_ENDPOINT: `http://127.0.0.1:${port}` });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('✓ PASSED    Trailhead shop › Search finds the mug');
        expect([...result.childExecutables].filter((exe) => /chrom|headless_shell/i.test(path.basename(exe)))).toEqual([]);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }, 240_000);

    it('launches its own Chromium without the variable (the sampling above would have seen it)', async () => {
      const result = await rehearseRun(ws, { REHEARSE_BROWSER_WS_ENDPOINT: '' });
      expect(result.code).toBe(0);
      expect([...result.childExecutables].some((exe) => /chrom|headless_shell/i.test(path.basename(exe)))).toBe(true);
    }, 240_000);

    it('stops with exit 2 and a sentence naming the endpoint when nothing answers there', async () => {
      const port = await closedPort();
      const result = await rehearseRun(ws, { REHEARSE_BROWSER_WS_ENDPOINT: `ws://127.0.0.1:${port}/grid?token=s3cret` });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `Could not connect to the Playwright browser server at REHEARSE_BROWSER_WS_ENDPOINT=ws://127.0.0.1:${port}/grid`,
      );
      expect(result.stderr).not.toContain('s3cret');
      expect(result.stdout).not.toContain('PASSED');
    }, 240_000);

    it('stops with exit 2 on a value that is no endpoint address', async () => {
      const result = await rehearseRun(ws, { REHEARSE_BROWSER_WS_ENDPOINT: 'grid.local:3000' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('REHEARSE_BROWSER_WS_ENDPOINT must be a ws://, wss://, http:// or https:// address');
    }, 60_000);
  },
);
