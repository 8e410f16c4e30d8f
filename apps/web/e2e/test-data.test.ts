import { MASKED_SECRET, Messages, mailCalls, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDataStrings as T } from '../src/features/test-data/strings';
import {
  expectAccessible,
  expectToast,
  screenshotAtSizes,
  settleAnimations,
  startHarness,
  type Account,
  type Harness,
} from './support/harness';

const SHOTS = process.env.WEB_SCREENSHOTS === '1';
/** WEB_VIEWPORT=1024x700 runs the same journey in a small window (for the screenshots). */
const VIEWPORT = /^(\d+)x(\d+)$/.exec(process.env.WEB_VIEWPORT ?? '');

/** Test data in Chromium: rows in view/edit mode, rules, a secret and a totp row, paging, user credentials. */
describe('test data in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  const table = () => page.getByTestId('test-data-table');
  const editRow = () => page.getByTestId('test-data-edit-row');
  const stored = async () => (await ada.api.call(ws.getTestData, { query: { projectId: ada.projectId } })).testData;
  const shot = async (name: string) => {
    if (!SHOTS) return;
    await settleAnimations(page);
    await page.screenshot({ path: `/tmp/testdata-${name}-${page.viewportSize()!.width}.png` });
  };

  const addRow = async (key: string, value: string, type: string) => {
    await page.getByRole('button', { name: T.addRow }).click();
    await editRow().getByLabel(T.key, { exact: true }).fill(key);
    await editRow().getByLabel(T.dataType).selectOption(type);
    await editRow().getByLabel(T.value, { exact: true }).fill(value);
  };

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada, VIEWPORT ? { width: Number(VIEWPORT[1]), height: Number(VIEWPORT[2]) } : undefined));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('starts empty, with page sizes 5 to 100 and 10 chosen', async () => {
    await page.goto(`/${ada.projectId}/test-data`);
    await table().getByText(T.empty).waitFor();
    const sizes = page.getByRole('combobox', { name: T.pageSize });
    expect(await sizes.locator('option').allInnerTexts()).toEqual(['5', '10', '25', '50', '100']);
    expect(await sizes.inputValue()).toBe('10');
    await expectAccessible(page, 'test data, empty');
    await shot('empty');
  });

  it('adds a string row in edit mode, and refuses incomplete rows and a repeated key', async () => {
    await page.getByRole('button', { name: T.addRow }).click();
    expect(await editRow().count()).toBe(1);
    await editRow().getByRole('button', { name: T.save }).click();
    await expect.poll(() => page.getByTestId('test-data-error').textContent()).toBe(T.fieldsRequired);
    await editRow().getByLabel(T.key, { exact: true }).fill('user');
    await editRow().getByLabel(T.value, { exact: true }).fill('ada@acme.test');
    await editRow().getByRole('button', { name: T.save }).click();
    await expectToast(page, Messages.changesSaved);
    expect(await stored()).toEqual([{ key: 'user', value: 'ada@acme.test', DataType: 'string', environment: '*' }]);

    await addRow('user', 'other', 'string');
    await editRow().getByRole('button', { name: T.save }).click();
    await expect.poll(() => page.getByTestId('test-data-error').textContent()).toBe(Messages.testDataKeyTaken);
    await shot('key-taken');
    await editRow().getByRole('button', { name: T.cancel }).click();
    expect(await stored()).toHaveLength(1);
  });

  it('keeps a secret masked, with a reveal toggle while its owner types it', async () => {
    await addRow('password', 'hunter2!', 'secret');
    const value = editRow().getByLabel(T.value, { exact: true });
    expect(await value.getAttribute('type')).toBe('password');
    await editRow().getByRole('button', { name: T.reveal }).click();
    expect(await value.getAttribute('type')).toBe('text');
    await editRow().getByRole('button', { name: T.save }).click();
    await expectToast(page, Messages.changesSaved);
    const row = table().getByTestId('test-data-row').filter({ hasText: 'password' });
    await expect.poll(() => row.textContent()).toContain(MASKED_SECRET);
    expect(await row.textContent()).not.toContain('hunter2');
    expect((await stored()).find((r) => r.key === 'password')?.value).toBe(MASKED_SECRET);
    // Editing it again: the stored value is never shown, so there is nothing to reveal.
    await row.getByRole('button', { name: T.edit('password') }).click();
    expect(await editRow().getByLabel(T.value, { exact: true }).inputValue()).toBe(MASKED_SECRET);
    expect(await editRow().getByRole('button', { name: T.reveal }).getAttribute('aria-disabled')).toBe('true');
    await editRow().getByRole('button', { name: T.cancel }).click();

    // The project admin can read it back in the list (the server logs each reveal), and hide it.
    await row.getByRole('button', { name: 'Reveal password' }).click();
    await expect.poll(() => row.getByTestId('revealed-secret').textContent()).toBe('hunter2!');
    await expectAccessible(page, 'test data with a revealed secret');
    await screenshotAtSizes(page, 'test-data-revealed-secret');
    await row.getByRole('button', { name: 'Hide password' }).click();
    expect(await row.getByTestId('revealed-secret').count()).toBe(0);
    expect(await row.textContent()).not.toContain('hunter2');
  });

  it('shows a totp row as its current code with a countdown', async () => {
    await addRow('otp', 'JBSW Y3DP EHPK 3PXP', 'totp');
    await editRow().getByRole('button', { name: T.save }).click();
    await expectToast(page, Messages.changesSaved);
    const code = table().getByTestId('totp-code');
    await expect.poll(() => code.textContent()).toMatch(/^\d{6}\d{1,2}s$/);
    await expectAccessible(page, 'test data with rows');
    await shot('rows');
  });

  it('pages through many rows', async () => {
    const rows = await stored();
    const extra = Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, DataType: 'string', environment: 'default' }));
    await ada.api.call(ws.changeTestData, { body: { projectId: ada.projectId, testData: [...rows, ...extra] } });
    await page.reload();
    await table().getByTestId('test-data-row').first().waitFor();
    // The cached list may paint first; the server's 15 rows replace it.
    await expect.poll(() => table().getByTestId('test-data-row').count()).toBe(10);
    await page.getByText(T.pageRange(1, 10, 15)).waitFor();
    await page.getByRole('button', { name: T.nextPage }).click();
    expect(await table().getByTestId('test-data-row').count()).toBe(5);
    await page.getByRole('combobox', { name: T.pageSize }).selectOption('25');
    expect(await table().getByTestId('test-data-row').count()).toBe(15);
  });

  it('adds and edits a user credential with its rules', async () => {
    await page.getByRole('link', { name: T.addCredential }).click();
    await page.getByRole('heading', { name: T.addCredential }).waitFor();
    await page.getByRole('button', { name: T.save }).click();
    await page.getByRole('alert').filter({ hasText: Messages.mailUserFieldsMissing }).waitFor();
    await page.getByLabel(T.username).fill('  qa@acme.test ');
    await page.getByLabel(T.password).fill('s3cret');
    await page.getByLabel(T.secretKey).fill('JBSW Y3DP EHPK 3PXP');
    await expectAccessible(page, 'add user credential');
    await shot('credential');
    await page.getByRole('button', { name: T.save }).click();
    await page.getByTestId('credentials').getByText('qa@acme.test').waitFor();
    const { users } = await ada.api.call(mailCalls.getUsers, { query: { project_id: ada.projectId } });
    expect(users.map((u) => [u.username, u.hasSecretKey])).toEqual([['qa@acme.test', true]]);

    await page.getByRole('link', { name: `${T.editCredential}: qa@acme.test` }).click();
    // The edit page first, then its field: a slow load says where it stopped (CI once timed out on the field alone).
    await page.getByRole('heading', { name: T.editCredential }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByLabel(T.username).inputValue()).toBe('qa@acme.test');
    await page.getByLabel(T.username).fill('qa2@acme.test');
    await page.getByRole('button', { name: T.save }).click();
    await page.getByTestId('credentials').getByText('qa2@acme.test').waitFor();
  });
});
