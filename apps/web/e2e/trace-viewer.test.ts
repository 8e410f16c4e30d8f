import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { authCalls, runsCalls, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { startHarness, type Account, type Harness } from './support/harness';

const REHEARSE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/cli/bin/rehearse.mjs');
const shots = process.env.WEB_SCREENSHOTS === '1';
const SECRET = 'teapot-secret-4711';

const FEATURE = `Feature: Shop
  Scenario: Search finds a teapot
    Given I open "/"
    When I fill "Search products" with "{{query}}"
    Then I should see "Golden Teapot of Nowhere"
`;

/** `rehearse` as a user runs it, in a folder of its own. */
function rehearse(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [REHEARSE, ...args],
      { cwd, env: { ...process.env, REHEARSE_TOKEN: '' }, timeout: 180_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** A failed run's report → "Open trace" → Playwright's trace viewer, served by the product. */
describe('the trace viewer in the product', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let folder: string;
  let reportPath = '';

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    const projectId = ada.projectId;
    await ada.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${h.base}/demo-shop/` } } });
    await ada.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'shop.feature', content: FEATURE } } });
    await ada.api.call(ws.pushFile, {
      body: { projectId, directory: '', file: { name: 'rehearse.config.json', content: JSON.stringify({ commandTimeoutMs: 2000 }) } },
    });
    await ada.api.call(ws.changeTestData, {
      body: { projectId, testData: [{ key: 'query', value: SECRET, DataType: 'secret', environment: '*' }] },
    });
    const { accessKey } = await ada.api.call(authCalls.createAccessKey, { body: { projectId, name: 'laptop' } });
    folder = mkdtempSync(path.join(tmpdir(), 'rehearse-trace-e2e-'));
    const pull = await rehearse(['pull', '--server', h.base, '--token', accessKey.token, '--dir', 'ws'], folder);
    expect(pull.code, pull.out).toBe(0);
    const run = await rehearse(
      ['run', '--token', accessKey.token, '--env', 'environments/shop.json', '--headless'],
      path.join(folder, 'ws'),
    );
    expect(run.out).toContain('1 scenario: 0 passed, 1 failed');
    const { projectSummary } = await ada.api.call(runsCalls.getDetails, { body: { projectId } });
    const runId = projectSummary.report[0]!.id;
    const { run: stored } = await ada.api.call(runsCalls.getRun, { query: { runId } });
    expect(stored.report.testCases[0]!.traceFileId).toMatch(/^[0-9a-f]{64}$/);
    reportPath = `/${projectId}/run-report/${runId}/${stored.report.testCases[0]!.id}`;
    ({ context, page } = await h.open(ada, { width: 1440, height: 900 }));
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await h?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(
    'opens the failed scenario’s trace in Playwright’s viewer at the failed step, with its DOM snapshot',
    { timeout: 120_000 },
    async () => {
      await page.goto(reportPath);
      const open = page.getByRole('button', { name: Strings.openTrace });
      await open.waitFor();
      const [viewer] = await Promise.all([context.waitForEvent('page'), open.click()]);
      await viewer.waitForURL(/\/trace-viewer\/index\.html\?trace=/);
      await viewer.setViewportSize({ width: 1440, height: 900 });
      // The scenario's steps are the trace's groups; the viewer opens on the last action, in the failed step's group.
      const failedStep = viewer.getByRole('treeitem').filter({ hasText: 'I should see "Golden Teapot of Nowhere"' });
      await failedStep.first().waitFor({ timeout: 60_000 });
      await expect.poll(() => failedStep.last().getByRole('treeitem', { selected: true }).count(), { timeout: 30_000 }).toBe(1);
      // Its DOM snapshot is rendered from the trace: the shop as the failed step left it, the typed secret masked.
      const snapshot = () => viewer.frames().find((frame) => frame.url().includes('/trace-viewer/snapshot/'));
      await expect
        .poll(
          async () =>
            (await snapshot()
              ?.content()
              .catch(() => '')) ?? '',
          { timeout: 30_000 },
        )
        .toContain('Gear for the trail ahead');
      const html = await snapshot()!.content();
      expect(html).toContain('No products match');
      expect(html).not.toContain(SECRET);
      if (shots) {
        await viewer.screenshot({ path: '/tmp/web-trace-viewer-1440.png' });
        await viewer.setViewportSize({ width: 1024, height: 700 });
        await viewer.waitForTimeout(500);
        await viewer.screenshot({ path: '/tmp/web-trace-viewer-1024.png' });
        await page.screenshot({ path: '/tmp/web-trace-report-1440.png' });
        await page.setViewportSize({ width: 1024, height: 700 });
        await page.getByRole('button', { name: Strings.openTrace }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: '/tmp/web-trace-report-1024.png' });
        await page.setViewportSize({ width: 1440, height: 900 });
      }
      await viewer.close();
    },
  );

  it('offers the trace as a download too, and says why it cannot open without a secure context', async () => {
    await page.goto(reportPath);
    const download = page.getByRole('button', { name: Strings.downloadTrace });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('trace.zip');
    const bytes = await downloaded(file);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    // Over plain http to a name that is not this machine, service workers (and so the viewer) are off.
    await page.addInitScript(() => Object.defineProperty(window, 'isSecureContext', { value: false }));
    await page.goto(reportPath);
    const open = page.getByRole('button', { name: Strings.openTrace });
    await expect.poll(() => open.isDisabled()).toBe(true);
    expect(await open.getAttribute('title')).toBe(
      'The trace viewer needs this server on https (or localhost); download the trace instead.',
    );
  });

  it("downloads cucumber's HTML report, rendered by the server from the run's messages with its screenshots, and it opens", async () => {
    await page.goto(reportPath);
    const download = page.getByRole('button', { name: Strings.downloadHtmlReport });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('report.html');
    const html = (await downloaded(file)).toString('utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    // The runner uploaded the screenshots once, the messages only naming them: they are back in the page.
    expect(html).toContain('"mediaType":"image/png"');
    expect(html).toContain('"body":"iVBORw0KGgo');
    expect(html).not.toContain('rehearse-artifact:');
    expect(html).not.toContain(SECRET);
    // Opened as a file, cucumber's page shows the scenario that failed.
    const reportFile = path.join(folder, 'report.html');
    writeFileSync(reportFile, html);
    const opened = await context.newPage();
    await opened.goto(pathToFileURL(reportFile).href);
    // A failed scenario's feature opens expanded.
    await opened.getByText('Search finds a teapot').first().waitFor();
    // A step's screenshot opens as the picture itself.
    await opened
      .getByText(/^[0-9a-f]{64}\.png$/)
      .first()
      .click();
    await opened.locator('img[src^="data:image/png;base64,iVBORw0KGgo"]').first().waitFor();
    if (shots) {
      await opened.screenshot({ path: '/tmp/shot-html-report-1440.png' });
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.getByRole('button', { name: Strings.downloadHtmlReport }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/shot-run-report-files-1024.png' });
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await opened.close();
  });
});

/** A download's bytes. */
function downloaded(file: Download): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    void file.createReadStream().then((stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', reject);
    });
  });
}
