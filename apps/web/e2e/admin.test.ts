import { adminCalls, authCalls, workerCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPageModel } from './pages/admin.page';
import {
  expectAccessible,
  expectToast,
  PASSWORD,
  screenshotAtSizes,
  setLicenceExpiry,
  startHarness,
  type Account,
  type Harness,
} from './support/harness';

/**
 * Administration in Chromium: only the instance administrator (the first to sign up) sees it; they
 * extend an expired project's license and its member edits again at once, disable a user, make a
 * worker token, change the sign-up policy and the session and job settings.
 */
describe('instance administration in Chromium', () => {
  let h: Harness;
  let root: Account;
  let olive: Account;
  let rootSide: { context: BrowserContext; page: Page };
  let oliveSide: { context: BrowserContext; page: Page };
  let admin: AdminPageModel;

  beforeAll(async () => {
    h = await startHarness();
    root = await h.signUp('Root');
    olive = await h.signUp('Olive');
    await h.test.database.execute(`update projects set name = 'Checkout' where id = '${olive.projectId}'`);
    await setLicenceExpiry(h.test, olive.projectId, '-3 days');
    rootSide = await h.open(root);
    oliveSide = await h.open(olive);
    admin = new AdminPageModel(rootSide.page);
  });

  afterAll(async () => {
    await rootSide?.context.close();
    await oliveSide?.context.close();
    await h?.close();
  });

  it('shows Administration to the instance administrator only', async () => {
    const page = oliveSide.page;
    await page.goto(`/${olive.projectId}/dashboard`);
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    expect(await new AdminPageModel(page).shellLink().count()).toBe(0);
    // The note on who may sign up is the instance administrator's (guided-tour.test.ts shows it to one).
    expect(await page.getByTestId('signup-notice').count()).toBe(0);
    await page.goto('/admin/users');
    await page.getByText('Only an instance administrator can do this.').waitFor();
  });

  it('opens Administration in a layout of its own, named in the top bar, with a way back to the project', async () => {
    const page = rootSide.page;
    await page.goto(`/${root.projectId}/dashboard`);
    // At 1440 px the sidebar is collapsed to icons: the way in is a labelled link in the top bar.
    await admin.shellLink().click();
    await page.waitForURL((url) => url.pathname === '/admin/users');
    await page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
    expect(await page.getByTestId('admin-badge').innerText()).toBe('Server administration');
    // None of a project's chrome: no sidebar, no project selector, no licence countdown, no Record scenario.
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Record scenario' }).count()).toBe(0);
    expect(await page.getByTestId('licence-countdown').count()).toBe(0);
    expect(await page.getByTestId('current-project').count()).toBe(0);
    await admin.row('Users', olive.email).waitFor();
    await expectAccessible(page, 'administration layout');
    await screenshotAtSizes(page, 'admin-layout');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('link', { name: 'Back to Default' }).click();
    await page.waitForURL((url) => url.pathname === `/${root.projectId}/dashboard`);
    // The area's old address under a project still leads there.
    await page.goto(`/${root.projectId}/admin/users?from=old`);
    await page.waitForURL((url) => url.pathname === '/admin/users' && url.search === '?from=old');
  });

  it('lists users with their limits and rights', async () => {
    await admin.row('Users', olive.email).waitFor();
    const rootRow = admin.row('Users', root.email);
    expect(await rootRow.getByRole('cell').allInnerTexts()).toEqual([
      `Root Tester (you)\n${root.email}`,
      '1',
      '10',
      'Yes',
      'Administrator\nActive',
      'Edit\nDisable',
    ]);
    expect(await admin.row('Users', olive.email).getByRole('cell').nth(4).innerText()).toBe('User\nActive');
    await expectAccessible(rootSide.page, 'administration users');
    await screenshotAtSizes(rootSide.page, 'admin-users');
  });

  it('shows an account that wrong passwords blocked, and unblocks it', async () => {
    // A stranger's client guesses Olive's password; the default allowance is five an hour.
    for (let i = 0; i < 5; i += 1) {
      const answer = await h.test.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.66',
        payload: { email: olive.email, password: `guess ${i}` },
      });
      expect(answer.statusCode).toBe(401);
    }
    const page = rootSide.page;
    await page.reload();
    const row = admin.row('Users', olive.email);
    const badge = row.getByTestId('sign-in-blocked');
    await badge.waitFor();
    expect(await badge.innerText()).toBe('Sign-in blocked');
    expect(await badge.getAttribute('title')).toMatch(
      /^1 browser\(s\) with wrong passwords wait until .+\. Wrong passwords in the last hour: 5\. Browsers the user signed in with before still sign in\.$/,
    );
    await expectAccessible(page, 'administration users with a blocked account');
    await screenshotAtSizes(page, 'admin-users-blocked');
    await row.getByRole('button', { name: `Unblock sign-in for ${olive.email}` }).click();
    await expectToast(page, `${olive.email} can sign in again from any browser.`);
    await expect.poll(() => badge.count()).toBe(0);
    const after = await h.test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '203.0.113.66',
      payload: { email: olive.email, password: PASSWORD },
    });
    expect(after.statusCode).toBe(200);
  });

  it("extends an expired project's license, and its member can record again without a reload of the server", async () => {
    // Before: Olive's project is expired, so recording opens the expired dialog (ask the administrator).
    const page = oliveSide.page;
    await page.goto(`/${olive.projectId}/dashboard`);
    await page.getByRole('button', { name: 'Record scenario' }).click();
    const expired = page.getByTestId('licence-dialog');
    await expect.poll(() => expired.getByRole('heading').textContent()).toBe('License has expired');
    await expired.getByText("This project's license has expired. Ask your administrator to extend it.").waitFor();
    // A member who is no administrator is not sent to Administration.
    expect(await expired.getByRole('button', { name: 'Extend license' }).count()).toBe(0);
    expect(await expired.getByTestId('licence-admin-hint').count()).toBe(0);
    await page.keyboard.press('Escape');

    await admin.tab('Projects').click();
    const row = admin.row('Projects', 'Checkout');
    await row.waitFor();
    expect(await row.getByRole('cell').nth(0).innerText()).toBe(`Checkout\nAdmin: ${olive.email} · 1 member`);
    expect(await row.getByRole('cell').nth(1).innerText()).toMatch(/^Expired · trial\nuntil \w{3} \d{2}, \d{4}$/);
    // Disk use: what the project stores (a new project, nothing yet).
    expect(await row.getByRole('cell').nth(4).innerText()).toBe('0 B\n0 runs · 0 scenarios');
    await expectAccessible(rootSide.page, 'administration projects');
    await screenshotAtSizes(rootSide.page, 'admin-projects');

    await row.getByRole('button', { name: 'Extend license of Checkout' }).click();
    const dialog = admin.dialog('admin-extend-dialog');
    await dialog.getByRole('heading', { name: 'Extend the license of Checkout' }).waitFor();
    await dialog.getByText(/^The license expired on \w{3} \d{2}, \d{4}\. Days are added from today;/).waitFor();
    const days = dialog.getByLabel('Days to add');
    expect(await days.inputValue()).toBe('30');
    await days.fill('0');
    await dialog.getByText('Days must be a whole number from 1 to 3650.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Extend license' }).isDisabled()).toBe(true);
    await days.fill('30');
    await expectAccessible(rootSide.page, 'extend license dialog');
    await screenshotAtSizes(rootSide.page, 'admin-extend-dialog');
    await dialog.getByRole('button', { name: 'Extend license' }).click();
    await expectToast(rootSide.page, 'The license of Checkout now runs until');
    // Days as the project's own countdown shows them: days left plus one.
    await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toMatch(/^30 days left\nuntil /);

    // After: the same server, no restart; Olive's next load records instead of the expired dialog.
    await page.reload();
    // The page knows the new license once its countdown shows it (on a busy machine the click could come first).
    await page
      .getByText(/^\d+ days left$/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Record scenario' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.getByTestId('licence-dialog').count()).toBe(0);
    await page.keyboard.press('Escape');
    const { projects } = await olive.api.call(authCalls.getProjects);
    expect(projects.find((project) => project.id === olive.projectId)?.is_expired).toBe(false);

    const [audited] = (await root.api.call(adminCalls.listActivity, { query: { limit: 1 } })).activity;
    expect([audited?.actor, audited?.action, audited?.target]).toEqual([root.email, 'project.extendLicence', 'Checkout']);
  });

  it("tells an instance administrator where to extend an expired project's license", async () => {
    await setLicenceExpiry(h.test, root.projectId, '-1 day');
    const page = rootSide.page;
    await page.goto(`/${root.projectId}/dashboard`);
    // The reload paints the persisted cache first (spec 02 §9); wait for the revalidated project.
    await expect.poll(() => page.getByTestId('licence-countdown').textContent()).toBe('Expired');
    await page.getByRole('button', { name: 'Record scenario' }).click();
    const expired = page.getByTestId('licence-dialog');
    await expired.getByText('As an instance administrator, you can extend this license yourself in Administration → Projects.').waitFor();
    await expectAccessible(page, 'expired dialog for an administrator');
    await screenshotAtSizes(page, 'admin-expired-dialog');
    await expired.getByRole('button', { name: 'Extend license' }).click();
    await admin.dialog('admin-extend-dialog').getByRole('heading', { name: 'Extend the license of Default' }).waitFor();
    await admin.dialog('admin-extend-dialog').getByRole('button', { name: 'Extend license' }).click();
    await expectToast(page, 'The license of Default now runs until');
    await expect.poll(() => admin.dialog('admin-extend-dialog').count()).toBe(0);
  });

  it('sets threads and the private repository integration of a project', async () => {
    await admin.row('Projects', 'Checkout').getByRole('button', { name: 'Edit Checkout' }).click();
    const dialog = admin.dialog('admin-project-dialog');
    await dialog.getByLabel('Execution threads').fill('5');
    await dialog.getByLabel('Private repository integration enabled (its project admin then connects the repository)').check();
    await expectAccessible(rootSide.page, 'project settings dialog');
    await screenshotAtSizes(rootSide.page, 'admin-project-dialog');
    await rootSide.page.setViewportSize({ width: 1440, height: 900 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(rootSide.page, 'Project updated.');
    const cells = admin.row('Projects', 'Checkout').getByRole('cell');
    await expect.poll(() => cells.nth(2).innerText()).toBe('5');
    expect(await cells.nth(3).innerText()).toBe('Enabled');
    const mine = (await olive.api.call(authCalls.getProjects)).projects.find((project) => project.id === olive.projectId);
    expect([mine?.maxExecutionThreads, mine?.privateRepo]).toEqual([5, true]);
  });

  it('edits a user and disables them: their open page is signed out and sign-in is refused', async () => {
    await admin.open('users');
    await admin
      .row('Users', olive.email)
      .getByRole('button', { name: `Edit ${olive.email}` })
      .click();
    const edit = admin.dialog('admin-user-dialog');
    await edit.getByLabel('Projects they may still create').fill('3');
    await edit.getByLabel('May delete projects they administer').uncheck();
    await expectAccessible(rootSide.page, 'edit user dialog');
    await screenshotAtSizes(rootSide.page, 'admin-user-dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(rootSide.page, 'User updated.');
    const cells = admin.row('Users', olive.email).getByRole('cell');
    await expect.poll(() => cells.nth(2).innerText()).toBe('3');
    expect(await cells.nth(3).innerText()).toBe('No');

    await admin
      .row('Users', olive.email)
      .getByRole('button', { name: `Disable ${olive.email}` })
      .click();
    const confirm = admin.dialog('admin-disable-dialog');
    await confirm
      .getByText(`${olive.email} is signed out everywhere at once and cannot sign in until enabled again.`, { exact: false })
      .waitFor();
    await expectAccessible(rootSide.page, 'disable user dialog');
    await confirm.getByRole('button', { name: 'Disable user' }).click();
    await expectToast(rootSide.page, `${olive.email} is disabled.`);
    await expect.poll(() => cells.nth(4).innerText()).toBe('User\nDisabled');

    await oliveSide.page.reload();
    await oliveSide.page.getByText('Your session has expired. Please login again.', { exact: true }).waitFor();
    const refused = await h.test
      .client()
      .call(authCalls.login, { body: { email: olive.email, password: PASSWORD } })
      .catch((error: unknown) => error as Error);
    expect((refused as Error).message).toBe('This account has been disabled. Ask an instance administrator to enable it again.');

    await admin
      .row('Users', olive.email)
      .getByRole('button', { name: `Enable ${olive.email}` })
      .click();
    await expectToast(rootSide.page, `${olive.email} is enabled.`);
    await expect.poll(() => cells.nth(4).innerText()).toBe('User\nActive');
  });

  it('makes a worker token shown once, lists the agent using it, and revokes it', async () => {
    await admin.tab('Workers').click();
    await admin.table('Connected agents').getByText('No connected agents found').waitFor();
    await rootSide.page.getByRole('button', { name: 'New worker token' }).click();
    const dialog = admin.dialog('admin-token-dialog');
    await dialog.getByLabel('Token name').fill('lab runner');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByRole('heading', { name: 'Worker token created' }).waitFor();
    const token = await dialog.getByTestId('admin-new-token').innerText();
    expect(token).toMatch(/^rhw_/);
    await dialog.getByText('Copy it now: it is shown only once, and the server keeps only its digest.').waitFor();
    await dialog.getByText(`npx rehearse worker --server ${new URL(rootSide.page.url()).origin} --token ${token}`).waitFor();
    await expectAccessible(rootSide.page, 'new worker token dialog');
    await screenshotAtSizes(rootSide.page, 'admin-token-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();

    await h.test.client(token).call(workerCalls.claim, { body: { workerId: 'lab-7:1/901:ab12cd', waitMs: 0 } });
    await rootSide.page.reload();
    const agent = admin.row('Connected agents', 'lab-7');
    await agent.waitFor();
    expect((await agent.getByRole('cell').allInnerTexts()).slice(0, 3)).toEqual(['lab-7', 'lab runner', '1 (0 running)']);
    expect(await admin.table('Worker tokens').innerText()).not.toContain(token);
    await expectAccessible(rootSide.page, 'administration workers');
    await screenshotAtSizes(rootSide.page, 'admin-workers');

    await admin.row('Worker tokens', 'lab runner').getByRole('button', { name: 'Revoke lab runner' }).click();
    await rootSide.page.getByTestId('confirm-delete-dialog').getByRole('button', { name: 'Revoke' }).click();
    await expectToast(rootSide.page, 'Worker token revoked.');
    await expect.poll(() => admin.row('Worker tokens', 'lab runner').count()).toBe(0);
  });

  it('changes who may sign up, which applies to the next sign-up at once', async () => {
    await admin.tab('Sign-up').click();
    const page = rootSide.page;
    // Nothing saved yet: both values are the environment's, and there is nothing to save.
    await page.getByRole('group', { name: 'Who may sign up' }).waitFor();
    expect(await page.getByText('From the environment', { exact: true }).count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'Invited people and email domains' }).check();
    const domains = page.getByLabel('Allowed email domains');
    await domains.fill('not a domain');
    await page.getByText('List at least one email domain, such as example.com.').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await domains.fill('partner.example, acme.test');
    await page.getByLabel('Projects a new user may create', { exact: true }).fill('2');
    await expectAccessible(page, 'administration sign-up');
    await screenshotAtSizes(page, 'admin-signup');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Sign-up settings saved.');
    await expect.poll(() => page.getByText('Saved here', { exact: true }).count()).toBe(2);
    await page.getByRole('button', { name: /^Use environment value \(\d+\) for Projects a new user may create$/ }).waitFor();

    const outsider = await h.signUp('Eve', 'elsewhere.example').catch((error: unknown) => error as Error);
    expect((outsider as Error).message).toBe('Sign-up on this server needs an invitation or an email address at an allowed domain.');
    const partner = await h.signUp('Ana', 'partner.example');
    expect((await partner.api.call(authCalls.me)).user.customAttributes.allowedProjectsCount).toBe(2);
  });

  it('shows the audit trail of every change above, newest first, filtered by what was done', async () => {
    await admin.tab('Activity').click();
    const page = rootSide.page;
    await page.getByRole('heading', { name: 'Activity', level: 2 }).waitFor();
    // Newest: the partner's sign-up that the new policy let in, then the policy change of the test
    // before; the license extension is there too.
    const newest = admin.table('Activity').getByRole('row').nth(1);
    await newest.waitFor();
    const [, joined, joinedWhat] = await newest.getByRole('cell').allInnerTexts();
    expect([joined, joinedWhat?.split('\n')[0]]).toEqual([expect.stringMatching(/^ana-.*@partner\.example$/), 'Signed up']);
    const [, who, what] = await admin.table('Activity').getByRole('row').nth(2).getByRole('cell').allInnerTexts();
    expect(who).toBe(root.email);
    expect(what?.split('\n').slice(0, 2)).toEqual(['Server settings changed', 'instance']);
    expect(what?.split('\n')[2]).toContain('defaultAllowedProjects: 2');
    // The policy in the Sign-up tab's words, not as JSON.
    expect(what?.split('\n')[2]).toContain('signup: Invited people and email domains (partner.example, acme.test)');
    const extensions = admin.row('Activity', 'License extended');
    expect(await extensions.filter({ hasText: 'Checkout' }).count()).toBeGreaterThan(0);
    await page.getByLabel('What').selectOption({ label: 'Worker token revoked' });
    await expect.poll(() => admin.table('Activity').getByRole('row').count()).toBe(2);
    expect((await admin.row('Activity', 'Worker token revoked').getByRole('cell').nth(2).innerText()).split('\n')[1]).toBe('lab runner');
    // Who joined is in the trail too, the first of them as the instance administrator (issue 47).
    await page.getByLabel('What').selectOption({ label: 'Signed up' });
    const first = admin.row('Activity', root.email).filter({ hasText: 'Signed up' });
    await expect.poll(() => first.count()).toBe(1);
    expect((await first.getByRole('cell').nth(2).innerText()).split('\n')).toEqual([
      'Signed up',
      root.email,
      'became: instance administrator · through: sign-up form',
    ]);
    await page
      .locator('[data-sonner-toast]')
      .first()
      .waitFor({ state: 'detached', timeout: 8000 })
      .catch(() => undefined);
    await screenshotAtSizes(page, 'admin-activity-signups');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByLabel('What').selectOption({ label: 'All' });
    await expectAccessible(page, 'administration activity');
    await screenshotAtSizes(page, 'admin-activity');
  });

  it('changes session and job settings at run time: checked as the server would, saved and audited', async () => {
    await admin.tab('Sessions & jobs').click();
    const page = rootSide.page;
    await page.getByRole('heading', { name: 'Sessions and jobs', level: 2 }).waitFor();
    const attempts = page.getByLabel('Job attempts', { exact: true });
    expect(await attempts.inputValue()).toBe(String(h.test.settings.JOB_ATTEMPTS));
    // Nothing saved yet: every value is the environment's.
    expect(await page.getByText('From the environment', { exact: true }).count()).toBe(4);
    expect(await page.getByText('Saved here', { exact: true }).count()).toBe(0);
    // Nothing changed, nothing to save.
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await attempts.fill('11');
    await page.getByText('Job attempts must be a whole number from 1 to 10.').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await attempts.fill('5');
    await page.getByLabel('Session idle hours', { exact: true }).fill('48');
    await expectAccessible(page, 'administration sessions and jobs');
    await screenshotAtSizes(page, 'admin-sessions-jobs');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Session and job settings saved.');
    expect((await root.api.call(adminCalls.getSettings)).settings).toMatchObject({ jobAttempts: 5, sessionIdleHours: 48 });

    // Saved: a reload shows the new values; the change is the newest audit entry, with only what changed.
    await page.reload();
    await page.getByRole('heading', { name: 'Sessions and jobs', level: 2 }).waitFor();
    await expect.poll(() => page.getByLabel('Job attempts', { exact: true }).inputValue()).toBe('5');
    expect(await page.getByText('Saved here', { exact: true }).count()).toBe(2);
    expect(await page.getByText('From the environment', { exact: true }).count()).toBe(2);
    await admin.tab('Activity').click();
    const newest = admin.table('Activity').getByRole('row').nth(1);
    await newest.filter({ hasText: 'jobAttempts' }).waitFor();
    const [, who, what] = await newest.getByRole('cell').allInnerTexts();
    expect(who).toBe(root.email);
    expect(what?.split('\n').slice(0, 2)).toEqual(['Server settings changed', 'instance']);
    expect(what?.split('\n')[2]?.split(' · ').sort()).toEqual(['jobAttempts: 5', 'sessionIdleHours: 48']);
  });

  it('puts a saved setting back to the environment’s value: shown beside the field, undoable until saved, audited', async () => {
    const page = rootSide.page;
    const environmentAttempts = String(h.test.settings.JOB_ATTEMPTS);
    await admin.tab('Sessions & jobs').click();
    await page.getByRole('heading', { name: 'Sessions and jobs', level: 2 }).waitFor();
    const attempts = page.getByLabel('Job attempts', { exact: true });
    await expect.poll(() => attempts.inputValue()).toBe('5');
    const useEnvironment = page.getByRole('button', { name: `Use environment value (${environmentAttempts}) for Job attempts` });
    expect(await useEnvironment.innerText()).toBe(`Use environment value (${environmentAttempts})`);

    // Chosen, then taken back: the saved value returns and there is nothing to save.
    await useEnvironment.click();
    await expect.poll(() => attempts.inputValue()).toBe(environmentAttempts);
    await page.getByText('Environment value once saved', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Keep saved value for Job attempts' }).click();
    await expect.poll(() => attempts.inputValue()).toBe('5');
    await expect.poll(() => page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    await useEnvironment.click();
    await expectAccessible(page, 'administration sessions and jobs, a saved value going back to the environment');
    await screenshotAtSizes(page, 'admin-sessions-jobs-reset');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Session and job settings saved.');
    const answer = await root.api.call(adminCalls.getSettings);
    expect([answer.settings.jobAttempts, answer.sources.jobAttempts]).toEqual([h.test.settings.JOB_ATTEMPTS, 'environment']);
    expect([answer.settings.sessionIdleHours, answer.sources.sessionIdleHours]).toEqual([48, 'saved']);
    await expect.poll(() => page.getByText('From the environment', { exact: true }).count()).toBe(3);
    expect(await page.getByText('Saved here', { exact: true }).count()).toBe(1);
    expect(await useEnvironment.count()).toBe(0);

    await admin.tab('Activity').click();
    const newest = admin.table('Activity').getByRole('row').nth(1);
    // The tab paints its cached list first (the previous save is newest there), then the fresh one.
    await expect
      .poll(
        async () =>
          (
            await newest
              .getByRole('cell')
              .nth(2)
              .innerText()
              .catch(() => '')
          ).split('\n')[2],
      )
      .toBe('jobAttempts: environment value');
  });
});
