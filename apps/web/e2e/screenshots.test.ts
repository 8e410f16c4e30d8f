import { authCalls } from '@rehearse/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { startHarness, setLicenceExpiry, type Account, type Harness } from './support/harness';
import { seedUnusedSteps } from './support/seed';

/**
 * Not a test: writes a screenshot of every screen at 1440×900 and 1024×700 to
 * /tmp/web2-<screen>-<width>.png for a person to look at. Runs only with WEB_SCREENSHOTS=1.
 */
const enabled = process.env.WEB_SCREENSHOTS === '1';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

describe.skipIf(!enabled)('screenshots', () => {
  let h: Harness;
  let ada: Account;
  let bob: Account;
  let inviteLink = '';

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    bob = await h.signUp('Bob');
    await seedUnusedSteps(ada.api, ada.projectId);
    await ada.api.call(authCalls.createAccessKey, { body: { name: 'ci-pipeline', projectId: ada.projectId } });
    const sent = await ada.api.call(authCalls.createInvitation, {
      body: { project_id: ada.projectId, sent_to_email_list: [bob.email, 'carol@acme.test'] },
    });
    const link = new URL(sent.invitations[0]!.link);
    inviteLink = link.pathname + link.search;
  });

  afterAll(async () => {
    await h?.close();
  });

  for (const size of SIZES) {
    it(`captures every screen at ${size.width}×${size.height}`, async () => {
      const shot = async (page: Page, name: string) => {
        await page.waitForTimeout(350);
        await page.screenshot({ path: `/tmp/web2-${name}-${size.width}.png` });
      };
      const { context, page } = await h.open(ada, size);
      const p = `/${ada.projectId}`;

      await page.goto('/onboarding');
      await page.getByText(Strings.onboardingPlanTitle).waitFor();
      await shot(page, 'onboarding');

      await page.goto(`${p}/dashboard`);
      await page.getByTestId('stat-features').filter({ hasText: /\d/ }).waitFor();
      await shot(page, 'dashboard');

      await page.keyboard.press('Control+b');
      await shot(page, 'sidebar-open');
      await page.keyboard.press('Control+b');

      // Keyboard focus: the selector opens with Enter and arrows move through its options.
      await page.getByTestId('environment-selector').focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await shot(page, 'focus-env-row-action');
      // The first Escape closes the tooltip, the second the panel (Radix closes the top layer).
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');

      await page.getByTestId('environment-selector').click();
      await shot(page, 'env-selector');
      await page.getByRole('button', { name: Strings.environmentAdd }).click();
      await page.getByLabel(Strings.environmentUrl, { exact: true }).fill('http://shop.example.com:99999');
      await page.getByLabel(Strings.environmentName, { exact: true }).fill('shop/prod');
      await shot(page, 'env-create-errors');
      await page.keyboard.press('Escape');
      await page.getByTestId('environment-selector').click();
      await page.getByRole('button', { name: Strings.environmentEdit('default') }).click();
      await page.getByLabel(Strings.environmentName, { exact: true }).fill('production');
      await shot(page, 'env-edit-rename');
      await page.keyboard.press('Escape');

      await page.getByTestId('project-selector').click();
      await shot(page, 'project-selector');
      await page.getByRole('button', { name: Strings.projectNew }).click();
      await page.getByLabel(Strings.projectUrl).fill('not a url');
      await shot(page, 'project-create-modal');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: Strings.record }).click();
      await shot(page, 'recorder-chooser');
      await page.keyboard.press('Escape');

      await page.goto('/projects/new?newUser=1');
      await page.getByLabel(Strings.projectUseDemo).check();
      await shot(page, 'project-create-page');

      await page.goto(`${p}/settings/members`);
      await page.getByTestId('members-table').getByText(bob.email).waitFor();
      await page.getByLabel(Strings.inviteLabel).fill(`${ada.email}`);
      await page.getByRole('button', { name: Strings.inviteSend }).click();
      await shot(page, 'members');
      await page.getByTestId('members-table').getByRole('searchbox').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await shot(page, 'focus-members-table');
      await page.getByLabel(Strings.inviteLabel).fill(`dave-${size.width}@acme.test`);
      await page.getByRole('button', { name: Strings.inviteSend }).click();
      await page.getByTestId('invitation-links').waitFor();
      await shot(page, 'members-invited');
      await page.getByRole('button', { name: Strings.memberRemove('carol@acme.test') }).click();
      await shot(page, 'member-remove-dialog');
      await page.keyboard.press('Escape');

      await page.goto(`${p}/settings/access-tokens`);
      await page.getByText('ci-pipeline').waitFor();
      await shot(page, 'tokens');
      await page.getByRole('button', { name: Strings.tokenGenerate }).click();
      await page.getByLabel(Strings.tokenName).fill('nightly');
      await page.getByRole('button', { name: Strings.tokenGenerateSubmit }).click();
      await page.getByTestId('new-token').waitFor();
      await shot(page, 'token-created');
      await page.keyboard.press('Escape');

      await page.goto(`${p}/settings/private-repository`);
      await page.getByRole('button', { name: Strings.gitSetUp }).click();
      await shot(page, 'private-repo');

      await page.goto(`${p}/code-cleanup`);
      await page.getByTestId('unused-steps').waitFor();
      await page.getByLabel(Strings.cleanupSelectStep('an unused step with a {string}')).check();
      await shot(page, 'code-cleanup');

      // The application map (once a coming-soon page): wait for its lazy chunk and its empty state.
      await page.goto(`${p}/memory`);
      await page.getByText(Strings.memoryEmpty).waitFor();
      await shot(page, 'memory');
      await page.goto(`/open-recorder/recorder?project_id=${ada.projectId}&env_name=default.json`);
      await page.getByTestId('launch-command').waitFor();
      await shot(page, 'open-recorder');
      await page.goto('/nowhere/at/all');
      await shot(page, 'not-found');
      await page.goto('/invitation?id=00000000-0000-4000-8000-000000000000&invited_by=x@y.z&project=p');
      await page.getByTestId('invitation-card').waitFor();
      await shot(page, 'invitation-invalid');
      await context.close();

      const bobView = await h.open(bob, size);
      await bobView.page.goto(inviteLink);
      await bobView.page.getByRole('button', { name: Strings.invitationAccept }).waitFor();
      await shot(bobView.page, 'invitation');
      await bobView.context.close();

      await setLicenceExpiry(h.test, bob.projectId, '2 days 1 hour');
      const bobAgain = await h.open(bob, size);
      await bobAgain.page.goto(`/${bob.projectId}/dashboard`);
      await bobAgain.page.getByRole('button', { name: new RegExp(Strings.licenceOpen) }).click();
      await shot(bobAgain.page, 'licence-dialog');
      await bobAgain.page.getByRole('button', { name: Strings.contactSales }).click();
      await shot(bobAgain.page, 'contact-sales');
      await bobAgain.context.close();

      const login = await h.browser.newContext({ baseURL: h.base, viewport: size });
      const loginPage = await login.newPage();
      await loginPage.goto('/login');
      await shot(loginPage, 'login');
      await login.close();
    });
  }
});
