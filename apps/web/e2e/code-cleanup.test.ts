import { workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { expectAccessible, expectToast, startHarness, type Account, type Harness } from './support/harness';
import { seedUnusedSteps } from './support/seed';

/** Code cleanup: unused steps grouped by file, tri-state selection, per-step/per-file/all removal, failures. */
describe('code cleanup in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;

  const unused = async () =>
    (await ada.api.call(workspaceCalls.getUnusedStepDefinitions, { body: { projectId: ada.projectId } })).stepDefRefs;
  const list = () => page.getByTestId('unused-steps');
  const removeButton = () => list().getByRole('button', { name: /^Remove (all|\d+)$/ });
  const confirm = () => page.getByTestId('confirm-delete-dialog');

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    await seedUnusedSteps(ada.api, ada.projectId);
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("says Couldn't load unused steps when the call fails, and Retry loads them", async () => {
    await page.route('**/api/workspace/get-unused-step-definitions', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'disk on fire' }) }),
    );
    await page.goto(`/${ada.projectId}/code-cleanup`);
    const alert = page.getByRole('alert').filter({ hasText: Strings.cleanupLoadFailed });
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain(Strings.cleanupQueryFailed);
    await page.unroute('**/api/workspace/get-unused-step-definitions');
    await alert.getByRole('button', { name: Strings.retry }).click();
    await list().waitFor();
  });

  it('groups the steps by file, in a list at most 482 px high', async () => {
    expect(await list().getByText('features/step_definitions/shop.mjs').count()).toBe(1);
    expect(await list().getByText('features/step_definitions/helpers.mjs').count()).toBe(1);
    expect(
      await list()
        .getByRole('checkbox', { name: /^Select step / })
        .count(),
    ).toBe(4);
    expect(await page.getByTestId('unused-steps-list').evaluate((el) => getComputedStyle(el).maxHeight)).toBe('482px');
    expect(await removeButton().textContent()).toBe(Strings.cleanupRemoveAll);
    await expectAccessible(page, 'code cleanup');
  });

  it('selects with tri-state checkboxes and collapses a file', async () => {
    const fileBox = list().getByRole('checkbox', { name: Strings.cleanupSelectFile('shop.mjs') });
    const allBox = list().getByRole('checkbox', { name: Strings.cleanupSelectAll });
    await list()
      .getByRole('checkbox', { name: Strings.cleanupSelectStep('I wave at the cashier') })
      .check();
    expect(await removeButton().textContent()).toBe(Strings.cleanupRemoveSome(1));
    expect(await fileBox.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
    expect(await allBox.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
    await fileBox.click();
    expect(await fileBox.isChecked()).toBe(true);
    expect(await removeButton().textContent()).toBe(Strings.cleanupRemoveSome(3));
    await fileBox.click();
    expect(await removeButton().textContent()).toBe(Strings.cleanupRemoveAll);

    await list()
      .getByRole('button', { name: Strings.cleanupCollapse('shop.mjs') })
      .click();
    expect(
      await list()
        .getByRole('checkbox', { name: /^Select step / })
        .count(),
    ).toBe(1);
    await list()
      .getByRole('button', { name: Strings.cleanupExpand('shop.mjs') })
      .click();
    expect(
      await list()
        .getByRole('checkbox', { name: /^Select step / })
        .count(),
    ).toBe(4);
  });

  it("keeps the dialog open with 'Retry delete' when removing fails", async () => {
    await page.route('**/api/workspace/remove-unused-steps', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'nope' }) }),
    );
    await list()
      .getByRole('button', { name: Strings.cleanupDeleteStep('I wave at the cashier') })
      .click();
    await confirm().getByRole('button', { name: Strings.delete, exact: true }).click();
    await expect.poll(() => confirm().getByRole('alert').textContent()).toBe(Strings.cleanupDeleteFailed);
    expect(await confirm().getByRole('button', { name: Strings.retryDelete }).count()).toBe(1);
    await page.unroute('**/api/workspace/remove-unused-steps');
    await confirm().getByRole('button', { name: Strings.retryDelete }).click();
    await expectToast(page, Strings.cleanupDeleted(1));
    await expect.poll(async () => (await unused()).map((step) => step.pattern)).not.toContain('I wave at the cashier');
    expect(await list().getByText('I wave at the cashier').count()).toBe(0);
  });

  it('removes the selected steps with Remove N', async () => {
    await list()
      .getByRole('checkbox', { name: Strings.cleanupSelectStep('an unused step with a {string}') })
      .check();
    await removeButton().click();
    await confirm().getByRole('button', { name: Strings.delete, exact: true }).click();
    // One step reads in the singular; the spec's '{n} unused steps deleted' is for any other count.
    await expectToast(page, '1 unused step deleted');
    await expect.poll(async () => (await unused()).length).toBe(2);
  });

  it('removes every unused step with Remove all', async () => {
    expect(await removeButton().textContent()).toBe(Strings.cleanupRemoveAll);
    await removeButton().click();
    await confirm().getByRole('button', { name: Strings.delete, exact: true }).click();
    await expectToast(page, '2 unused steps deleted');
    await expect.poll(() => page.getByText(Strings.cleanupEmpty).count()).toBe(1);
    expect(await unused()).toEqual([]);
    // The used step stays.
    const file = await ada.api.call(workspaceCalls.getFileContent, {
      query: { projectId: ada.projectId, file_path: 'features/step_definitions/shop.mjs' },
    });
    expect(file.content).toContain("When('I click {string}'");
  });
});
