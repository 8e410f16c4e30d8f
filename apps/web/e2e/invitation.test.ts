import { authCalls, Messages } from '@rehearse/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { LoginPageModel } from './pages/login.page';
import { expectAccessible, PASSWORD, startHarness, type Account, type Harness } from './support/harness';

/** The invitation page: sign-in first, verify, accept or decline, and every invalid-link message. */
describe('invitation page in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let bob: Account;

  /** Ada invites `email`; answers the link's path and query on our server. */
  const invite = async (email: string) => {
    const sent = await ada.api.call(authCalls.createInvitation, { body: { project_id: ada.projectId, sent_to_email_list: [email] } });
    const link = new URL(sent.invitations[0]!.link);
    return { path: link.pathname + link.search, id: sent.invitations[0]!.id };
  };
  const card = (page: Page) => page.getByTestId('invitation-card');

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    bob = await h.signUp('Bob');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('sends a signed-out visitor to sign in, then back to the invitation, and accepting joins the project', async () => {
    const { path } = await invite(bob.email);
    const context = await h.browser.newContext({ baseURL: h.base, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(path);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(path);
    await new LoginPageModel(page).signIn(bob.email, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/invitation');
    await expect
      .poll(() => card(page).getByRole('heading').textContent())
      .toBe(Strings.invitationText(`${ada.firstname} ${ada.lastname}`, Messages.defaultProjectName));
    await expectAccessible(page, 'invitation page');
    await card(page).getByRole('button', { name: Strings.invitationAccept }).click();
    await page.waitForURL((url) => url.pathname === `/${ada.projectId}/dashboard`);
    const members = await ada.api.call(authCalls.getMembers, { query: { project_id: ada.projectId } });
    expect(members.members.find((m) => m.user_email === bob.email)?.status).toBe('active');
    await context.close();
  });

  it('declines an invitation', async () => {
    const carol = await h.signUp('Carol');
    const { path } = await invite(carol.email);
    const { context, page } = await h.open(carol);
    await page.goto(path);
    await card(page).getByRole('button', { name: Strings.invitationDecline }).click();
    await expect.poll(() => card(page).getByRole('heading').textContent()).toBe(Messages.invitationDeclined);
    const members = await ada.api.call(authCalls.getMembers, { query: { project_id: ada.projectId } });
    expect(members.members.map((m) => m.user_email)).not.toContain(carol.email);
    // Used up: opening it again says it is invalid.
    await page.goto(path);
    await expect.poll(() => page.getByTestId('invitation-error').textContent()).toBe(Messages.invitationInvalid);
    await context.close();
  });

  it('shows the server message for every broken link', async () => {
    const dave = await h.signUp('Dave');
    const { id, path } = await invite(dave.email);
    const query = new URLSearchParams(path.split('?')[1]);
    const without = (key: string) => {
      const copy = new URLSearchParams(query);
      copy.delete(key);
      return `/invitation?${copy.toString()}`;
    };
    const { context, page } = await h.open(bob);
    const cases: [string, string][] = [
      [without('id'), Messages.invitationNoId],
      [without('invited_by'), Messages.invitationNoInviter],
      [without('project'), Messages.invitationNoProject],
      [
        `/invitation?id=00000000-0000-4000-8000-000000000000&invited_by=${encodeURIComponent(ada.email)}&project=${ada.projectId}`,
        Messages.invitationInvalid,
      ],
      [path, Messages.invitationOtherEmail],
    ];
    for (const [url, message] of cases) {
      await page.goto(url);
      await expect.poll(() => page.getByTestId('invitation-error').textContent(), { message: url }).toBe(message);
    }
    await expectAccessible(page, 'invalid invitation page');
    expect(id).toBeTruthy();
    await context.close();
  });

  it('says when accepting fails', async () => {
    const erin = await h.signUp('Erin');
    const { path } = await invite(erin.email);
    const { context, page } = await h.open(erin);
    await page.goto(path);
    await page.route('**/api/auth/addMember', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: false, error: Messages.invitationAcceptFailed }),
      }),
    );
    await card(page).getByRole('button', { name: Strings.invitationAccept }).click();
    await expect.poll(() => card(page).getByRole('alert').textContent()).toBe(Messages.invitationAcceptFailed);
    await page.unroute('**/api/auth/addMember');
    await page.route('**/api/auth/invitations/*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'boom' }) }),
    );
    await card(page).getByRole('button', { name: Strings.invitationDecline }).click();
    await expect.poll(() => card(page).getByRole('alert').textContent()).toBe(`${Messages.invitationDeclineFailed}: boom`);
    await context.close();
  });
});
