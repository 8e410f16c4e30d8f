import { authCalls, Messages } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { SettingsPageModel } from './pages/settings.page';
import { expectAccessible, expectToast, startHarness, type Account, type Harness } from './support/harness';

/** Team members: every invite rule, the links, the table, removal (and its retry), permissions. */
describe('members in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let bob: Account;
  let context: BrowserContext;
  let page: Page;
  let settings: SettingsPageModel;

  const members = async () => (await ada.api.call(authCalls.getMembers, { query: { project_id: ada.projectId } })).members;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    bob = await h.signUp('Bob');
    ({ context, page } = await h.open(ada));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    settings = new SettingsPageModel(page);
    await page.goto(`/${ada.projectId}/settings`);
    await page.waitForURL((url) => url.pathname.endsWith('/settings/members'));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows the admin with the Admin label and no remove button for herself', async () => {
    const me = settings.row('members-table', ada.email);
    await me.waitFor();
    expect(await me.getByText(Strings.memberAdmin, { exact: true }).count()).toBe(1);
    expect(await me.getByRole('button').count()).toBe(0);
    await expectAccessible(page, 'members page');
  });

  it('refuses each invalid invite with its message', async () => {
    await ada.api.call(authCalls.createInvitation, { body: { project_id: ada.projectId, sent_to_email_list: [bob.email] } });
    await page.reload();
    await settings.row('members-table', bob.email).waitFor();
    const cases: [string, string][] = [
      ['', Messages.inviteNoEmails],
      ['   ,  ', Messages.inviteNoEmails],
      ['not-an-email', Messages.inviteInvalidEmail],
      [ada.email.toUpperCase(), Messages.inviteSelf],
      ['sam@acme.test, SAM@acme.test', Messages.inviteNotUnique],
      [bob.email, Messages.inviteAlreadyMember],
    ];
    for (const [text, message] of cases) {
      await settings.invite(text);
      await expect.poll(() => settings.inviteAlert().textContent(), { message: text }).toBe(message);
    }
  });

  it('shows the trial rule from the server with a Contact sales link', async () => {
    await settings.invite('someone@elsewhere.test');
    await expect.poll(() => settings.inviteAlert().textContent()).toContain(Messages.inviteTrial);
    await settings.inviteAlert().getByRole('button', { name: Strings.inviteTrialContact }).click();
    const sales = page.getByTestId('contact-sales-dialog');
    await sales.waitFor();
    expect(await sales.getByLabel(Strings.contactSalesEmail).inputValue()).toBe(ada.email);
    expect(await sales.getByLabel(Strings.contactSalesProject).inputValue()).toBe(ada.projectId);
    await page.keyboard.press('Escape');
  });

  it('invites, shows a copyable invitation link, and lists the invitation as pending', async () => {
    await settings.invite('carol@acme.test');
    await expectToast(page, Strings.inviteSent(1));
    const link = page.getByTestId('invitation-link');
    await link.waitFor();
    const text = (await link.textContent())!;
    expect(text).toContain('/invitation?id=');
    await page
      .getByTestId('invitation-links')
      .getByRole('button', { name: `${Strings.copy} carol@acme.test` })
      .click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    const row = settings.row('members-table', 'carol@acme.test');
    await row.waitFor();
    expect(await row.getByText(Strings.memberPending).count()).toBe(1);
    expect(await settings.inviteInput().inputValue()).toBe('');
  });

  it('searches and filters the table with the shared empty messages', async () => {
    await settings.search('members-table').fill('zzz');
    await expect.poll(() => settings.tableStatus('members-table').textContent()).toBe(Strings.tableNoMatch('zzz', Strings.membersNoun));
    await settings.search('members-table').fill('');
    await settings.table('members-table').getByLabel(Strings.memberStatus).selectOption('pending');
    await expect.poll(() => settings.table('members-table').locator('tbody tr').count()).toBe(2);
    await settings.table('members-table').getByLabel(Strings.memberStatus).selectOption('all');
  });

  it('withdraws a pending invitation through the confirm dialog', async () => {
    await settings
      .row('members-table', 'carol@acme.test')
      .getByRole('button', { name: Strings.memberRemove('carol@acme.test') })
      .click();
    const dialog = settings.confirmDialog();
    await dialog.getByRole('button', { name: Strings.memberRemoveConfirm }).click();
    await expect.poll(() => settings.row('members-table', 'carol@acme.test').count()).toBe(0);
    expect((await members()).map((m) => m.user_email)).not.toContain('carol@acme.test');
  });

  it("offers 'Retry removing user' when removal fails, and removes on retry", async () => {
    const invitation = (await members()).find((m) => m.user_email === bob.email)!;
    await bob.api.call(authCalls.addMember, { body: { id: invitation.user_id } });
    await page.reload();
    const row = settings.row('members-table', bob.email);
    await row.getByText(Strings.memberActive).waitFor();
    await page.route('**/api/auth/remove-member-or-invitation', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: Messages.internal }) }),
    );
    await row.getByRole('button', { name: Strings.memberRemove(`${bob.firstname} ${bob.lastname}`) }).click();
    const dialog = settings.confirmDialog();
    await dialog.getByRole('button', { name: Strings.memberRemoveConfirm }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(Messages.internal);
    const retry = dialog.getByRole('button', { name: Strings.memberRetryRemove });
    expect(await retry.count()).toBe(1);
    await expectAccessible(page, 'remove member dialog after a failure');
    await page.unroute('**/api/auth/remove-member-or-invitation');
    await retry.click();
    await expectToast(page, Strings.memberRemoved(`${bob.firstname} ${bob.lastname}`));
    await expect.poll(async () => (await members()).map((m) => m.user_email)).not.toContain(bob.email);
  });

  it('lets a member without the invite permission see the form disabled with the reason', async () => {
    const sent = await ada.api.call(authCalls.createInvitation, { body: { project_id: ada.projectId, sent_to_email_list: [bob.email] } });
    await bob.api.call(authCalls.addMember, { body: { id: sent.invitations[0]!.id } });
    const bobView = await h.open(bob);
    await bobView.page.goto(`/${ada.projectId}/settings/members`);
    const send = bobView.page.getByRole('button', { name: Strings.inviteSend });
    await expect.poll(() => send.getAttribute('aria-disabled')).toBe('true');
    await send.hover();
    await expect.poll(() => bobView.page.getByRole('tooltip').first().textContent()).toBe(Messages.inviteNoPermission);
    // Only the admin removes members.
    expect(
      await bobView.page
        .getByTestId('members-table')
        .getByRole('button', { name: /^Remove / })
        .count(),
    ).toBe(0);
    await bobView.context.close();
  });
});
