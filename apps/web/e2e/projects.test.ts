import { authCalls, Messages, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../server/src/admin.js';
import { StorageKeys } from '../src/lib/storage-keys';
import { Strings } from '../src/lib/strings';
import { TopBarPageModel } from './pages/topbar.page';
import { DASHBOARD, expectAccessible, expectToast, startHarness, type Account, type Harness } from './support/harness';

/** Creating projects (screen and modal, demo app, wait, limits) and deleting them (permissions). */
describe('projects in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let bar: TopBarPageModel;

  const form = () => page.getByRole('form', { name: Strings.createProjectTitle });
  const urlField = () => form().getByLabel(Strings.projectUrl);
  const nameField = () => form().getByLabel(Strings.projectName);
  const createButton = () => form().getByRole('button', { name: new RegExp(`^(${Strings.projectCreate}|${Strings.projectCreating})$`) });
  const projects = async () => (await ada.api.call(authCalls.getProjects)).projects;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    ({ context, page } = await h.open(ada));
    bar = new TopBarPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows a first-time user the create screen without Cancel, with the Getting Started tooltip', async () => {
    await page.goto('/projects/new?newUser=1');
    await urlField().waitFor();
    expect(await form().getByRole('button', { name: Strings.cancel }).count()).toBe(0);
    await form().getByRole('button', { name: Strings.gettingStartedVideoLabel }).hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe(Strings.gettingStartedVideoHint);
    await expectAccessible(page, 'create project screen');
  });

  it('derives the name from the URL until the name is typed, and refuses a bad URL', async () => {
    await urlField().fill('https://www.shop.example.com/app');
    expect(await nameField().inputValue()).toBe('shop-example');
    await urlField().fill('shop dot com');
    await expect.poll(() => form().getByText(Messages.projectUrlInvalid).count()).toBe(1);
    expect(await createButton().isDisabled()).toBe(true);
    await nameField().fill('Checkout');
    await urlField().fill('https://checkout.example.com');
    expect(await nameField().inputValue()).toBe('Checkout');
    expect(await form().getByText(Messages.projectUrlInvalid).count()).toBe(0);
    await nameField().fill('  ');
    await expect.poll(() => form().getByText(Messages.projectNameEmpty).count()).toBe(1);
    expect(await createButton().isDisabled()).toBe(true);
  });

  it('creates a demo project: the URL is locked, Creating... shows, then its dashboard with the toast', async () => {
    const before = (await ada.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount;
    await form().getByLabel(Strings.projectUseDemo).check();
    expect(await urlField().inputValue()).toBe(`${h.base}/demo-shop/`);
    expect(await urlField().getAttribute('readonly')).not.toBeNull();
    expect(await nameField().inputValue()).toBe(Strings.projectDemoName);
    await createButton().click();
    await expect.poll(() => createButton().textContent()).toBe(Strings.projectCreating);
    await page.waitForURL((url) => DASHBOARD.test(url.pathname) && url.searchParams.get('newUser') === '1');
    await expectToast(page, Messages.projectCreated);

    const projectId = new URL(page.url()).pathname.split('/')[1]!;
    const created = (await projects()).find((p) => p.id === projectId)!;
    expect(created).toMatchObject({ name: Strings.projectDemoName, demo: true, role: 'ADMIN' });
    const envs = await ada.api.call(workspaceCalls.getEnvList, { body: { projectId } });
    expect(envs.allEnv.map((env) => env.name)).toEqual(['default.json']);
    expect(envs.lastActiveEnv).toBe('default.json');
    expect((await ada.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount).toBe(before - 1);
    await expect.poll(() => bar.currentEnvironment().textContent()).toBe('default');
    await expect.poll(() => page.getByTestId('current-project').textContent()).toBe('Demo sh…');
  });

  it('creates a project from the selector modal', async () => {
    await bar.projectButton().click();
    await bar.projectPanel().getByRole('button', { name: Strings.projectNew }).click();
    const dialog = page.getByTestId('create-project-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: Strings.cancel }).count()).toBe(1);
    await expectAccessible(page, 'create project modal');
    await urlField().fill('https://staging.checkout.example.com');
    await nameField().fill('Checkout');
    await createButton().click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname) && !url.search);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Checkout');
    await expectToast(page, Messages.projectCreated);
    expect((await projects()).map((p) => p.name).sort()).toEqual(['Checkout', Messages.defaultProjectName, Strings.projectDemoName]);
  });

  it('opens the dashboard as soon as the workspace is ready: the spec’s wait is only its upper bound', async () => {
    // A user of their own, so the projects the other tests count stay as they are.
    const cleo = await h.signUp('Cleo');
    const side = await h.open(cleo);
    try {
      const cleoPage = side.page;
      // The wait raised to a minute (the harness shortens it to 300 ms): the dashboard must open long before.
      await cleoPage.goto('/');
      await cleoPage.evaluate((key) => localStorage.setItem(key, '60000'), StorageKeys.projectCreationWaitMs);
      const cleoBar = new TopBarPageModel(cleoPage);
      await cleoBar.projectButton().click();
      await cleoBar.projectPanel().getByRole('button', { name: Strings.projectNew }).click();
      const cleoForm = cleoPage.getByRole('form', { name: Strings.createProjectTitle });
      await cleoForm.getByLabel(Strings.projectUrl).fill('https://billing.example.com');
      await cleoForm.getByLabel(Strings.projectName).fill('Billing');
      await cleoForm.getByRole('button', { name: Strings.projectCreate }).click();
      await cleoPage.waitForURL((url) => DASHBOARD.test(url.pathname) && !url.search, { timeout: 15_000 });
      await expect.poll(() => cleoPage.getByRole('heading', { level: 1 }).textContent()).toBe('Billing');
      const projectId = new URL(cleoPage.url()).pathname.split('/')[1]!;
      const envs = await cleo.api.call(workspaceCalls.getEnvList, { body: { projectId } });
      expect(envs.allEnv.map((env) => env.name)).toEqual(['default.json']);
    } finally {
      await side.context.close();
    }
  });

  it('deletes another project; the current one has no delete control', async () => {
    await bar.projectButton().click();
    const panel = bar.projectPanel();
    expect(await panel.getByRole('button', { name: Strings.projectDelete('Checkout') }).count()).toBe(0);
    await panel.getByRole('button', { name: Strings.projectDelete(Strings.projectDemoName) }).click();
    const dialog = bar.confirmDialog();
    await dialog.getByRole('button', { name: Strings.delete, exact: true }).click();
    await expectToast(page, Strings.projectDeleted(Strings.projectDemoName));
    await expect.poll(async () => (await projects()).map((p) => p.name)).not.toContain(Strings.projectDemoName);
  });

  it('disables delete for projects the user does not administer, and hides it when they may not delete projects', async () => {
    const bob = await h.signUp('Bob');
    const sent = await bob.api.call(authCalls.createInvitation, {
      body: { project_id: bob.projectId, sent_to_email_list: [ada.email] },
    });
    await ada.api.call(authCalls.addMember, { body: { id: sent.invitations[0]!.id } });
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === `/${bob.projectId}/dashboard`);
    await bar.projectButton().click();
    // Bob's project is current now; Ada's own Default can be deleted, but from Checkout Bob's cannot.
    await bar.projectPanel().getByRole('button', { name: 'Checkout', exact: true }).click();
    await page.waitForURL((url) => DASHBOARD.test(url.pathname) && !url.pathname.startsWith(`/${bob.projectId}`));
    await bar.projectButton().click();
    const bobsDelete = bar.projectPanel().getByRole('button', { name: Strings.projectDelete(Messages.defaultProjectName) });
    await expect.poll(() => bobsDelete.count()).toBe(2);
    const notAdmin = bobsDelete.and(page.locator('[aria-disabled="true"]'));
    expect(await notAdmin.count()).toBe(1);
    await notAdmin.hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe(Messages.deleteProjectNotAllowed);
    await page.keyboard.press('Escape');

    await runAdminCommand(['allow-delete-projects', ada.email, 'no'], h.test.database);
    await page.reload();
    await bar.projectButton().click();
    await bar.projectPanel().waitFor();
    expect(
      await bar
        .projectPanel()
        .getByRole('button', { name: new RegExp(`^${Strings.projectDelete('')}`) })
        .count(),
    ).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('disables creating projects when none are left to create', async () => {
    await runAdminCommand(['set-allowed-projects', ada.email, '0'], h.test.database);
    await page.reload();
    await bar.projectButton().click();
    const newProject = bar.projectPanel().getByRole('button', { name: Strings.projectNew });
    expect(await newProject.getAttribute('aria-disabled')).toBe('true');
    await newProject.hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe(Messages.projectLimitReached);
    await page.keyboard.press('Escape');

    await page.goto('/projects/new');
    await form().getByLabel(Strings.projectUseDemo).check();
    expect(await form().getByRole('button', { name: Strings.projectCreate }).getAttribute('aria-disabled')).toBe('true');
  });
});
