import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { runCli } from '../cli/index.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { captureIo } from '../testing/output.js';

const SECRET = 'teapot-secret-4711';
const MAGENTA = [255, 0, 255];

// The demo shop echoes a search it finds nothing for: "No products match "<query>"".
const FEATURE = `Feature: Echo
  Scenario: The shop echoes a secret query
    Given I open "/"
    When I fill "Search products" with "{{query}}"
    And I press "Enter"
    Then I should see "No products match"
`;

const shop = useDemoShopWorkspaces();

describe('screenshots mask a secret wherever the page shows it', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(async () => browser?.close());

  /** The colour of one pixel of a PNG, read by Chromium itself. */
  async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
    const page = await browser.newPage();
    try {
      await page.setContent('<canvas id="c" width="1024" height="768"></canvas>');
      // As source text: this package is typed without the DOM.
      const src = `data:image/png;base64,${png.toString('base64')}`;
      return await page.evaluate<number[]>(`(async () => {
        const image = new Image();
        image.src = ${JSON.stringify(src)};
        await image.decode();
        const context = document.getElementById('c').getContext('2d');
        context.drawImage(image, 0, 0);
        return Array.from(context.getImageData(${x}, ${y}, 1, 1).data.slice(0, 3));
      })()`);
    } finally {
      await page.close();
    }
  }

  it('covers the field it was typed into and the text that echoes it, and nothing else', { timeout: 120_000 }, async () => {
    const ws = shop.workspace({
      feature: FEATURE,
      data: [{ key: 'query', value: SECRET, DataType: 'secret' }],
      config: { screenshots: 'every-command', trace: 'off' },
    });
    const out = path.join(ws, 'out');
    const io = captureIo();
    expect(
      await runCli(['run', '--data', 'test-data.json', '--out', out, '--headless'], { cwd: ws, stdout: io.stdout, stderr: io.stderr }),
    ).toBe(0);
    const report = RunReport.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const last = report.testCases[0]!.steps.at(-1)!.commands.at(-1)!;
    const png = readFileSync(path.join(out, 'artifacts', `${last.screenshotId}.png`));

    // Where the echo, the field and the heading are on that page, at the runner's viewport.
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    await page.goto(`${shop.baseUrl}?q=${encodeURIComponent(SECRET)}`);
    const centre = async (locator: ReturnType<typeof page.getByText>) => {
      const box = (await locator.boundingBox())!;
      return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] as const;
    };
    const echo = await centre(page.getByText('No products match'));
    const field = await centre(page.getByRole('searchbox', { name: 'Search products' }));
    const heading = await centre(page.getByRole('heading', { name: 'Gear for the trail ahead' }));
    await page.close();

    expect(await pixel(png, ...echo)).toEqual(MAGENTA);
    expect(await pixel(png, ...field)).toEqual(MAGENTA);
    expect(await pixel(png, ...heading)).not.toEqual(MAGENTA);
  });
});
