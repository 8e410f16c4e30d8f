/**
 * Cloud recorder bench: input-to-frame latency measured end to end — a page client (the real
 * `/remote-recorder` page in Chromium) sends a key over the recorder WebSocket, the recorder
 * process types it, CDP screencasts the change, the frame comes back and is decoded in that page —
 * on loopback, p50/p95; and frames per second while scrolling with the wheel on the canvas.
 * Targets: p95 ≤ 80 ms, ≥ 20 fps (DESIGN §10 budget: 150 ms).
 *
 *   npx tsx bench/recorder.ts   (also part of `npm run bench`; builds the web app when missing)
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, workspaceCalls } from '@rehearse/contract';
import { launchBrowser } from '@rehearse/runner/browser';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { startTestApp } from '../apps/server/src/testing/test-app.js';
import { percentile } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const KEYS = 60;
const SCROLL_MS = 4000;
const SCROLL_ROUNDS = 4;
/**
 * Wheel events come at a fixed cadence on both sides, about what a mouse wheel or trackpad gives
 * (60 Hz). Earlier the page client waited for each of Playwright's mouse.wheel round trips, which
 * only reached ~20 events a second, so the stream had fewer scroll positions to show than raw CDP.
 */
const WHEEL_INTERVAL_MS = 16;

interface Stats {
  sent: Map<number, number>;
  latencies: number[];
  arrivals: number[];
  frames: number;
  received: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The floor: CDP screencast and input in this process, no recorder process, socket or page
 * decode. Its keys and scrolls are interleaved with the page client's, so machine load (shared
 * and changing by the second) weighs on both figures alike.
 */
