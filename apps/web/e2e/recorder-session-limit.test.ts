import { authCalls, recorderCalls, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/**
 * Spec 02 §8: a third cloud session gets "You have reached the maximum number of sessions" and
 * "Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.";
 * the screen lists the sessions to end, so the user can do just that without leaving it.
 */
describe('the cloud recorder at its session limit in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  const started: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    // The two open sessions are in another project: in the page's own project a reload re-attaches.
    const { project: checkout } = await ada.api.call(authCalls.createProject, { body: { name: 'Checkout flows' } });
    for (const projectId of [ada.projectId, checkout.id])
      await ada.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${h.base}/demo-shop/` } } });
    for (let i = 0; i < 2; i++) {
      const { session } = await ada.api.call(recorderCalls.createConnection, { body: { projectId: checkout.id, env: 'shop' } });
      started.push(session.connectionId);
    }
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    for (const connectionName of started)
      await ada?.api.call(recorderCalls.deleteConnection, { body: { connectionName } }).catch(() => undefined);
    await context?.close();
    await h?.close();
  });

  it(
    'lists the open sessions under the spec’s message; ending one lets Try again start the new session',
    { timeout: 120_000 },
    async () => {
      await page.goto(`/remote-recorder/record?project_id=${ada.projectId}&env_name=shop`);
      const dialog = page.getByRole('alertdialog', { name: 'You have reached the maximum number of sessions' });
      await dialog.waitFor({ timeout: 30_000 });
      expect(await dialog.innerText()).toContain(
        'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
      );
      const endButtons = dialog.getByRole('button', { name: 'End the session in Checkout flows on shop' });
      await expect.poll(() => endButtons.count()).toBe(2);
      expect(await dialog.getByRole('heading', { name: 'Your open sessions' }).count()).toBe(1);
      await expectAccessible(page, 'cloud recorder at its session limit');
      await screenshotAtSizes(page, 'recorder-session-limit');

      await endButtons.first().click();
      await expect.poll(() => endButtons.count()).toBe(1);
      const { sessions } = await ada.api.call(recorderCalls.mySessions);
      expect(sessions.map((s) => s.connectionId)).toEqual([started[1]]);

      await dialog.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Connected' }).count(), { timeout: 60_000 }).toBe(1);
      const mine = (await ada.api.call(recorderCalls.mySessions)).sessions.map((s) => s.connectionId);
      expect(mine).toHaveLength(2);
      started.push(...mine);
    },
  );

  it('lists only the caller’s own sessions, and none to a user who has none', async () => {
    const bob = await h.signUp('Bob');
    expect((await bob.api.call(recorderCalls.mySessions)).sessions).toEqual([]);
  });
});
