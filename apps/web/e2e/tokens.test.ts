import { authCalls, Messages, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { SettingsPageModel } from './pages/settings.page';
import { expectAccessible, expectToast, startHarness, type Account, type Harness } from './support/harness';

/** Access tokens: generate (shown once, copyable), list with dates, search, delete. */
describe('access tokens in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let settings: SettingsPageModel;
  let token = '';

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    settings = new SettingsPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("shows 'No access tokens found' for a project without tokens", async () => {
    await page.goto(`/${ada.projectId}/settings/access-tokens`);
    await expect.poll(() => settings.tableStatus('tokens-table').textContent()).toBe(Strings.tableEmpty(Strings.tokensNoun));
    await expectAccessible(page, 'access tokens page');
  });

  it('keeps Generate disabled for an empty name and says why', async () => {
    await page.getByRole('button', { name: Strings.tokenGenerate }).click();
    const dialog = settings.generateDialog();
    const generate = dialog.getByRole('button', { name: Strings.tokenGenerateSubmit });
    expect(await generate.isDisabled()).toBe(true);
    await dialog.getByLabel(Strings.tokenName).fill('x');
    expect(await generate.isDisabled()).toBe(false);
    await dialog.getByLabel(Strings.tokenName).fill('   ');
    await expect.poll(() => dialog.getByText(Messages.tokenNameEmpty).count()).toBe(1);
    expect(await generate.isDisabled()).toBe(true);
    await expectAccessible(page, 'generate token dialog');
  });

  it('generates a token, shows it once with a copy button, and the token works', async () => {
    const dialog = settings.generateDialog();
    await dialog.getByLabel(Strings.tokenName).fill('ci-pipeline');
    await dialog.getByRole('button', { name: Strings.tokenGenerateSubmit }).click();
    const shown = dialog.getByTestId('new-token');
    await shown.waitFor();
    token = (await shown.textContent())!;
    expect(token).toMatch(/^rhk_/);
    await dialog.getByRole('button', { name: Strings.copy }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await dialog.getByRole('button', { name: Strings.done }).click();

    const row = settings.row('tokens-table', 'ci-pipeline');
    await row.waitFor();
    const masked = (await row.locator('code').textContent())!;
    expect(masked).not.toBe(token);
    expect(masked.endsWith(token.slice(-4))).toBe(true);
    const [date, time] = (await row.locator('time').first().innerText()).split('\n');
    expect(date).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    expect(time).toMatch(/^\d{2}:\d{2}:\d{2} (AM|PM)$/);
    expect(await row.getByText(Strings.never).count()).toBe(1);

    // The token is accepted for this project's calls.
    const envs = await h.api(token).call(workspaceCalls.getEnvList, { body: { projectId: ada.projectId } });
    expect(envs.status).toBe(true);
  });

  it('searches tokens with the no-match message', async () => {
    await settings.search('tokens-table').fill('nightly');
    await expect.poll(() => settings.tableStatus('tokens-table').textContent()).toBe(Strings.tableNoMatch('nightly', Strings.tokensNoun));
    await settings.search('tokens-table').fill('');
  });

  it('opens the generate dialog from /settings/new-access-token', async () => {
    await page.goto(`/${ada.projectId}/settings/new-access-token`);
    await settings.generateDialog().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${ada.projectId}/settings/access-tokens`);
    await page.keyboard.press('Escape');
    await expect.poll(() => settings.generateDialog().count()).toBe(0);
  });

  it('deletes a token after confirmation; the token stops working', async () => {
    await settings
      .row('tokens-table', 'ci-pipeline')
      .getByRole('button', { name: Strings.tokenDelete('ci-pipeline') })
      .click();
    const dialog = settings.confirmDialog();
    expect(await dialog.getByText('"ci-pipeline"').count()).toBe(1);
    await dialog.getByRole('button', { name: Strings.delete, exact: true }).click();
    await expectToast(page, Strings.tokenDeleted('ci-pipeline'));
    await expect.poll(() => settings.tableStatus('tokens-table').textContent()).toBe(Strings.tableEmpty(Strings.tokensNoun));
    const keys = await ada.api.call(authCalls.getAccessKeys, { query: { project_id: ada.projectId } });
    expect(keys.accessKeys).toEqual([]);
    const refused = await h
      .api(token)
      .call(workspaceCalls.getEnvList, { body: { projectId: ada.projectId } })
      .catch((error: unknown) => error);
    expect((refused as { httpStatus: number }).httpStatus).toBe(401);
  });
});