class RawProbe {
  private frames = 0;
  private waiter: (() => void) | undefined;

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly size: { width: number; height: number },
  ) {
    cdp.on('Page.screencastFrame', (event: { sessionId: number }) => {
      this.frames++;
      void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
      this.waiter?.();
    });
  }

  static async open(browser: Browser, url: string, size: { width: number; height: number }): Promise<RawProbe> {
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto(url);
    const probe = new RawProbe(page, await context.newCDPSession(page), size);
    await probe.cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 60,
      maxWidth: size.width,
      maxHeight: size.height,
      everyNthFrame: 1,
    });
    await page.waitForTimeout(500);
    return probe;
  }

  async scroll(ms: number): Promise<{ frames: number; wheels: number; ms: number }> {
    const before = this.frames;
    const started = Date.now();
    let direction = 1;
    let step = 0;
    while (Date.now() - started < ms) {
      void this.cdp
        .send('Input.dispatchMouseEvent', {
          type: 'mouseWheel',
          x: this.size.width / 2,
          y: this.size.height / 2,
          deltaX: 0,
          deltaY: 60 * direction,
        })
        .catch(() => undefined);
      if (++step % 15 === 0) direction = -direction;
      await sleep(WHEEL_INTERVAL_MS);
    }
    return { frames: this.frames - before, wheels: step, ms: Date.now() - started };
  }

  async focusSearch(): Promise<void> {
    await this.page.getByLabel('Search products').click();
    await this.page.waitForTimeout(300);
  }

  /** Milliseconds from a key dispatched to the frame that shows it. */
  async key(key: string): Promise<number> {
    const frame = new Promise<void>((resolve) => (this.waiter = resolve));
    const started = performance.now();
    await this.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key });
    await Promise.race([frame, this.page.waitForTimeout(1000)]);
    const latency = performance.now() - started;
    this.waiter = undefined;
    await this.cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
    return latency;
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    execFileSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
  const test = await startTestApp('pglite', { WEB_DIST_DIR: WEB_DIST });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  const browser = await launchBrowser({ browser: 'chromium', headless: true });
  try {
    const signup = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'recorder-bench@acme.test', password: 'bench password', firstname: 'Rec', lastname: 'Order' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => signup.token });
    const projectId = signup.project._id;
    await api.call(workspaceCalls.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${base}/demo-shop/` } } });

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(`localStorage.setItem('rehearse.token', ${JSON.stringify(signup.token)})`);
    const page = await context.newPage();
    await page.goto(`${base}/remote-recorder/record?project_id=${projectId}&env_name=shop.json`);
    const canvas = page.getByTestId('remote-display');
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 60_000 });
    const stats = () =>
      page.evaluate(() => {
        const s = (globalThis as unknown as { __rehearseRecorderStats: Stats }).__rehearseRecorderStats;
        return { latencies: [...s.latencies], arrivals: [...s.arrivals], frames: s.frames, received: s.received };
      });
    while ((await stats()).frames === 0) await page.waitForTimeout(100);
    const size = await canvas.evaluate((c) => ({
      width: (c as unknown as { width: number }).width,
      height: (c as unknown as { height: number }).height,
    }));
    const box = (await canvas.boundingBox())!;
    const scale = box.width / size.width;

    const raw = await RawProbe.open(browser, `${base}/demo-shop/`, size);

    // Scrolling first: typing into the search box below filters the list and shortens the page.
    // Frames per second while the wheel scrolls the remote page up and down over the canvas, in
    // rounds that alternate with the raw screencast's.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The page's own wheel events on the canvas, as the browser would fire them for the user.
    const wheelOnCanvas = (ms: number) =>
      page.evaluate(
        async ({ ms, interval }) => {
          type Target = {
            getBoundingClientRect(): { left: number; top: number; width: number; height: number };
            dispatchEvent(event: unknown): boolean;
          };
          const dom = globalThis as unknown as {
            document: { querySelector(selector: string): Target };
            WheelEvent: new (type: string, init: object) => unknown;
          };
          const canvas = dom.document.querySelector('[data-testid="remote-display"]');
          const rect = canvas.getBoundingClientRect();
          let direction = 1;
          let step = 0;
          const started = performance.now();
          while (performance.now() - started < ms) {
            canvas.dispatchEvent(
              new dom.WheelEvent('wheel', {
                deltaY: 60 * direction,
                clientX: rect.left + rect.width / 2,
                clientY: rect.top + rect.height / 2,
                bubbles: true,
                cancelable: true,
              }),
            );
            if (++step % 15 === 0) direction = -direction;
            await new Promise((resolve) => setTimeout(resolve, interval));
          }
          return step;
        },
        { ms, interval: WHEEL_INTERVAL_MS },
      );
    const scrolled = { frames: 0, received: 0, wheels: 0, ms: 0 };
    const rawScrolled = { frames: 0, wheels: 0, ms: 0 };
    for (let round = 0; round < SCROLL_ROUNDS; round++) {
      const before = await stats();
      const started = Date.now();
      scrolled.wheels += await wheelOnCanvas(SCROLL_MS / SCROLL_ROUNDS);
      const after = await stats();
      scrolled.frames += after.frames - before.frames;
      scrolled.received += after.received - before.received;
      scrolled.ms += Date.now() - started;
      const rawRound = await raw.scroll(SCROLL_MS / SCROLL_ROUNDS);
      rawScrolled.frames += rawRound.frames;
      rawScrolled.wheels += rawRound.wheels;
      rawScrolled.ms += rawRound.ms;
    }
    const fps = (scrolled.frames * 1000) / scrolled.ms;
    const rawFps = (rawScrolled.frames * 1000) / rawScrolled.ms;
    const perSecond = (count: number, ms: number) => ((count * 1000) / ms).toFixed(0);
    await page.mouse.wheel(0, -10_000);
    await page.waitForTimeout(1000);

    // Focus the shop's search box through the stream (its place on the remote page is known).
    const ref = await (await browser.newContext({ viewport: size })).newPage();
    await ref.goto(`${base}/demo-shop/`);
    const search = (await ref.getByLabel('Search products').boundingBox())!;
    await page.mouse.click(box.x + (search.x + search.width / 2) * scale, box.y + (search.y + search.height / 2) * scale);
    await page.waitForTimeout(500);
    await raw.focusSearch();

    // Latency: one key at a time, each followed by one raw key; each changes the field, so each
    // yields a frame.
    const before = (await stats()).latencies.length;
    const arrivalsBefore = (await stats()).arrivals.length;
    const rawLatencies: number[] = [];
    for (let i = 0; i < KEYS; i++) {
      const key = 'abcdefghijklmnopqrstuvwxyz'[i % 26]!;
      await page.keyboard.down(key);
      const want = before + i + 1;
      // Waiting in the page (once per animation frame) rather than asking it every 10 ms keeps the
      // bench's own work off the CPU the stream needs.
      await page
        .waitForFunction(
          (n) => (globalThis as unknown as { __rehearseRecorderStats: Stats }).__rehearseRecorderStats.latencies.length >= n,
          want,
          { polling: 'raf', timeout: 500 },
        )
        .catch(() => undefined);
      await page.keyboard.up(key);
      await page.waitForTimeout(60);
      rawLatencies.push(await raw.key(key));
      await page.waitForTimeout(60);
    }
    const latencies = (await stats()).latencies.slice(before).sort((a, b) => a - b);
    const arrivals = (await stats()).arrivals.slice(arrivalsBefore).sort((a, b) => a - b);
    rawLatencies.sort((a, b) => a - b);
    await raw.close();

    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    console.log(`Cloud recorder (loopback, ${size.width}x${size.height}, JPEG screencast, page client over WebSocket):`);
    console.log(
      `  input→frame latency over ${latencies.length} keys: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target p95 ≤ 80 ms) ${p95 <= 80 ? 'OK' : 'OVER'}`,
    );
    console.log(
      `    of which until the frame reached the page (before decoding): p50 ${percentile(arrivals, 50).toFixed(1)} ms, p95 ${percentile(arrivals, 95).toFixed(1)} ms`,
    );
    console.log(
      `  frames while scrolling: ${fps.toFixed(1)} fps (target ≥ 20) ${fps >= 20 ? 'OK' : 'UNDER'}; ${perSecond(scrolled.received, scrolled.ms)} frames/s reached the page; ${perSecond(scrolled.wheels, scrolled.ms)} wheel events/s (raw: ${perSecond(rawScrolled.wheels, rawScrolled.ms)})`,
    );
    console.log(
      `  same machine, interleaved, raw CDP screencast in-process: p50 ${percentile(rawLatencies, 50).toFixed(1)} ms, p95 ${percentile(rawLatencies, 95).toFixed(1)} ms, ${rawFps.toFixed(1)} fps`,
    );
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} on ${cpus().length} cores`,
    );
  } finally {
    await browser.close();
    await test.close();
  }
}

await main();
