import { executionCalls, runnerCalls, runsCalls, workerCalls, workspaceCalls, type WorkerJob } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strings } from '../src/lib/strings';
import { ReportPageModel } from './pages/report.page';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';
import { seedRun } from './support/reports-seed';

const shots = process.env.WEB_SCREENSHOTS === '1';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

/** Reports list, run report and scenario report on seeded runs (uploaded like the runner does). */
describe('reports in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let r: ReportPageModel;
  let failedRun = '';
  let png: Buffer;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    // A real screenshot: the demo shop's-looking page rendered by Chromium itself.
    const shooter = await h.browser.newPage({ viewport: { width: 800, height: 500 } });
    await shooter.setContent('<body style="font:24px sans-serif;background:#f8fafc"><h1>Trail Shop</h1><button>Pay now</button></body>');
    png = await shooter.screenshot();
    await shooter.close();
    ({ runId: failedRun } = await seedRun(ada.api, ada.projectId, {
      name: 'Nightly checkout',
      steps: 6,
      commands: 3,
      png,
      failAt: 3,
      scenarios: 3,
    }));
    await seedRun(ada.api, ada.projectId, { name: 'Smoke catalogue', steps: 4, commands: 2, png, consoleErrorAt: 1 });
    ({ context, page } = await h.open(ada));
    r = new ReportPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('lists runs newest first with status labels and the pass ratio, and searches after the debounce', async () => {
    await page.goto(`/${ada.projectId}/runs`);
    await expect.poll(() => r.rows().count()).toBe(2);
    const first = await r.rows().nth(0).innerText();
    expect(first).toContain('Smoke catalogue');
    expect(first).toContain(Strings.statusPassed);
    expect(first).toContain('1 / 1 (100%)');
    const second = await r.rows().nth(1).innerText();
    expect(second).toContain('Nightly checkout');
    expect(second).toContain(Strings.statusFailed);
    expect(second).toContain('2 / 3 (67%)');
    // Spec 02 Run.mode: a run the CLI uploaded is local.
    expect(first).toMatch(/\blocal\b/i);
    expect(second).toMatch(/\blocal\b/i);
    await expectAccessible(page, 'reports list');

    await r.search().fill('nightly');
    await expect.poll(() => r.rows().count()).toBe(1);
    expect(await r.rows().nth(0).innerText()).toContain('Nightly checkout');
    await r.search().fill('no such run');
    await expect.poll(() => page.getByText(Strings.reportsNoMatch('no such run')).count()).toBe(1);
    await r.search().fill('');
    await expect.poll(() => r.rows().count()).toBe(2);
  });

  it('grouping by failed step forces Failed only and groups under the step', async () => {
    await r.select(Strings.reportsGrouping).selectOption('failedStep');
    await expect.poll(() => r.rows().count()).toBe(1);
    expect(await r.select(Strings.reportsStatusFilter).inputValue()).toBe('failed');
    expect(await r.select(Strings.reportsStatusFilter).isDisabled()).toBe(true);
    expect(await page.getByRole('row', { name: /step 4 of scenario 1/ }).count()).toBe(1);
    await r.select(Strings.reportsGrouping).selectOption('none');
  });

  it('keeps the time range as durationIndex in local storage', async () => {
    await r.select(Strings.reportsRange).selectOption({ label: 'Last week' });
    expect(await page.evaluate(() => localStorage.getItem('durationIndex'))).toBe('1');
    await page.reload();
    expect(await r.select(Strings.reportsRange).inputValue()).toBe('1');
    await r.select(Strings.reportsRange).selectOption({ label: 'Last 24 hours' });
  });

  it('opens a run report and a failed scenario with the default step, command and tab of spec 02 §4', async () => {
    await r.rows().filter({ hasText: 'Nightly checkout' }).click();
    await page.waitForURL(new RegExp(`/run-report/${failedRun}$`));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Nightly checkout');
    await expect.poll(() => page.getByTestId('run-scenario').count()).toBe(3);
    await expectAccessible(page, 'run report');

    await page.getByRole('link', { name: Strings.reportOpenScenario('Pay with a card') }).click();
    await page.waitForURL(/\/run-report\/[0-9a-f-]+\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Pay with a card');
    // Breadcrumb Executions > run name.
    const crumbs = page.getByRole('navigation', { name: Strings.reportBreadcrumb });
    expect(await crumbs.getByRole('link', { name: 'Nightly checkout' }).count()).toBe(1);
    expect(await page.getByTestId('summary-steps').textContent()).toBe('3 / 6');
    expect(await page.getByTestId('summary-status').textContent()).toContain(Strings.statusFailed);
    // Values used: masked secrets show as mask:****.
    const values = await page.getByRole('region', { name: Strings.reportValuesUsed }).innerText();
    expect(values).toContain('password: mask:****');
    expect(values).not.toContain('hunter2');

    // Default step: the last passed or failed one (step 4 failed; 5 and 6 were skipped).
    expect(await r.selectedStep().innerText()).toContain('step 4 of scenario 1');
    // Default command: the first non-passed one with a screenshot (the failed click).
    expect(await r.currentCommand().innerText()).toContain('Field 4.3');
    // Default tab: Network, since a request failed; its status reads "500 Bad Gateway".
    expect(await r.selectedTab()).toBe(Strings.reportTabNetwork);
    const network = await r.detail().getByRole('table').innerText();
    expect(network).toContain('500 Bad Gateway');
    expect(network).toContain('200 Success');
    expect(network).toContain('304 Permanent Redirect');
    expect(network).toContain('1.4 s');
    expect(network).toContain('2.00 kb');
    await expectAccessible(page, 'scenario of a run report');

    await r.tab(Strings.reportTabConsole).click();
    expect(await r.detail().innerText()).toContain('TypeError: cart is undefined');
    await r.tab(Strings.reportTabScreenshot).click();
    await expect.poll(() => page.getByTestId('screenshot').count()).toBe(1);
    expect(await page.getByTestId('screenshot').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);

    // The full network log dialog, searched and filtered.
    await r.tab(Strings.reportTabNetwork).click();
    await page.getByRole('button', { name: Strings.reportNetworkAll }).click();
    const dialog = page.getByTestId('network-dialog');
    await expect.poll(() => dialog.getByTestId('network-row').count()).toBe(9);
    await dialog.getByRole('combobox', { name: Strings.reportNetworkFilter }).selectOption('failed');
    expect(await dialog.getByTestId('network-row').count()).toBe(1);
    await dialog.getByRole('searchbox', { name: Strings.reportNetworkSearch }).fill('products');
    expect(await dialog.getByText(Strings.emptyNetworkIssues).count()).toBe(1);
    await page.keyboard.press('Escape');
  });

  it('steps through commands; a passing step opens on Screenshot, one with console errors on Console', async () => {
    await r.steps().nth(0).getByRole('button').first().click();
    expect(await r.selectedTab()).toBe(Strings.reportTabScreenshot);
    // No failure in step 1: the command opened is the last one.
    expect(await r.currentCommand().innerText()).toContain('Field 1.3');
    await page.getByRole('button', { name: 'Next command' }).click();
    expect(await r.selectedStep().innerText()).toContain('step 2 of scenario 1');
    expect(await r.currentCommand().innerText()).toContain('navigate');
    await page.getByRole('button', { name: 'Previous command' }).click();
    expect(await r.selectedStep().innerText()).toContain('step 1 of scenario 1');
    // A skipped step has no network: the spec's empty messages.
    await r.steps().nth(5).getByRole('button').first().click();
    await r.tab(Strings.reportTabNetwork).click();
    expect(await r.detail().getByText(Strings.emptyNetwork).count()).toBe(1);
    await r.tab(Strings.reportTabConsole).click();
    expect(await r.detail().getByText(Strings.emptyConsole).count()).toBe(1);
  });

  it('adds, edits and deletes an own comment', async () => {
    await page.getByRole('textbox', { name: Strings.commentLabel }).fill('Flaky payment stub');
    await page.getByRole('button', { name: Strings.commentPublish }).click();
    await expect.poll(() => page.getByTestId('comment').count()).toBe(1);
    await page.getByTestId('comment').getByRole('button', { name: Strings.commentEdit }).click();
    await page.getByRole('textbox', { name: Strings.commentEditLabel }).fill('Payment stub was down');
    await page.getByTestId('comment').getByRole('button', { name: Strings.commentSave }).click();
    await expect.poll(() => page.getByTestId('comment').innerText()).toContain('Payment stub was down');
    await page.getByTestId('comment').getByRole('button', { name: Strings.commentDelete }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /Delete/ })
      .click();
    await expect.poll(() => page.getByTestId('comment').count()).toBe(0);
  });

  it('opens single scenario executions and scenario-report/{testCaseId}, and shows the server error for an unknown run', async () => {
    const time = new Date().toISOString();
    await ada.api.call(runnerCalls.uploadRun, {
      body: {
        projectId: ada.projectId,
        uploadKey: 'scenario-report-e2e',
        kind: 'scenario',
        report: {
          env: { name: 'default', baseUrl: 'http://127.0.0.1/' },
          startTime: time,
          endTime: time,
          mode: 'cloud',
          browser: 'chromium',
          viewport: { width: 1024, height: 768 },
          testCases: [
            {
              id: 'x',
              scenarioName: 'Empty one',
              featureName: 'f',
              uri: 'features/f.feature',
              tags: [],
              result: { status: 'PASSED', startTime: time, endTime: time },
              parameters: {},
              steps: [],
              env: { name: 'default', baseUrl: 'http://127.0.0.1/' },
              webLog: [],
              networkLog: [],
            },
          ],
        },
      },
    });
    await page.goto(`/${ada.projectId}/runs`);
    await r.rows().filter({ hasText: Strings.reportsTypeScenario }).first().click();
    await page.waitForURL(/\/run-report\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByText(Strings.emptySteps).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Empty one');

    const { run } = await ada.api.call(runsCalls.getRun, { query: { runId: failedRun } });
    await page.goto(`/${ada.projectId}/scenario-report/${run.report.testCases[1]!.id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Browse catalogue 1');
    expect(await r.selectedTab()).toBe(Strings.reportTabScreenshot);
    await expect.poll(() => page.getByTestId('screenshot').count()).toBe(1);

    await page.goto(`/${ada.projectId}/run-report/00000000-0000-4000-8000-000000000000`);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Run not found.');
    expect(await page.getByRole('button', { name: Strings.retry }).count()).toBe(1);
  });

  it('follows a running execution: provisioning until a scenario ends, then scenarios appear live', async () => {
    // No local workers here: the test is the worker (claim, upload with the job's key, finish),
    // so each step of the execution happens exactly when the test says.
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'live', data: '@live\nScenario: Live one\n  Given I open "/"\n' },
    });
    await ada.api.call(workspaceCalls.pushScenario, {
      body: { projectId: ada.projectId, name: 'live', data: '@live\nScenario: Live two\n  Given I open "/"\n' },
    });
    const { execution } = await ada.api.call(executionCalls.create, {
      body: {
        projectId: ada.projectId,
        name: 'Live run',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@live'] }] }],
      },
    });
    const worker = h.api((await h.test.services.workerTokens.create('reports e2e')).token);
    const claim = async () => (await worker.call(workerCalls.claim, { body: { workerId: 'e2e', waitMs: 0 } })).job!;
    const complete = async (job: WorkerJob) => {
      await seedRun(h.api(job.accessToken), ada.projectId, {
        name: 'Live run',
        steps: 2,
        commands: 1,
        png,
        scenarios: 1,
        scenarioName: job.scenarioName,
        appendTo: job.runId,
        uploadKey: job.jobId,
      });
      await worker.call(workerCalls.finish, { body: { workerId: 'e2e', jobId: job.jobId, outcome: 'passed' } });
    };
    const { runId } = await ada.api.call(executionCalls.run, { params: { id: execution.id } });

    await page.goto(`/${ada.projectId}/run-report/${runId}`);
    const overlay = page.getByTestId('provisioning-overlay');
    const live = page.getByTestId('run-live-status');
    await expect.poll(() => overlay.innerText()).toContain(Strings.provisioning);
    expect(await live.innerText()).toBe(Strings.reportRunning(0, 2));
    // The Scenarios card counts out of every scenario the execution will run.
    expect(await page.getByText('0 / 2 (0%)').count()).toBe(1);
    expect(await page.locator('[data-status="RUNNING"]').innerText()).toBe(Strings.statusRunning);
    await expectAccessible(page, 'run report, provisioning');
    if (shots) await page.screenshot({ path: '/tmp/reports-provisioning-1440.png' });

    // The first scenario ends: it appears without a reload and the overlay goes.
    await complete(await claim());
    await expect.poll(() => page.getByTestId('run-scenario').allInnerTexts()).toEqual([expect.stringContaining('Live one')]);
    expect(await overlay.count()).toBe(0);
    await expect.poll(() => live.innerText()).toBe(Strings.reportRunning(1, 2));
    if (shots) await page.screenshot({ path: '/tmp/reports-live-1440.png' });

    // The last one ends the execution: the live status goes and the run's own status shows.
    await complete(await claim());
    await expect.poll(() => page.getByTestId('run-scenario').count()).toBe(2);
    await expect.poll(() => live.count()).toBe(0);
    expect(await page.locator('[data-status]').first().getAttribute('data-status')).toBe('PASSED');
    expect(await page.locator('[data-status="RUNNING"]').count()).toBe(0);
  });

  it('shows the provisioning overlay at 1024×700 and leaves it when the execution is halted', async () => {
    const { executions } = await ada.api.call(executionCalls.list, { query: { projectId: ada.projectId } });
    const execution = executions.find((e) => e.name === 'Live run')!;
    const { runId } = await ada.api.call(executionCalls.run, { params: { id: execution.id } });
    const { context: small, page: p } = await h.open(ada, { width: 1024, height: 700 });
    try {
      await p.goto(`/${ada.projectId}/run-report/${runId}`);
      await expect.poll(() => p.getByTestId('provisioning-overlay').innerText()).toContain(Strings.provisioning);
      if (shots) await p.screenshot({ path: '/tmp/reports-provisioning-1024.png' });
      // Halting publishes the end: the page stops following without a reload.
      await ada.api.call(executionCalls.halt, { params: { id: execution.id } });
      await expect.poll(() => p.getByTestId('provisioning-overlay').count()).toBe(0);
      expect(await p.getByTestId('run-live-status').count()).toBe(0);
      await expect.poll(() => p.getByRole('heading', { level: 1 }).innerText()).toBe('Live run (stopped)');
      // The Status card (the first badge; previous results follow it) shows the halted run failed.
      expect(await p.locator('[data-status]').first().getAttribute('data-status')).toBe('FAILED');
    } finally {
      await small.close();
    }
  });

  it.skipIf(!shots)('captures the report screens', async () => {
    for (const size of SIZES) {
      const { context: c, page: p } = await h.open(ada, size);
      await p.goto(`/${ada.projectId}/runs`);
      await p.getByTestId('report-row').first().waitFor();
      await p.screenshot({ path: `/tmp/reports-list-${size.width}.png` });
      await p.goto(`/${ada.projectId}/run-report/${failedRun}`);
      await p.getByTestId('run-scenario').first().waitFor();
      await p.screenshot({ path: `/tmp/reports-run-${size.width}.png` });
      await p.getByTestId('run-scenario').first().click();
      await p.getByTestId('step').first().waitFor();
      await p.waitForTimeout(400);
      await p.screenshot({ path: `/tmp/reports-scenario-${size.width}.png` });
      await p.getByRole('tab', { name: Strings.reportTabScreenshot }).click();
      await p.getByTestId('screenshot').waitFor();
      await p.screenshot({ path: `/tmp/reports-screenshot-${size.width}.png` });
      await c.close();
    }
  });
  it('labels Previous results with the runs they are: the same-named runs, the scenario in them, a single scenario run on its own', async () => {
    const { runId: again } = await seedRun(ada.api, ada.projectId, { name: 'Nightly checkout', steps: 2, commands: 1, png, scenarios: 3 });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/${ada.projectId}/run-report/${again}`);
    const previous = page.getByTestId('previous-results');
    await expect
      .poll(() => previous.getByRole('heading').textContent())
      .toBe('Previous results in earlier runs named Nightly checkout, newest first:');
    // Only the earlier Nightly checkout, not Smoke catalogue (uploaded between them), linked to its report.
    const links = previous.getByRole('link');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe(`/${ada.projectId}/run-report/${failedRun}`);
    expect(await links.first().innerText()).toBe(Strings.statusFailed);
    await expectAccessible(page, 'run report with previous results');
    await screenshotAtSizes(page, 'run-report-previous');

    // One scenario of the run: its own results in those runs.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('link', { name: Strings.reportOpenScenario('Pay with a card') }).click();
    await expect
      .poll(() => previous.getByRole('heading').textContent())
      .toBe('Previous results of this scenario in earlier runs named Nightly checkout, newest first:');
    expect(await previous.getByRole('listitem').allInnerTexts()).toEqual([Strings.statusFailed]);

    // A single scenario run: the earlier single runs of that scenario.
    const single = async (uploadKey: string, status: 'PASSED' | 'FAILED') => {
      const time = new Date().toISOString();
      const result = { status, startTime: time, endTime: time };
      return (
        await ada.api.call(runnerCalls.uploadRun, {
          body: {
            projectId: ada.projectId,
            uploadKey,
            kind: 'scenario',
            report: {
              env: { name: 'default', baseUrl: 'http://127.0.0.1/' },
              startTime: time,
              endTime: time,
              mode: 'local',
              browser: 'chromium',
              viewport: { width: 1024, height: 768 },
              testCases: [
                {
                  id: uploadKey,
                  scenarioName: 'Alone',
                  featureName: 'f',
                  uri: 'features/f.feature',
                  tags: [],
                  result,
                  parameters: {},
                  steps: [],
                  env: { name: 'default', baseUrl: 'http://127.0.0.1/' },
                  webLog: [],
                  networkLog: [],
                },
              ],
            },
          },
        })
      ).runId;
    };
    const first = await single('previous-alone-1', 'FAILED');
    const second = await single('previous-alone-2', 'PASSED');
    await page.goto(`/${ada.projectId}/run-report/${second}`);
    await expect
      .poll(() => previous.getByRole('heading').textContent())
      .toBe('Previous results of scenario Alone run on its own, newest first:');
    expect(await previous.getByRole('link').getAttribute('href')).toBe(`/${ada.projectId}/run-report/${first}`);
    await expectAccessible(page, 'single scenario run with previous results');
    await screenshotAtSizes(page, 'scenario-report-previous');
  });
});
