/**
 * Runner overhead bench (DESIGN §10: "runner ≤ 1.3× raw Playwright with a screenshot per command").
 *
 * Runs one 20-step scenario of plain-English steps against the demo shop through `rehearse run`
 * (in-process, so no Node start-up is counted on either side), and the same 20 actions as a raw
 * playwright-core script with the same browser launch. Each side runs several times, interleaved;
 * medians are compared.
 *
 *   npx tsx packages/runner/bench/overhead.ts [--reps 5] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../src/browser.js';
import { runCli } from '../src/cli/index.js';
import type { ScreenshotPolicy } from '../src/support/settings.js';
import { makeWorkspace, startDemoShop } from '../src/testing/shop-workspace.js';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const REPS = Math.max(1, Number(values.reps));

/** The 20 actions: a Gherkin step for the runner, the same action in raw Playwright. */
const ACTIONS: Array<[string, (page: Page, base: string) => Promise<unknown>]> = [
  ['Given I open "/"', (page, base) => page.goto(base, { waitUntil: 'load' })],
  ['Then I should see "Trail Backpack"', (page) => page.getByText('Trail Backpack', { exact: true }).first().waitFor()],
  ['When I fill "Search products" with "mug"', (page) => page.getByRole('searchbox', { name: 'Search products' }).fill('mug')],
  ['And I press "Enter"', (page) => page.keyboard.press('Enter')],
  ['Then the URL should contain "q=mug"', (page) => page.waitForURL(/q=mug/)],
  ['And I should see "Enamel Camp Mug"', (page) => page.getByText('Enamel Camp Mug').first().waitFor()],
  ['When I click "Enamel Camp Mug"', (page) => page.getByRole('link', { name: 'Enamel Camp Mug', exact: true }).click()],
  ['Then the URL should contain "product.html"', (page) => page.waitForURL(/product\.html/)],
  ['When I select "Navy" from "Colour"', (page) => page.getByLabel('Colour').selectOption('Navy')],
  ['And I fill "Quantity" with "2"', (page) => page.getByLabel('Quantity').fill('2')],
  ['And I click "Add to cart"', (page) => page.getByRole('button', { name: 'Add to cart' }).click()],
  ['Then I should see "Added 2 × Enamel Camp Mug"', (page) => page.getByText('Added 2 × Enamel Camp Mug').first().waitFor()],
  ['Given I open "/"', (page, base) => page.goto(base, { waitUntil: 'load' })],
  ['When I fill "Search products" with "backpack"', (page) => page.getByRole('searchbox', { name: 'Search products' }).fill('backpack')],
  ['And I press "Enter"', (page) => page.keyboard.press('Enter')],
  ['Then I should see "Trail Backpack Mini"', (page) => page.getByText('Trail Backpack Mini').first().waitFor()],
  ['When I click "Trail Backpack Mini"', (page) => page.getByRole('link', { name: 'Trail Backpack Mini', exact: true }).click()],
  ['And I select "Slate" from "Colour"', (page) => page.getByLabel('Colour').selectOption('Slate')],
  ['And I click "Add to cart"', (page) => page.getByRole('button', { name: 'Add to cart' }).click()],
  ['Then I should see "Added 1 × Trail Backpack Mini"', (page) => page.getByText('Added 1 × Trail Backpack Mini').first().waitFor()],
];

const FEATURE = `Feature: Bench\n  Scenario: Twenty steps\n${ACTIONS.map(([step]) => `    ${step}`).join('\n')}\n`;

async function raw(base: string, screenshots: boolean): Promise<number> {
  const started = performance.now();
  const browser = await launchBrowser({ browser: 'chromium', headless: true });
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  for (const [, act] of ACTIONS) {
    await act(page, base);
    if (screenshots) await page.screenshot({ type: 'png' });
  }
  await browser.close();
  return performance.now() - started;
}

async function ours(ws: string, policy: ScreenshotPolicy): Promise<number> {
  const out = mkdtempSync(path.join(tmpdir(), 'rehearse-bench-out-'));
  const sink = { write: () => true };
  const started = performance.now();
  const code = await runCli(['run', '--headless', '--screenshots', policy, '--out', out], { cwd: ws, stdout: sink, stderr: process.stderr });
  const elapsed = performance.now() - started;
  rmSync(out, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the bench scenario failed (exit ${code}); run it with --out to see why`);
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const shop = await startDemoShop(50);
const ws = makeWorkspace({ baseUrl: shop.baseUrl, feature: FEATURE, steps: '', config: { commandTimeoutMs: 10_000 } });
try {
  const times = { rawPlain: [] as number[], rawShots: [] as number[], oursEvery: [] as number[], oursOff: [] as number[] };
  // One untimed round: module loading and the first browser start are paid once per process.
  await raw(shop.baseUrl, true);
  await ours(ws, 'every-command');
  for (let rep = 0; rep < REPS; rep++) {
    times.rawPlain.push(await raw(shop.baseUrl, false));
    times.rawShots.push(await raw(shop.baseUrl, true));
    times.oursEvery.push(await ours(ws, 'every-command'));
    times.oursOff.push(await ours(ws, 'off'));
  }
  const m = Object.fromEntries(Object.entries(times).map(([key, list]) => [key, median(list)])) as Record<keyof typeof times, number>;
  const result = {
    reps: REPS,
    medianMs: Object.fromEntries(Object.entries(m).map(([key, value]) => [key, Math.round(value)])),
    /** The budget's figure: both sides take a screenshot after every action. */
    everyCommandVsRawWithScreenshots: +(m.oursEvery / m.rawShots).toFixed(2),
    /** Also counts the screenshots themselves as overhead. */
    everyCommandVsRawWithout: +(m.oursEvery / m.rawPlain).toFixed(2),
    screenshotsOffVsRaw: +(m.oursOff / m.rawPlain).toFixed(2),
  };
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`runner overhead, 20-step scenario, median of ${REPS} (ms): ${JSON.stringify(result.medianMs)}`);
    console.log(`  screenshots every command: ${result.everyCommandVsRawWithScreenshots}× raw Playwright with a screenshot per action (${result.everyCommandVsRawWithout}× raw without screenshots)`);
    console.log(`  screenshots off:           ${result.screenshotsOffVsRaw}× raw Playwright`);
  }
} finally {
  await shop.app.close();
  rmSync(ws, { recursive: true, force: true });
}
