import { authCalls, Messages, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHttpServer, type GitHttpServer } from '../../server/src/testing/git-http-server.js';
import { Strings } from '../src/lib/strings';
import { DASHBOARD, expectAccessible, expectToast, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

/** Integrations: connect a private repository (against a real git remote), then branches in the top bar. */
describe('private repository and branches in Chromium', () => {
  let h: Harness;
  let remote: GitHttpServer;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  const credentials = { username: 'ci', token: 'secret-token' };

  const form = () => page.getByRole('form', { name: Strings.gitAuthorize });
  const branches = async () => ada.api.call(workspaceCalls.getAllBranches, { body: { projectId: ada.projectId, isPrivateRepo: true } });

  beforeAll(async () => {
    h = await startHarness();
    remote = await startGitHttpServer(credentials);
    remote.createRepo('tests');
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
    await remote?.close();
  });

  it('has no branch selector while the project has no private repository, and cannot be set up until support enables it', async () => {
    await page.goto(`/${ada.projectId}/settings/private-repository`);
    const setUp = page.getByRole('button', { name: Strings.gitSetUp });
    await setUp.waitFor();
    expect(await page.getByTestId('branch-selector').count()).toBe(0);
    // Spec 01 §6: enabling the integration requires support, even for the project's admin.
    await expect.poll(() => setUp.getAttribute('aria-disabled')).toBe('true');
    await setUp.hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe(Messages.privateRepoNotEnabled);
    // Support (an instance administrator, Administration → Projects) enables it.
    await h.test.services.projects.setPrivateRepo(ada.projectId, true);
    await page.reload();
    await expect.poll(() => setUp.getAttribute('aria-disabled')).not.toBe('true');
  });

  it('requires username, token and URL, and shows the credentials error from the server', async () => {
    await page.getByRole('button', { name: Strings.gitSetUp }).click();
    await form().getByRole('button', { name: Strings.gitAuthorize }).click();
    for (const message of [Strings.gitUsernameRequired, Strings.gitTokenRequired, Messages.privateRepoUrlRequired]) {
      expect(await form().getByText(message).count()).toBe(1);
    }
    await expectAccessible(page, 'authorize form');
    await form().getByLabel(Strings.gitUsername).fill(credentials.username);
    await form().getByLabel(Strings.gitToken).fill('wrong');
    await form().getByLabel(Strings.gitUrl).fill(remote.url('tests'));
    await form().getByRole('button', { name: Strings.gitAuthorize }).click();
    await expect.poll(() => form().getByRole('alert').textContent(), { timeout: 20_000 }).toBe(Messages.privateRepoCredentials);
  });

  it('authorizes, reloads, and shows the connection and the branch selector', async () => {
    await form().getByLabel(Strings.gitToken).fill(credentials.token);
    await Promise.all([page.waitForEvent('load', { timeout: 30_000 }), form().getByRole('button', { name: Strings.gitAuthorize }).click()]);
    await page.getByTestId('git-connected').waitFor();
    expect(await page.getByTestId('git-connected').textContent()).toContain(remote.url('tests').replace(/\/$/, ''));
    await expect.poll(() => page.getByTestId('branch-selector-value').textContent()).toBe('main');
  });

  it("creates a branch: both fields required, then 'New branch created successfully' and it is current", async () => {
    await page.getByTestId('branch-selector').click();
    await page.getByRole('button', { name: Strings.branchCreate }).click();
    const dialog = page.getByTestId('create-branch-dialog');
    await dialog.getByRole('button', { name: Strings.branchCreate }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(Messages.branchFieldsMissing);
    await expectAccessible(page, 'create branch dialog');
    await dialog.getByLabel(Strings.branchNew).fill('feature/login');
    await dialog.getByRole('button', { name: Strings.branchCreate }).click();
    await expectToast(page, Messages.createBranchSuccess);
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    // Spec 01 §4: a snackbar closes after 6 s, not after a toast's 3 s.
    await page.waitForTimeout(4500);
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'New branch created successfully' }).count()).toBe(1);
    await expect.poll(() => page.getByTestId('branch-selector-value').textContent()).toBe('feature…');
    expect(await branches()).toMatchObject({ lastActiveBranch: 'feature/login' });
  });

  it('switches branch, saves it as last active and goes to the dashboard', async () => {
    await page.goto(`/${ada.projectId}/settings/members`);
    await page.getByTestId('branch-selector').click();
    await page.getByRole('dialog', { name: Strings.branchLabel }).getByRole('button', { name: 'main', exact: true }).click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname));
    await expect.poll(async () => (await branches()).lastActiveBranch).toBe('main');
  });

  it('deletes another branch through the confirm dialog, and offers no delete for the current branch', async () => {
    await ada.api.call(workspaceCalls.createNewBranch, {
      body: { projectId: ada.projectId, sourceBranch: 'main', newBranch: 'feature/old', isPrivateRepo: true },
    });
    await ada.api.call(workspaceCalls.updateLastActiveWorkspace, {
      body: { projectId: ada.projectId, branch: 'feature/login', isPrivateRepo: true },
    });
    await page.goto(`/${ada.projectId}/dashboard`);
    await expect.poll(() => page.getByTestId('branch-selector-value').textContent()).toBe('feature…');
    await page.getByTestId('branch-selector').click();
    const panel = page.getByRole('dialog', { name: Strings.branchLabel });
    await panel.getByRole('button', { name: 'Delete branch feature/old', exact: true }).waitFor();
    // Spec 01 §4: the current branch cannot be deleted, so it has no delete button.
    expect(await panel.getByRole('button', { name: 'Delete branch feature/login', exact: true }).count()).toBe(0);
    await expectAccessible(page, 'branch selector with delete buttons');
    await screenshotAtSizes(page, 'branch-selector-delete');
    await panel.getByRole('button', { name: 'Delete branch feature/old', exact: true }).click();
    const dialog = page.getByTestId('confirm-delete-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('feature/old');
    await expectAccessible(page, 'delete branch dialog');
    await screenshotAtSizes(page, 'branch-delete-confirm');
    await dialog.getByRole('button', { name: Strings.delete, exact: true }).click();
    await expectToast(page, 'Branch feature/old deleted');
    expect((await branches()).branches).toEqual(['feature/login', 'main']);
    // The server refuses the current branch even when asked directly.
    const refused = await ada.api
      .call(workspaceCalls.deleteBranch, { body: { projectId: ada.projectId, branch: 'feature/login', isPrivateRepo: true } })
      .catch((error: unknown) => error as Error);
    expect((refused as Error).message).toBe('The current branch cannot be deleted.');
  });

  it('disables Set up Git for a member who is not the admin', async () => {
    const bob = await h.signUp('Bob');
    const sent = await bob.api.call(authCalls.createInvitation, { body: { project_id: bob.projectId, sent_to_email_list: [ada.email] } });
    await ada.api.call(authCalls.addMember, { body: { id: sent.invitations[0]!.id } });
    await page.goto(`/${bob.projectId}/settings/private-repository`);
    const setUp = page.getByRole('button', { name: Strings.gitSetUp });
    await expect.poll(() => setUp.getAttribute('aria-disabled')).toBe('true');
    await setUp.hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe(Messages.adminRoleRequired);
  });
});
