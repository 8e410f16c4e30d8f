import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { downloadCalls, Messages, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_FALLBACK_DOWNLOAD } from '../src/features/recorder/queries';
import { Strings } from '../src/lib/strings';
import { countWindowClose, OpenRecorderPageModel } from './pages/open-recorder.page';
import { TopBarPageModel } from './pages/topbar.page';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/**
 * "Record scenario → Locally" and `/open-recorder/{operation}` (issue 18): the page shows the
 * command and link the server made for this launch (with its own key), never closes itself
 * unless a handler took the link, and offers the runner package as Download app.
 */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the open-recorder page', () => {
  let h: Harness;
  let ada: Account;
  let runnerDir: string;
  let runnerTarball: string;
  const contexts: BrowserContext[] = [];

  /** A context signed in as `account` whose clock the test drives and whose window.close only counts. */
  async function openContext(account: Account, viewport?: { width: number; height: number }) {
    const { context, page } = await h.open(account, viewport);
    contexts.push(context);
    await context.addInitScript(countWindowClose);
    await context.clock.install();
    return { context, page, recorder: new OpenRecorderPageModel(page) };
  }

  beforeAll(async () => {
    runnerDir = mkdtempSync(path.join(tmpdir(), 'rehearse-runner-pack-'));
    h = await startHarness({ RUNNER_PACKAGE_DIR: runnerDir });
    // The server lists its runner tarball as the release asset once it has one.
    const { tag_name } = await h.api(null).call(downloadCalls.latestAssets, {});
    runnerTarball = path.join(runnerDir, `rehearse-runner-${tag_name.replace(/^v/, '')}.tgz`);
    writeFileSync(runnerTarball, 'not really a tarball');
    ada = await h.signUp('Ada');
    await ada.api.call(ws.pushEnv, {
      body: { projectId: ada.projectId, name: 'staging', data: { baseUrl: 'https://staging.example.com' } },
    });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await h?.close();
    rmSync(runnerDir, { recursive: true, force: true });
  });

  it('Record scenario → Locally shows the server’s command for the selected environment and does not close by itself', async () => {
    const { context, page } = await openContext(ada);
    await page.goto(`/${ada.projectId}/dashboard`);
    const bar = new TopBarPageModel(page);
    await bar.chooseEnvironment('staging');
    await expect.poll(() => bar.currentEnvironment().textContent()).toBe('staging');
    await bar.recordButton().click();
    const chooser = bar.recorderChooser();
    await chooser.getByRole('radio', { name: /^Locally/ }).check();
    const [tab] = await Promise.all([context.waitForEvent('page'), chooser.getByRole('button', { name: Strings.recorderStart }).click()]);
    const recorder = new OpenRecorderPageModel(tab);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/open-recorder/recorder');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ project_id: ada.projectId, env_name: 'staging' });

    const command = await recorder.commandText();
    expect(command).toMatch(/^REHEARSE_TOKEN=rhk_[\w-]+ /);
    expect(command).toContain('/downloads/rehearse-runner-');
    expect(command).toContain(' rehearse record ');
    expect(command).toMatch(/ --env staging( |$)/);
    expect(await recorder.status().textContent()).toBe(Strings.openRecorderReady('recorder', 'staging'));
    const link = (await recorder.continueLink().getAttribute('href'))!;
    expect(link.startsWith('rehearse://recorder?')).toBe(true);
    // The link and the command carry the same launch key.
    expect(command).toContain(`REHEARSE_TOKEN=${new URL(link).searchParams.get('token')} `);
    expect(await recorder.setupCommand().textContent()).toContain(' rehearse setup --server ');
    // Copy gives the command exactly as the server wrote it (the block only wraps it for display).
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.base });
    await recorder.copyButton(recorder.command()).dispatchEvent('click');
    await expect.poll(() => tab.evaluate(() => navigator.clipboard.readText())).toBe(command);

    // Nothing took the link (headless Chromium has no rehearse:// handler): 15 s later the tab is
    // still there with its command, and it never counted down.
    await tab.clock.runFor(15_000);
    expect(tab.isClosed()).toBe(false);
    expect(await recorder.closeCalls()).toBe(0);
    expect(await recorder.countdown().count()).toBe(0);
    expect(await recorder.command().textContent()).toBe(command);
  });

  it('says Loading while the server prepares the launch (spec 02 §9: states Loading or Error)', async () => {
    const { page, recorder } = await openContext(ada);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/recorder/local-launch', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/open-recorder/recorder?project_id=${ada.projectId}&env_name=staging.json`);
    await expect.poll(() => recorder.status().textContent()).toBe('Loading');
    expect(await recorder.command().count()).toBe(0);
    release();
    await recorder.commandText();
    expect(await recorder.status().textContent()).not.toBe('Loading');
    await page.unroute('**/api/recorder/local-launch');
  });

  it('counts down and closes only when the window lost focus just after the link was clicked', async () => {
    const { page, recorder } = await openContext(ada);
    await page.goto(
      `/open-recorder/recorder?project_id=${ada.projectId}&env_name=staging.json&feature_file=Cloud%20checkout.feature&scenario_name=Buy%20a%20backpack&fromMainApp=true`,
    );
    const command = await recorder.commandText();
    expect(command).toContain(" --env staging --feature 'Cloud checkout' --scenario 'Buy a backpack'");
    // A handler taking the link takes the focus: the spec's countdown starts, and closes the tab at 0.
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await recorder.countdown().waitFor();
    expect(await recorder.countdown().textContent()).toBe('This tab closes in 10 s.');
    await page.clock.runFor(11_000);
    await expect.poll(() => recorder.closeCalls()).toBe(1);

    // Cancel keeps the tab for good.
    await page.reload();
    await recorder.commandText();
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await recorder.countdown().waitFor();
    // After the link opened, headless Chromium drops pointer input to the page; a DOM click still reaches it.
    await recorder.cancelButton().dispatchEvent('click');
    await expect.poll(() => recorder.countdown().count()).toBe(0);
    await page.clock.runFor(15_000);
    expect(await recorder.closeCalls()).toBe(0);

    // Focus lost long after the click is the user going elsewhere, not a handler.
    await page.reload();
    await recorder.commandText();
    await page.clock.runFor(4_000);
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await page.clock.runFor(15_000);
    expect(await recorder.countdown().count()).toBe(0);
    expect(await recorder.closeCalls()).toBe(0);
  });

  it('offers the runner package as Download app: the latest release asset, else this server’s latest', async () => {
    const { page, recorder } = await openContext(ada);
    await page.goto(`/open-recorder/recorder?project_id=${ada.projectId}`);
    await recorder.commandText();
    const { assets } = await ada.api.call(downloadCalls.latestAssets, {});
    expect(assets).toHaveLength(1);
    await expect.poll(() => recorder.downloadLink().getAttribute('href')).toBe(assets[0]!.browser_download_url);
    expect(await recorder.downloadLink().getAttribute('href')).toMatch(/\.tgz$/);
    expect(await recorder.downloadLink().getAttribute('download')).not.toBeNull();
    // The setup words are the visitor's system's (headless Chromium on Linux here).
    expect(await page.getByTestId('setup-note').textContent()).toBe(Strings.openRecorderSetupFor('linux'));
    // Spec 02 §7: Download app sends the storage event download_editor (failures ignored).
    const downloads = async () =>
      (
        await h.test.database.rows<{ n: number }>(
          `select count(*)::int as n from product_events where event = 'download_editor' and project_id = '${ada.projectId}'`,
        )
      )[0]!.n;
    const before = await downloads();
    // The link names the server's public address (not this test's): answered here as a file, so the page stays.
    // The route stays until the link's request reached it: the product event can land first, and a
    // request let through after an early unroute would leave the page for an unreachable address.
    let answered!: () => void;
    const downloadAnswered = new Promise<void>((resolve) => (answered = resolve));
    await page.route('**/downloads/*.tgz', async (route) => {
      await route.fulfill({ status: 200, headers: { 'content-disposition': 'attachment', 'content-type': 'application/gzip' }, body: '' });
      answered();
    });
    await recorder.downloadLink().dispatchEvent('click');
    await expect.poll(downloads).toBe(before + 1);
    await downloadAnswered;
    await page.unroute('**/downloads/*.tgz');
    expect(await page.locator('#install').textContent()).toMatch(
      new RegExp(`^${escapeRegExp(Strings.openRecorderInstall)} npm install --no-save \\S+/downloads/rehearse-runner-[\\w.]+\\.tgz$`),
    );
    await expectAccessible(page, 'open recorder');

    rmSync(runnerTarball);
    await page.reload();
    await recorder.commandText();
    await expect.poll(() => recorder.downloadLink().getAttribute('href')).toBe(RUNNER_FALLBACK_DOWNLOAD);
    expect(RUNNER_FALLBACK_DOWNLOAD).toBe('/downloads/rehearse-runner-latest.tgz');

    // The release cannot be asked for: the spec's words, and Download app still offers a runner (the last known one, else this server's latest).
    await page.route('**/api/workspace/latestAssets', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"status":false,"error":"down"}' }),
    );
    await page.reload();
    await recorder.commandText();
    await page.getByText('Error fetching latest release', { exact: true }).waitFor();
    expect(await recorder.downloadLink().getAttribute('href')).toMatch(/\/downloads\/rehearse-runner-[\w.]+\.tgz$/);
    // One server address on the page: the commands' own, not also the address the tab was opened at.
    const addresses = new Set((await page.locator('body').innerText()).match(/https?:\/\/[^/\s]+/g));
    expect([...addresses]).toEqual([h.test.settings.publicUrl]);
    expect(h.base).not.toBe(h.test.settings.publicUrl);
    await expectAccessible(page, "open recorder saying 'Error fetching latest release'");
    await screenshotAtSizes(page, 'open-recorder-release-error');
    await page.unroute('**/api/workspace/latestAssets');
  });

  it('runs the other operations from the command alone: no link (the handler only records), no handler setup', async () => {
    const { page, recorder } = await openContext(ada);
    await page.goto(`/open-recorder/execute?project_id=${ada.projectId}&env_name=staging.json&scenario_name=Buy%20a%20backpack`);
    const command = await recorder.commandText();
    expect(command).toMatch(/^export REHEARSE_TOKEN=rhk_[\w-]+ && /);
    expect(command).toContain(" rehearse run --env environments/staging.json --headed --scenario 'Buy a backpack'");
    expect(await recorder.setupCommand().count()).toBe(0);
    expect(await recorder.continueLink().count()).toBe(0);
    expect(await recorder.downloadLink().getAttribute('href')).toMatch(/\.tgz$/);
  });

  it('shows Error with the server’s message for a project without an environment, and Retry launching launches once there is one', async () => {
    const bob = await h.signUp('Bob');
    const { allEnv } = await bob.api.call(ws.getEnvList, { body: { projectId: bob.projectId } });
    for (const env of allEnv) await bob.api.call(ws.deleteEnv, { body: { projectId: bob.projectId, name: env.name } });
    const { page, recorder } = await openContext(bob);
    await page.goto(`/open-recorder/recorder?project_id=${bob.projectId}&fromMainApp=true`);
    await recorder.problem().filter({ hasText: Messages.recorderLaunchNoEnvironment }).waitFor();
    expect(await recorder.status().textContent()).toBe('Error');
    expect(await recorder.command().count()).toBe(0);
    expect(await recorder.continueLink().count()).toBe(0);
    await expectAccessible(page, 'open recorder, error');

    // Spec 02 §9: a launch failure offers 'Retry launching'.
    expect(await recorder.retryButton().textContent()).toBe('Retry launching');
    if (process.env.WEB_SCREENSHOTS === '1') {
      for (const size of [
        { width: 1440, height: 900 },
        { width: 1024, height: 700 },
      ]) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `/tmp/web-open-recorder-error-${size.width}.png` });
      }
    }
    await bob.api.call(ws.pushEnv, { body: { projectId: bob.projectId, name: 'qa', data: { baseUrl: 'https://qa.example.com' } } });
    await recorder.retryButton().click();
    expect(await recorder.commandText()).toMatch(/ --env qa( |$)/);

    await page.goto(`/open-recorder/nonsense?project_id=${bob.projectId}`);
    await recorder
      .status()
      .filter({ hasText: /^Error: / })
      .waitFor();
    expect(await recorder.status().textContent()).toContain('nonsense');
  });
});
