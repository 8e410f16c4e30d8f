import { executionCalls, Messages, runsCalls, workspaceCalls } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { FeaturesPageModel } from './pages/features.page';
import { expectAccessible, expectToast, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';

const shots = process.env.WEB_SCREENSHOTS === '1';

/** Executions list, planner, Enabled toggle and detail, against the real executions service. */
describe('executions in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // One local worker process, so "Run" really runs the scenarios in Chromium.
    h = await startHarness({ LOCAL_WORKERS: '1', LOCAL_WORKER_THREADS: '1' });
    ada = await h.signUp('Ada');
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: '@cart\nScenario: Pay with a card\n  Given I open "/"\n' },
    });
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'checkout', data: '@smoke\nScenario: Browse\n  Given I open "/"\n' },
    });
    ({ context, page } = await h.open(ada));
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  const rows = () => page.getByTestId('execution-row');
  const planner = () => page.getByTestId('planner');

  it('shows the All view and its empty message without executions', async () => {
    await page.goto(`/${ada.projectId}/executions`);
    await expect.poll(() => page.getByText(Strings.execEmptyAll).count()).toBe(1);
    expect(await page.getByRole('radio', { name: `${Strings.execAll} (0)` }).getAttribute('aria-checked')).toBe('true');
    await expectAccessible(page, 'executions, empty');
  });

  it('plans an execution through the dialog: name, tags → scenarios, schedule, Apply', async () => {
    await page.getByRole('button', { name: Strings.execPlan }).click();
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    expect(await planner().getByText(Messages.executionNameRequired).count()).toBe(1);
    await planner().getByLabel(Strings.execName).fill('Nightly cart');
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    // Step 2: at least one tag; choosing one lists the scenarios having it.
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    expect(await planner().getByText(Messages.groupTagRequired).count()).toBe(1);
    await planner().getByRole('checkbox', { name: '@cart' }).check();
    await expect.poll(() => planner().getByTestId('planner-scenarios').innerText()).toContain('Pay with a card');
    expect(await planner().getByTestId('planner-scenarios').innerText()).not.toContain('Browse');
    expect(
      await planner()
        .getByRole('link', { name: Strings.execViewScenario('Pay with a card') })
        .getAttribute('href'),
    ).toBe(`/${ada.projectId}/features?feature=checkout.feature&scenario=Pay%20with%20a%20card`);
    await expectAccessible(page, 'planner, select scenarios');
    // The group's thread count: 1 by default, from 0 to the free threads (2 here).
    const threads = planner().getByLabel(Strings.execThreadCount);
    expect(await threads.inputValue()).toBe('1');
    await threads.fill('3');
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    expect(await planner().getByText('Thread count must be a whole number from 0 to the threads available.').count()).toBe(1);
    await threads.fill('1');
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    // Step 3: schedule defaults (weekly, 01:45, offset 0); Every day sets all 7 days.
    expect(await planner().getByLabel(Strings.execTime, { exact: true }).inputValue()).toBe('01:45');
    await planner().getByLabel(Strings.execRepeat).selectOption('daily');
    expect(await planner().locator('button[aria-pressed="true"]').count()).toBe(7);
    // Time zones: spec 02 §9's nine first, in its order, then every IANA zone; an IANA zone is kept by name.
    const zone = planner().getByLabel(Strings.execTimeZone, { exact: true });
    const zoneLabels = await zone.locator('option').allTextContents();
    expect(zoneLabels.slice(0, 9)).toEqual([
      'Central ST (-6)',
      'Eastern ST (-5)',
      'Atlantic ST (-4)',
      'Afghanistan (+4.5)',
      'Pakistan (+5)',
      'India (+5.5)',
      'Moscow (+3)',
      'Iran (+3.5)',
      'Gulf (+4)',
    ]);
    expect(zoneLabels).toContain('America/New York');
    await zone.selectOption('America/New_York');
    await screenshotAtSizes(page, 'planner-schedule');
    await page.setViewportSize({ width: 1440, height: 900 });
    await planner().getByRole('button', { name: Strings.plannerApply }).click();
    await expectToast(page, Messages.executionSaved);
    await expect.poll(() => rows().count()).toBe(1);
    const row = await rows().first().innerText();
    expect(row).toContain('Nightly cart');
    expect(row).toContain('Every day at 01:45');
    expect(row).toContain('Planned');
    expect(row).toContain('1 scenario');
    const saved = (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions[0]!;
    expect(saved.schedule).toMatchObject({ ianaTimeZone: 'America/New_York' });
    expect([-5, -4]).toContain(saved.schedule!.timeZone);
  });

  it('schedules and unschedules through the Enabled toggle', async () => {
    const toggle = page.getByRole('switch', { name: Strings.execEnabledLabel('Nightly cart') });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    // The switch flips once the server has saved the change, so wait for it rather than read it at once.
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    const listExecutions = async () => (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions;
    await expect.poll(async () => (await listExecutions())[0]!.enabled).toBe(false);
    expect(await listExecutions()).toHaveLength(1);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect.poll(async () => (await listExecutions())[0]!.enabled).toBe(true);
  });

  it('Skip for now saves a Draft whose toggle needs a schedule', async () => {
    await page.getByRole('button', { name: Strings.execPlan }).click();
    await planner().getByLabel(Strings.execName).fill('Smoke draft');
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    await planner().getByRole('checkbox', { name: '@smoke' }).check();
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    await planner().getByRole('button', { name: Strings.plannerSkip }).click();
    await expect.poll(() => rows().count()).toBe(2);
    const draft = rows().filter({ hasText: 'Smoke draft' });
    expect(await draft.getByTestId('execution-status').textContent()).toBe('Draft');
    const toggle = draft.getByRole('switch');
    expect(await toggle.getAttribute('aria-disabled')).toBe('true');
    await toggle.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toContain(Messages.scheduleRequired);
    await toggle.click({ force: true });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await expectAccessible(page, 'executions, all');
  });

  it('opens the detail, counts threads, and saves', async () => {
    await rows()
      .filter({ hasText: 'Nightly cart' })
      .getByRole('cell')
      .first()
      .click({ position: { x: 5, y: 5 } });
    await page.waitForURL(/\/execution\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByTestId('threads-available').textContent()).toBe(Strings.detailThreads(2));
    expect(await page.getByTestId('thread-count').textContent()).toBe('1');
    await page.getByRole('button', { name: Strings.detailThreadsMore }).click();
    expect(await page.getByTestId('thread-count').textContent()).toBe(`2${Strings.detailMax}`);
    expect(await page.getByRole('button', { name: Strings.detailThreadsMore }).isDisabled()).toBe(true);
    // Spec 02 §2: the group's menu has threads, Edit and Delete.
    const groupMenu = () => page.getByRole('button', { name: Strings.detailGroupMenu('Scenario Group 1') });
    await groupMenu().click();
    expect(await page.getByRole('menu').getByTestId('menu-thread-count').textContent()).toBe(Strings.detailMenuThreads(2, 2));
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual([
      Strings.detailMenuThreadMore,
      Strings.detailMenuThreadLess,
      Strings.execEdit,
      Strings.execDelete,
    ]);
    expect(await page.getByRole('menuitem', { name: Strings.detailMenuThreadMore }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('menuitem', { name: Strings.detailMenuThreadLess }).click();
    expect(await page.getByTestId('thread-count').textContent()).toBe('1');
    await groupMenu().click();
    await page.getByRole('menuitem', { name: Strings.detailMenuThreadMore }).click();
    expect(await page.getByTestId('thread-count').textContent()).toBe(`2${Strings.detailMax}`);
    await page.getByRole('button', { name: Strings.detailAddFlow }).click();
    expect(await page.getByTestId('flow').count()).toBe(2);
    // The second flow's group may use what the first flow's largest group leaves: 0.
    expect(await page.getByTestId('flow').nth(1).getByTestId('thread-count').textContent()).toBe(`0${Strings.detailMax}`);
    await page.getByRole('button', { name: Strings.detailDeleteFlow(2) }).click();
    // The earlier "saved" toast fades after 4 s (spec 02 §9); axe measures the page, not the toast.
    await expect.poll(() => page.locator('[data-sonner-toast]').allInnerTexts()).toEqual([]);
    await expectAccessible(page, 'execution detail');
    await page.getByRole('button', { name: Strings.detailSave }).click();
    await expect
      .poll(() => page.locator('[data-sonner-toast]').allInnerTexts())
      .toEqual([expect.stringContaining(Messages.executionSaved)]);
    await page.waitForURL(/\/executions$/);
    const { executions } = await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } });
    expect(executions.find((e) => e.name === 'Nightly cart')!.flows[0]!.scenarioGroups[0]!.threadCount).toBe(2);
  });

  it("edits through the planner's steps: rename, a group's tags and threads, a schedule set then removed; Cancel asks only with unsaved changes", async () => {
    const dialog = () => page.getByRole('dialog');
    await page.goto(`/${ada.projectId}/executions`);
    await rows().filter({ hasText: 'Smoke draft' }).getByRole('link', { name: 'Smoke draft' }).click();
    await page.waitForURL(/\/execution\/[0-9a-f-]+$/);
    await page.getByTestId('flow').first().waitFor();
    // Leaving without changes does not ask.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(/\/executions$/);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await rows().filter({ hasText: 'Smoke draft' }).getByRole('link', { name: 'Smoke draft' }).click();
    await page.waitForURL(/\/execution\/[0-9a-f-]+$/);

    // Step 1 in edit mode: Define an execution, with Save/Cancel; the name is required.
    await page.getByRole('button', { name: Strings.detailRename }).click();
    await expect.poll(() => dialog().getByRole('heading').first().textContent()).toBe('Define an execution');
    await dialog().getByLabel(Strings.execName).fill(' ');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    expect(await dialog().getByText('Name is required.').count()).toBe(1);
    await dialog().getByLabel(Strings.execName).fill('Smoke nightly');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Smoke nightly');

    // Step 2 in edit mode: Select scenarios, with the group's thread count from 0 to what is available (2).
    await page.getByRole('button', { name: Strings.detailGroupMenu('Scenario Group 1') }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect.poll(() => dialog().getByRole('heading').first().textContent()).toBe('Select scenarios');
    const threadsField = dialog().getByLabel(Strings.execThreadCount);
    expect(await threadsField.inputValue()).toBe('1');
    await threadsField.fill('3');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    expect(await dialog().getByText(Messages.threadCountInvalid).count()).toBe(1);
    await threadsField.fill('2');
    await dialog().getByRole('checkbox', { name: '@cart' }).check();
    await expectAccessible(page, 'planner edit, select scenarios');
    await screenshotAtSizes(page, 'planner-edit-scenarios');
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('thread-count').first().textContent()).toBe(`2${Strings.detailMax}`);
    expect(await page.getByTestId('scenario-group').first().innerText()).toContain('@smoke, @cart');

    // Step 3 in edit mode: Schedule execution; a schedule set here can be removed here.
    await page.getByRole('button', { name: `${Strings.detailScheduleEdit}: -` }).click();
    await expect.poll(() => dialog().getByRole('heading').first().textContent()).toBe('Schedule execution');
    expect(await dialog().getByRole('button', { name: Strings.detailRemoveSchedule }).count()).toBe(0);
    await dialog().getByLabel(Strings.execRepeat).selectOption('daily');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Edit schedule: / }).textContent()).toBe('Every day at 01:45');
    await page.getByRole('button', { name: /^Edit schedule: / }).click();
    await screenshotAtSizes(page, 'planner-edit-schedule');
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog().getByRole('button', { name: Strings.detailRemoveSchedule }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Edit schedule: / }).textContent()).toBe(Strings.detailNoSchedule);

    // Cancel with unsaved changes asks; Keep editing stays, and nothing was saved yet.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const ask = page.getByRole('alertdialog');
    await expect.poll(() => ask.count()).toBe(1);
    expect(await ask.innerText()).toContain(Strings.detailUnsavedText);
    await expectAccessible(page, 'execution detail, unsaved changes');
    await screenshotAtSizes(page, 'execution-unsaved');
    await page.setViewportSize({ width: 1440, height: 900 });
    await ask.getByRole('button', { name: Strings.detailKeepEditing }).click();
    expect(page.url()).toMatch(/\/execution\/[0-9a-f-]+$/);
    const before = (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions;
    expect(before.some((e) => e.name === 'Smoke nightly')).toBe(false);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Execution saved successfully');
    await page.waitForURL(/\/executions$/);
    const saved = (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions.find(
      (e) => e.name === 'Smoke nightly',
    )!;
    expect(saved).toMatchObject({ schedule: null, enabled: false, displayStatus: 'Draft' });
    expect(saved.flows[0]!.scenarioGroups[0]).toMatchObject({ threadCount: 2, tags: ['@smoke', '@cart'] });
    expect(await rows().filter({ hasText: 'Smoke nightly' }).getByTestId('execution-status').textContent()).toBe('Draft');

    // A change then Discard changes leaves without saving it.
    await rows().filter({ hasText: 'Smoke nightly' }).getByRole('link', { name: 'Smoke nightly' }).click();
    await page.getByRole('button', { name: Strings.detailAddFlow }).click();
    await page.getByRole('link', { name: Strings.detailBack }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: Strings.detailDiscard }).click();
    await page.waitForURL(/\/executions$/);
    const after = (await ada.api.call(executionCalls.get, { params: { id: saved.id } })).execution;
    expect(after.flows).toHaveLength(1);
  });

  it.skipIf(!shots)('captures the executions screens', async () => {
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      const { context: c, page: p } = await h.open(ada, size);
      await p.goto(`/${ada.projectId}/executions`);
      await p.getByTestId('execution-row').first().waitFor();
      await p.screenshot({ path: `/tmp/reports-executions-${size.width}.png` });
      await p.getByRole('button', { name: Strings.execPlan }).click();
      await p.getByLabel(Strings.execName).fill('Weekly');
      await p.getByRole('button', { name: Strings.plannerNext }).click();
      await p.getByRole('checkbox', { name: '@cart' }).check();
      await p.waitForTimeout(300);
      await p.screenshot({ path: `/tmp/reports-planner2-${size.width}.png` });
      await p.getByRole('button', { name: Strings.plannerNext }).click();
      await p.waitForTimeout(300);
      await p.screenshot({ path: `/tmp/reports-planner3-${size.width}.png` });
      await p.keyboard.press('Escape');
      await p.getByTestId('execution-row').first().getByRole('link').click();
      await p.getByTestId('flow').first().waitFor();
      await p.screenshot({ path: `/tmp/reports-detail-${size.width}.png` });
      await c.close();
    }
  });

  it('runs an execution, shows live progress, and its run report shows scenarios as they end', async () => {
    await page.goto(`/${ada.projectId}/executions`);
    await rows().filter({ hasText: 'Nightly cart' }).getByRole('button', { name: Strings.execRun }).click();
    await expect.poll(() => page.getByRole('radio', { name: /^Active/ }).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('execution-progress').count(), { timeout: 60_000 }).toBe(1);
    const execution = (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions.find(
      (e) => e.name === 'Nightly cart',
    )!;
    const { runId } = await ada.api.call(executionCalls.reportLink, { params: { id: execution.id } });
    expect(runId).not.toBeNull();
    // Open the report while the worker still pulls the workspace and starts Chromium. No reload
    // after this: the scenario must arrive through the page's live subscription. If the execution
    // already ended (a fast machine), the scenario is simply there from the start.
    await page.goto(`/${ada.projectId}/run-report/${runId}`);
    await expect.poll(() => page.getByTestId('run-scenario').count(), { timeout: 120_000 }).toBe(1);
    // Once the execution ends the page stops saying it runs.
    await expect.poll(() => page.getByTestId('run-live-status').count(), { timeout: 60_000 }).toBe(0);
    expect(await page.getByTestId('provisioning-overlay').count()).toBe(0);
    expect((await ada.api.call(executionCalls.get, { params: { id: execution.id } })).execution.running).toBe(false);
    await page.getByTestId('run-scenario').first().click();
    await expect.poll(() => page.getByRole('tab', { selected: true }).count()).toBe(1);

    // Back on the list, how the run ended is said in the status column, linked to its report.
    await page.goto(`/${ada.projectId}/executions`);
    await page.getByRole('radio', { name: /^All/ }).click();
    const row = rows().filter({ hasText: 'Nightly cart' });
    const { run } = await ada.api.call(runsCalls.getRun, { query: { runId: runId! } });
    await expect
      .poll(() => row.getByTestId('execution-last-run').textContent())
      .toBe(run.status === 'PASSED' ? 'Last run passed' : 'Last run failed');
    expect(await row.getByTestId('execution-last-run').getAttribute('href')).toBe(`/${ada.projectId}/run-report/${runId}`);
    // Scheduled, it stays Planned, with the result beside it.
    expect(await row.getByTestId('execution-status').textContent()).toBe('Planned');
    // Unscheduled, the result takes Draft's place: an execution that ran is no draft. The API keeps the spec's status.
    const { execution: unscheduled } = await ada.api.call(executionCalls.create, {
      body: {
        projectId: ada.projectId,
        name: 'Unscheduled smoke',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@smoke'] }] }],
      },
    });
    await ada.api.call(executionCalls.run, { params: { id: unscheduled.id } });
    await ada.api.call(executionCalls.halt, { params: { id: unscheduled.id } });
    const unscheduledRow = rows().filter({ hasText: 'Unscheduled smoke' });
    await expect.poll(() => unscheduledRow.getByTestId('execution-last-run').textContent()).toBe('Last run stopped');
    expect(await unscheduledRow.getByTestId('execution-status').count()).toBe(0);
    expect(await unscheduledRow.innerText()).not.toContain('Draft');
    expect((await ada.api.call(executionCalls.get, { params: { id: unscheduled.id } })).execution.displayStatus).toBe('Draft');
    await expectAccessible(page, 'executions with a last run');
    await screenshotAtSizes(page, 'executions-last-run');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Spec 02 Run.mode: a run the server itself ran is cloud, and the reports list says so.
    await page.goto(`/${ada.projectId}/runs`);
    const reportRow = page.getByTestId('report-row').filter({ hasText: 'Nightly cart' });
    await expect.poll(() => reportRow.innerText()).toMatch(/\bcloud\b/i);
  });

  it("disables Run on the list with 'Insufficient threads' when the project lacks the free threads an execution needs", async () => {
    // Nightly cart's group takes 2 threads; the project now has 1. Smoke nightly (2 as well) neither.
    await h.test.database.execute(`update projects set max_execution_threads = 1 where id = '${ada.projectId}'`);
    const { execution: one } = await ada.api.call(executionCalls.create, {
      body: {
        projectId: ada.projectId,
        name: 'One thread',
        env: (await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } })).executions[0]!.env,
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@smoke'] }] }],
      },
    });
    await page.goto(`/${ada.projectId}/executions`);
    await page.getByRole('radio', { name: /^All/ }).click();
    const run = (name: string) => rows().filter({ hasText: name }).getByRole('button', { name: Strings.execRun });
    await expect.poll(() => run('Nightly cart').getAttribute('aria-disabled')).toBe('true');
    expect(await run('One thread').getAttribute('aria-disabled')).toBeNull();
    await run('Nightly cart').hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe('Insufficient threads');
    await run('Nightly cart').click({ force: true });
    expect(await page.getByRole('radio', { name: /^Active/ }).getAttribute('aria-checked')).toBe('false');
    await expectAccessible(page, "executions with Run disabled for 'Insufficient threads'");
    await screenshotAtSizes(page, 'executions-insufficient-threads');
    await page.setViewportSize({ width: 1440, height: 900 });
    await ada.api.call(executionCalls.remove, { params: { id: one.id } });
  });

  it("the planner's eye opens the features page on exactly that scenario, the feature named with or without '.feature'", async () => {
    // Two features with a scenario of the same name; the features page was never opened, so a
    // feature it does not find falls back to the first (checkout), where 'Sign in' does not exist.
    for (const title of ['Sign up', 'Sign in']) {
      await ada.api.call(workspaceCalls.pushScenario, {
        body: { projectId: ada.projectId, name: 'login', data: `@login\nScenario: ${title}\n  Given I open "/"\n` },
      });
    }
    await page.goto(`/${ada.projectId}/executions`);
    await page.getByRole('button', { name: Strings.execPlan }).click();
    await planner().getByLabel(Strings.execName).fill('Eye');
    await planner().getByRole('button', { name: Strings.plannerNext }).click();
    await planner().getByRole('checkbox', { name: '@login' }).check();
    const eye = planner().getByRole('link', { name: Strings.execViewScenario('Sign in') });
    expect(await eye.getAttribute('href')).toBe(`/${ada.projectId}/features?feature=login.feature&scenario=Sign%20in`);
    expect(await eye.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([context.waitForEvent('page'), eye.click()]);
    const features = new FeaturesPageModel(tab);
    await expect.poll(() => features.title().textContent()).toContain('Sign in');
    expect(new URL(tab.url()).searchParams.get('feature')).toBe('login');
    expect(new URL(tab.url()).searchParams.get('scenario')).toBe('Sign in');
    await expectAccessible(tab, "features page opened by the planner's eye");
    await screenshotAtSizes(tab, 'planner-eye-features');
    await tab.setViewportSize({ width: 1440, height: 900 });
    // The same scenario by the feature's display name.
    await tab.goto(`/${ada.projectId}/features?feature=checkout&scenario=Browse`);
    await expect.poll(() => features.title().textContent()).toContain('Browse');
    await tab.goto(`/${ada.projectId}/features?feature=login&scenario=Sign%20up`);
    await expect.poll(() => features.title().textContent()).toContain('Sign up');
    await tab.close();
    await page.keyboard.press('Escape');
  });

  it('shows only the no-threads page when the project has no execution threads', async () => {
    await h.test.database.execute(`update projects set max_execution_threads = 0 where id = '${ada.projectId}'`);
    await page.goto(`/${ada.projectId}/executions`);
    await expect.poll(() => page.getByRole('heading', { name: Messages.noThreads }).count()).toBe(1);
    expect(await page.getByRole('button', { name: Strings.contactSales }).count()).toBe(1);
    expect(await page.getByRole('button', { name: Strings.execPlan }).count()).toBe(0);
  });
});
