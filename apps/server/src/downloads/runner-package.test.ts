import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { authCalls, downloadCalls, executionCalls, recorderCalls, runsCalls, workspaceCalls as ws } from '@rehearse/contract';
import { PANEL_LABELS } from '@rehearse/recorder';
import { buildRunnerPackage, type BuiltPackage } from '@rehearse/cli/pack';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { parse as parseYaml } from 'yaml';
import { executionFinished } from '../testing/execution-finished.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { BROWSER_INSTALL_PREFIX } from '../executions/run-instructions.js';
import { freePort } from '../testing/ports.js';
import { BROWSERS, exec, outsideMachine, sharedNpmCache, start, type Started } from './testing/outside-machine.js';
import { TODO_STEPS } from '../../../../packages/runner/src/testing/todo-suite.js';

const FEATURE = `Feature: Shop
  Scenario: The mug is listed
    Given I open "/"
    Then the shop lists "Enamel Camp Mug"

  Scenario: A product the shop does not sell
    Given I open "/"
    Then I should see "Golden Teapot of Nowhere"
`;

/**
 * The todo app through the runner's built-in steps and reusable steps made of them (a `.steps`
 * file, no code), as `packages/runner/src/testing/todo-suite.ts` writes its suite.
 */
const TODO_FEATURE = `Feature: Todos
  @todos
  Scenario: Add two todos
    Given I open "/"
    When I add the todos "buy some cheese" and "feed the cat"
    Then the "todo" items should be:
      | buy some cheese |
      | feed the cat    |

  @todos
  Scenario: Finish a todo
    Given I open "/"
    When I add the todo "feed the cat"
    And I check "feed the cat"
    Then "feed the cat" should be checked
    And the item containing "feed the cat" should have the class "completed"
    And I should see "0 items left"
`;

/** A step definition as generated code writes them: it imports the runner and cucumber, nothing else. */
const STEPS = `import { Then } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

Then('the shop lists {string}', async function (name) {
  await context.web.verifyText(name, {}, {}, this);
});
`;

describe('the runner package, installed from the server (issue 18)', () => {
  let test: TestApp;
  let serverUrl: string;
  let built: BuiltPackage;
  const folders: string[] = [];

  beforeAll(async () => {
    // Cached by a hash of the sources: built once, not per test file or run.
    built = await buildRunnerPackage();
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    test = await startTestApp('pglite', { PUBLIC_URL: serverUrl });
    await test.app.listen({ host: '127.0.0.1', port });
  }, 300_000);
  afterAll(async () => {
    await test?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /**
   * The launch command as the page shows it, run by bash on a machine with nothing installed. Only
   * --headless (no display here) and a DevTools port (this test is the person at the window) are
   * added. `drive` gets the recorded page (the one under `pagePath`) once the recorder says it records.
   */
  async function recordThroughLaunch(
    command: string,
    prefix: string,
    pagePath: string,
    drive: (page: Page, recorder: Started, debugPort: number) => Promise<void>,
  ) {
    const machine = outsideMachine(prefix);
    folders.push(machine.root);
    const debugPort = await freePort();
    const recorder = start('bash', ['-c', `${command} --headless --debug-port ${debugPort}`], { cwd: machine.work, env: machine.env });
    try {
      await recorder.waitFor('Recording ', 480_000);
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
      const page = browser
        .contexts()
        .flatMap((context) => context.pages())
        .find((candidate) => candidate.url().includes(pagePath));
      expect(page).toBeDefined();
      await drive(page!, recorder, debugPort);
      await browser.close().catch(() => undefined);
    } finally {
      if (recorder.child.exitCode === null) process.kill(-recorder.child.pid!, 'SIGKILL');
    }
    return { machine, recorder };
  }

  it('serves the tarball by version and as latest, says which versions do not exist, and lists it in latestAssets', async () => {
    expect(built.bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    const latest = await fetch(`${serverUrl}/downloads/rehearse-runner-latest.tgz`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-type')).toBe('application/gzip');
    expect(latest.headers.get('cache-control')).toBe('no-cache');
    const bytes = Buffer.from(await latest.arrayBuffer());
    expect(bytes.equals(readFileSync(built.tarball))).toBe(true);
    const versioned = await fetch(`${serverUrl}/downloads/rehearse-runner-${built.version}.tgz`);
    expect([versioned.status, Buffer.from(await versioned.arrayBuffer()).length]).toEqual([200, bytes.length]);

    for (const bad of [
      'rehearse-runner-9.9.9.tgz',
      'rehearse-runner-..%2F..%2Fpackage.json.tgz',
      'build.json',
      'rehearse-runner-latest.zip',
    ]) {
      const answer = await fetch(`${serverUrl}/downloads/${bad}`);
      expect([bad, answer.status]).toEqual([bad, 404]);
      expect(((await answer.json()) as { error: string }).error).toBe(
        'This server has no runner package of that version. Install rehearse-runner-latest.tgz, the version this server speaks.',
      );
    }

    const release = await test.client().call(downloadCalls.latestAssets, {});
    expect(release.tag_name).toBe(`v${built.version}`);
    expect(release.assets).toEqual([
      {
        name: `rehearse-runner-${built.version}.tgz`,
        browser_download_url: `${serverUrl}/downloads/rehearse-runner-${built.version}.tgz`,
        content_type: 'application/gzip',
        size: bytes.length,
      },
    ]);
  });

  it(
    'runs the shell instructions verbatim in an empty folder: install from the server, pull, run, upload; then plain cucumber-js agrees',
    { timeout: 600_000 },
    async () => {
      const user = await signUp(test, { email: 'ci@acme.test' });
      const projectId = user.projectId;
      // An environment not named default, and no default one to fall back on.
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'staging', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
      const { allEnv } = await user.api.call(ws.getEnvList, { body: { projectId } });
      for (const env of allEnv.filter((entry) => entry.name !== 'staging.json')) {
        await user.api.call(ws.deleteEnv, { body: { projectId, name: env.name.replace(/\.json$/, '') } });
      }
      await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'shop.feature', content: FEATURE } } });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features/step_definitions', file: { name: 'shop.mjs', content: STEPS } },
      });
      const { accessKey } = await user.api.call(authCalls.createAccessKey, { body: { projectId, name: 'CI key' } });

      const answer = await user.api.call(executionCalls.runInstructions, { query: { projectId, env: 'staging' } });
      expect([answer.env, answer.environments]).toEqual(['staging', ['staging']]);
      const shell = answer.instructions.find((item) => item.id === 'shell')!.content;
      expect(shell).toContain(`npm install --no-save --no-audit --no-fund ${serverUrl}/downloads/rehearse-runner-latest.tgz`);
      expect(shell).toContain(`--server ${serverUrl} --project ${projectId}`);
      expect(shell).toContain('--env environments/staging.json');
      expect(shell).not.toContain(accessKey.token);

      const folder = mkdtempSync('/tmp/rehearse-ci-');
      folders.push(folder);
      const home = path.join(folder, 'home');
      mkdirSync(home);
      // Verbatim but for the browser download: this machine's browsers are named instead (BROWSERS).
      const script = shell
        .split('\n')
        .filter((line) => !line.startsWith(BROWSER_INSTALL_PREFIX))
        .join('\n');
      expect(script.split('\n').length).toBe(shell.split('\n').length - 1);
      const ci = path.join(folder, 'ci');
      mkdirSync(ci);
      writeFileSync(path.join(folder, 'ci.sh'), script);
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        npm_config_cache: sharedNpmCache(),
        CI: 'true',
        ...BROWSERS,
        REHEARSE_TOKEN: accessKey.token,
      };
      const run = await exec('bash', [path.join(folder, 'ci.sh')], { cwd: ci, env });
      // One scenario fails, so the run (and `set -e` with it) exits 1 after uploading.
      expect(run.out).toContain('2 scenarios: 1 passed, 1 failed');
      expect(run.out).toMatch(/Report link: http:\/\/127\.0\.0\.1:\d+\//);
      expect(run.code).toBe(1);
      expect(run.out).not.toContain('warning: this runner is version');
      expect(readFileSync(path.join(ci, 'rehearse-report', 'junit.xml'), 'utf8')).toContain('<testsuite');

      const listed = await user.api.call(runsCalls.getDetails, { body: { projectId } });
      expect(listed.projectSummary.report).toHaveLength(1);
      expect(listed.projectSummary.report[0]).toMatchObject({
        status: 'FAILED',
        totalScenarios: 2,
        totalScenariosPassed: 1,
        env: { name: 'staging' },
      });

      // The installed runner keeps a Playwright trace of the failed scenario only (trace
      // retain-on-failure by default): beside the report, and uploaded for Open trace.
      const local = JSON.parse(readFileSync(path.join(ci, 'rehearse-report', 'report.json'), 'utf8')) as {
        testCases: Array<{ scenarioName: string; traceFileId?: string }>;
      };
      const traced = local.testCases.filter((testCase) => testCase.traceFileId);
      expect(traced.map((testCase) => testCase.scenarioName)).toEqual(['A product the shop does not sell']);
      const localZip = readFileSync(path.join(ci, 'rehearse-report', 'artifacts', `${traced[0]!.traceFileId}.zip`));
      const { run: stored } = await user.api.call(runsCalls.getRun, { query: { runId: listed.projectSummary.report[0]!.id } });
      const failedCase = stored.report.testCases.find((testCase) => testCase.result.status === 'FAILED')!;
      expect(failedCase.traceFileId).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.report.testCases.find((testCase) => testCase.result.status === 'PASSED')!.traceFileId).toBeUndefined();
      const { filePath } = await user.api.call(runsCalls.traceLink, { query: { testCaseId: failedCase.id } });
      const served = Buffer.from(await (await fetch(`${serverUrl}${filePath}`)).arrayBuffer());
      expect(served.equals(localZip)).toBe(true);
      // A zip (PK) holding Playwright's trace events, with the failed step's text in them.
      expect(served.subarray(0, 2).toString()).toBe('PK');
      const entries = unzipSync(new Uint8Array(served));
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(['trace.trace', 'trace.network']));
      expect(strFromU8(entries['trace.trace']!)).toContain('Golden Teapot of Nowhere');

      // No lock-in: the pulled workspace runs on upstream cucumber-js with the installed runtime.
      const workspace = path.join(ci, 'rehearse-workspace');
      expect(readFileSync(path.join(workspace, 'cucumber.mjs'), 'utf8')).toContain("from '@rehearse/runner/profile'");
      const plain = await exec('npx', ['cucumber-js'], {
        cwd: workspace,
        env: { ...env, REHEARSE_TOKEN: '', REHEARSE_ENV: 'environments/staging.json' },
      });
      expect(plain.out).toContain('2 scenarios (1 failed, 1 passed)');
      expect(plain.code).toBe(1);
      const report = JSON.parse(readFileSync(path.join(workspace, 'rehearse-report', 'report.json'), 'utf8')) as {
        env: { name: string };
        testCases: Array<{ result: { status: string } }>;
      };
      expect([report.env.name, report.testCases.map((testCase) => testCase.result.status).sort()]).toEqual([
        'staging',
        ['FAILED', 'PASSED'],
      ]);
    },
  );

  it(
    'runs an execution on a worker installed from the server in a fresh folder: sandboxed, one warm runner per thread and run, generated step code included',
    { timeout: 600_000 },
    async () => {
      const user = await signUp(test, { email: 'worker-machine@acme.test' });
      const projectId = user.projectId;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features', file: { name: 'shop.feature', content: `@machine\n${FEATURE}` } },
      });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features/step_definitions', file: { name: 'shop.mjs', content: STEPS } },
      });
      const machine = outsideMachine('rehearse-worker-');
      folders.push(machine.root);
      const installed = await exec(
        'npm',
        ['install', '--no-save', '--no-audit', '--no-fund', `${serverUrl}/downloads/rehearse-runner-latest.tgz`],
        { cwd: machine.work, env: machine.env },
      );
      expect(installed.code, installed.out).toBe(0);
      const { token } = await test.services.workerTokens.create('a machine of its own');
      const startWorker = () =>
        start('npx', ['rehearse', 'worker', '--server', serverUrl, '--threads', '2'], {
          cwd: machine.work,
          env: { ...machine.env, REHEARSE_WORKER_TOKEN: token },
        });
      // Installed under a folder only its owner may enter (as root's own home is): the sandboxed
      // job user could not reach the runner, so the worker refuses to start and says what to do.
      const refused = startWorker();
      expect(await refused.exited, refused.output()).toBe(2);
      expect(refused.output()).toContain(
        `job users cannot reach the runner's files: ${machine.root} lets no other user enter it (mode 700). Install the runner under a folder every user may enter (for example /opt/rehearse-worker), or let others enter that folder (chmod o+x ${machine.root})`,
      );
      chmodSync(machine.root, 0o755);
      const worker = startWorker();
      try {
        await worker.waitFor('is taking scenarios from', 120_000);
        const { execution } = await user.api.call(executionCalls.create, {
          body: {
            projectId,
            name: 'On a worker machine',
            env: 'shop',
            flows: [{ scenarioGroups: [{ name: 'All', threadCount: 2, tags: ['@machine'] }] }],
          },
        });
        const { runId } = await user.api.call(executionCalls.run, { params: { id: execution.id } });
        const status = await executionFinished(test, execution.id, 240_000);
        // One scenario passes, the other fails on its own assertion: a test result, never an error.
        const messages = await test.database.rows<{ message: string | null }>(
          `select j.message from execution_jobs j join execution_runs r on r.id = j.execution_run_id where r.run_id = '${runId}'`,
        );
        expect(status, `${worker.output()}\n${JSON.stringify(messages)}`).toMatchObject({
          running: false,
          totalScenarios: 2,
          scenariosPassed: 1,
          scenariosFailed: 1,
          scenariosErrored: 0,
        });
        const { run } = await user.api.call(runsCalls.getRun, { query: { runId } });
        expect(run.report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status]).sort()).toEqual([
          ['A product the shop does not sell', 'FAILED'],
          ['The mug is listed', 'PASSED'],
        ]);
        // Each thread ran its scenario on a warm runner from the installed package, in the sandbox.
        expect(worker.output()).not.toContain('without the sandbox');

        // A second run, on an app not built for the runner (the todo app: no test ids, unlabelled
        // row checkboxes, hash routes): a runner of the first run never serves it; each thread binds
        // the spare it started when the first run ended (or a fresh runner, had that one not been ready).
        await user.api.call(ws.pushEnv, { body: { projectId, name: 'todos', data: { baseUrl: `${serverUrl}/todo-app/` } } });
        await user.api.call(ws.pushFile, {
          body: { projectId, directory: 'features', file: { name: 'todos.feature', content: TODO_FEATURE } },
        });
        await user.api.call(ws.pushFile, {
          body: { projectId, directory: 'features/steps', file: { name: 'todos.steps', content: TODO_STEPS } },
        });
        const { execution: todos } = await user.api.call(executionCalls.create, {
          body: {
            projectId,
            name: 'Todos on a worker machine',
            env: 'todos',
            flows: [{ scenarioGroups: [{ name: 'All', threadCount: 2, tags: ['@todos'] }] }],
          },
        });
        const { runId: todosRunId } = await user.api.call(executionCalls.run, { params: { id: todos.id } });
        const todosStatus = await executionFinished(test, todos.id, 240_000);
        const todosRun = await user.api.call(runsCalls.getRun, { query: { runId: todosRunId } });
        expect(
          [todosStatus, todosRun.run.report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status]).sort()],
          worker.output(),
        ).toMatchObject([
          { running: false, totalScenarios: 2, scenariosPassed: 2, scenariosErrored: 0 },
          [
            ['Add two todos', 'PASSED'],
            ['Finish a todo', 'PASSED'],
          ],
        ]);
      } finally {
        if (worker.child.exitCode === null) process.kill(-worker.child.pid!, 'SIGKILL');
      }
    },
  );

  it('writes GitHub and GitLab templates that are YAML, keep the report and publish JUnit where the CI shows it', async () => {
    const user = await signUp(test, { email: 'yaml@acme.test' });
    const projectId = user.projectId;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'qa', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
    // A hostile scenario name: it must stay one shell word and valid YAML.
    const scenario = `It's "quoted" $(touch /tmp/pwned) #not a comment: really`;
    const answer = await user.api.call(executionCalls.runInstructions, {
      query: { projectId, env: 'qa', branch: 'main', feature: 'shop', scenario },
    });
    const text = (id: string) => answer.instructions.find((item) => item.id === id)!.content;

    const github = parseYaml(text('github')) as {
      jobs: {
        e2e: { env: Record<string, string>; steps: Array<{ uses?: string; run?: string; if?: string; with?: Record<string, unknown> }> };
      };
    };
    const job = github.jobs.e2e;
    expect(job.env.REHEARSE_TOKEN).toBe('${{ secrets.REHEARSE_TOKEN }}');
    const runs = job.steps.flatMap((step) => (step.run ? [step.run] : []));
    expect(runs[0]).toBe(`npm install --no-save --no-audit --no-fund ${serverUrl}/downloads/rehearse-runner-latest.tgz`);
    expect(runs[1]).toMatch(/^npx playwright-core@\d+\.\d+\.\d+ install --with-deps chromium$/);
    expect(runs[2]).toBe(`npx rehearse pull --server ${serverUrl} --project ${projectId} --branch main --dir rehearse-workspace`);
    expect(runs[3]).toBe(
      `cd rehearse-workspace && npx rehearse run --server ${serverUrl} --project ${projectId} --branch main --env environments/qa.json --headless --out ../rehearse-report --scenario 'It'\\''s "quoted" $(touch /tmp/pwned) #not a comment: really' features/shop.feature`,
    );
    const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: 'rehearse-report' } });
    const summary = job.steps.find((step) => step.uses?.startsWith('test-summary/action'));
    expect(summary).toMatchObject({ if: 'always()', with: { paths: 'rehearse-report/junit.xml' } });

    const gitlab = parseYaml(text('gitlab')) as {
      'rehearse-e2e': { script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } };
    };
    const gitlabJob = gitlab['rehearse-e2e'];
    expect(gitlabJob.script).toEqual(runs);
    expect(gitlabJob.artifacts).toEqual({ when: 'always', paths: ['rehearse-report/'], reports: { junit: 'rehearse-report/junit.xml' } });

    // The shell text passes the name to rehearse as one argument, unexpanded.
    const line = text('shell')
      .split('\n')
      .find((entry) => entry.startsWith('cd rehearse-workspace'))!;
    const echoed = await exec('bash', ['-c', line.replace(/^cd rehearse-workspace && npx rehearse run/, 'printf "%s\\n"')], {
      cwd: '/tmp',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(echoed.out.split('\n')).toContain(scenario);

    // Never a made-up environment: without a pick the project's first, and an unknown one is refused.
    const unpicked = await user.api.call(executionCalls.runInstructions, { query: { projectId } });
    expect(unpicked.env).toBe(unpicked.environments[0]);
    const refused = await fetch(`${serverUrl}/api/executions/run-instructions?projectId=${projectId}&env=nope`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([
      400,
      'The project has no environment of that name at this branch: pick one of its environments.',
    ]);
  });

  it(
    'records from the launch command: the rehearse it installs opens the recorder, a click in the page is recorded and the panel publishes it',
    { timeout: 600_000 },
    async () => {
      const user = await signUp(test, { email: 'laptop@acme.test' });
      const projectId = user.projectId;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
      const launch = await user.api.call(recorderCalls.localLaunch, {
        body: { projectId, operation: 'recorder', env: 'shop', featureName: 'Launched', scenarioName: 'Open sign in' },
      });
      const token = /^REHEARSE_TOKEN=(\S+) /.exec(launch.command)![1]!;

      const { machine, recorder } = await recordThroughLaunch(
        launch.command,
        'rehearse-launch-',
        '/demo-shop/',
        async (page, recorder, debugPort) => {
          expect(recorder.output()).toContain(`DevTools endpoint: http://127.0.0.1:${debugPort}`);
          await page.getByRole('link', { name: 'Sign in' }).click();
          await page.getByLabel('Email').waitFor();
          const panel = page.locator('#rehearse-recorder-panel').getByRole('complementary', { name: PANEL_LABELS.title });
          const steps = () => panel.getByRole('list', { name: PANEL_LABELS.steps }).getByRole('listitem').allTextContents();
          await expect.poll(steps, { timeout: 30_000 }).toEqual(['Open /', 'Click “Sign in”']);
          // The launch named the feature and scenario; the panel offers them.
          expect([
            await panel.getByLabel(PANEL_LABELS.featureName).inputValue(),
            await panel.getByLabel(PANEL_LABELS.scenarioName).inputValue(),
          ]).toEqual(['Launched', 'Open sign in']);
          await panel.getByRole('button', { name: PANEL_LABELS.publish, exact: true }).click();
          await recorder.waitFor('Published "Open sign in" to feature "Launched"', 60_000);
          expect(await recorder.exited).toBe(0);
        },
      );
      expect(recorder.output()).not.toContain(token);
      expect(recorder.output()).not.toContain('warning: this runner is version');

      const { features } = await user.api.call(ws.getFeatureList, { body: { projectId } });
      const scenario = features.find((feature) => feature.featureName === 'Launched')?.scenarios[0];
      expect(scenario?.name).toBe('Open sign in');
      expect(scenario?.content).toContain('When I click on "Sign in" link');
      // npx kept the package in this machine's own HOME, not in the folder the user stood in.
      expect(readdirSync(machine.work)).toEqual([]);
    },
  );

  it(
    'records on an app not built for it (the todo app: no test ids, unlabelled row checkboxes, hash routes, a delete button shown on hover) with Checked, Count and URL assertions, and the installed runner replays the recording green',
    { timeout: 600_000 },
    async () => {
      const user = await signUp(test, { email: 'todos@acme.test' });
      const projectId = user.projectId;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'todos', data: { baseUrl: `${serverUrl}/todo-app/` } } });
      const launch = await user.api.call(recorderCalls.localLaunch, {
        body: { projectId, operation: 'recorder', env: 'todos', featureName: 'Todos', scenarioName: 'Finish a todo' },
      });
      const token = /^REHEARSE_TOKEN=(\S+) /.exec(launch.command)![1]!;
      const tarball = / --package (\S+) /.exec(launch.command)![1]!;

      let recorded: string[] = [];
      const { machine, recorder } = await recordThroughLaunch(launch.command, 'rehearse-todos-', '/todo-app/', async (page, recorder) => {
        // As a person would: type two todos, tick the second one's box in its row, show the active ones.
        const field = page.getByPlaceholder('What needs to be done?');
        await field.fill('buy some cheese');
        await field.press('Enter');
        await field.fill('feed the cat');
        await field.press('Enter');
        await page.getByRole('listitem').filter({ hasText: 'feed the cat' }).getByRole('checkbox').check();
        const panel = page.locator('#rehearse-recorder-panel').getByRole('complementary', { name: PANEL_LABELS.title });
        const steps = () => panel.getByRole('list', { name: PANEL_LABELS.steps }).getByRole('listitem').allTextContents();
        // Steps reach the panel a moment after the page acts: each assertion first waits for the
        // steps recorded before it (reading the count at once raced them in CI: 3 of 6 shown).
        const assertion = async (label: string, stepsBefore: number, then?: () => Promise<void>) => {
          await expect.poll(async () => (await steps()).length, { timeout: 30_000 }).toBe(stepsBefore);
          await panel.getByRole('button', { name: label, exact: true }).click();
          await then?.();
          await expect.poll(async () => (await steps()).length, { timeout: 30_000 }).toBe(stepsBefore + 1);
        };
        // Checked and Count from the panel, then the row's "×" that shows on hover, then the Active route.
        await assertion(PANEL_LABELS.assertChecked, 6, () => page.getByText('feed the cat', { exact: true }).click());
        await assertion(PANEL_LABELS.assertCount, 7, () => page.getByText('buy some cheese', { exact: true }).click());
        const cheese = page.getByRole('listitem').filter({ has: page.getByText('buy some cheese', { exact: true }) });
        await cheese.hover();
        await cheese.getByRole('button', { name: '×' }).click();
        await page.getByRole('link', { name: 'Active' }).click();
        await page.waitForURL(/#\/active$/);
        await assertion(PANEL_LABELS.assertUrl, 11);
        await expect.poll(async () => (await steps()).length, { timeout: 30_000 }).toBe(12);
        recorded = await steps();
        await panel.getByRole('button', { name: PANEL_LABELS.publish, exact: true }).click();
        await recorder.waitFor('Published "Finish a todo" to feature "Todos"', 60_000);
        expect(await recorder.exited).toBe(0);
      });
      // Steps as a person would say them: the row's checkbox by the todo it ticks.
      expect(recorded).toEqual([
        'Open /',
        'Fill “What needs to be done?” with “buy some cheese”',
        'Press Enter in “What needs to be done?”',
        'Fill “What needs to be done?” with “feed the cat”',
        'Press Enter in “What needs to be done?”',
        'Check “feed the cat”',
        '“feed the cat” is checked',
        'See 2 “todo” items',
        'Hover over “buy some cheese”',
        'Click “×”',
        'Click “Active”',
        'URL contains “#/active”',
      ]);
      expect(recorder.output()).not.toContain(token);

      // The same machine pulls and runs what it recorded with the rehearse npx installed there.
      const rehearse = (args: string[], cwd: string) =>
        exec('npx', ['--yes', '--package', tarball, 'rehearse', ...args], { cwd, env: { ...machine.env, REHEARSE_TOKEN: token } });
      const pulled = await rehearse(['pull', '--server', serverUrl, '--project', projectId, '--dir', 'ws'], machine.work);
      expect(pulled.code, pulled.out).toBe(0);
      const replay = await rehearse(
        [
          'run',
          '--server',
          serverUrl,
          '--project',
          projectId,
          '--env',
          'environments/todos.json',
          '--headless',
          '--scenario',
          'Finish a todo',
        ],
        path.join(machine.work, 'ws'),
      );
      expect(replay.out).toContain('1 scenario: 1 passed, 0 failed');
      expect(replay.code).toBe(0);
      // The installed runner kept cucumber's messages with the run, naming its screenshots; the HTML
      // report the server renders from them has the todo app's screenshots back in it.
      const { projectSummary } = await user.api.call(runsCalls.getDetails, { body: { projectId } });
      const { run } = await user.api.call(runsCalls.getRun, { query: { runId: projectSummary.report[0]!.id } });
      const replayed = run.report.testCases[0]!;
      const report = await user.api.call(runsCalls.runScreenshot, {
        params: { runId: run.id, testCaseId: replayed.id, screenshotId: replayed.reportFiles!.messages! },
      });
      const html = Buffer.from(report.image, 'base64').toString('utf8');
      expect(report.contentType).toBe('text/html');
      expect(html).toContain('"name":"Finish a todo"');
      expect(html).toContain('"mediaType":"image/png","fileName"');
      expect(html).toContain('"body":"iVBORw0KGgo');
      expect(html).not.toContain('rehearse-artifact:');
      const { features } = await user.api.call(ws.getFeatureList, { body: { projectId } });
      const scenario = features.find((feature) => feature.featureName === 'Todos')?.scenarios[0];
      expect(
        scenario?.content
          .trim()
          .split('\n')
          .map((line) => line.trim()),
      ).toEqual([
        '@recorder',
        'Scenario: Finish a todo',
        'Given I open "/"',
        'When I fill in "What needs to be done?" with "buy some cheese"',
        'And I press "Enter" in "What needs to be done?"',
        'And I fill in "What needs to be done?" with "feed the cat"',
        'And I press "Enter" in "What needs to be done?"',
        'And I check "feed the cat" checkbox',
        'Then "feed the cat" checkbox should be checked',
        'And I should see 2 "todo" items',
        'When I hover over "buy some cheese" item',
        'And I click on "×" button in the item containing "buy some cheese"',
        'And I click on "Active" link',
        'Then the URL should contain "#/active"',
      ]);
      // The row's checkbox is found by its todo's text before any position in the list.
      const locators = JSON.parse(
        readFileSync(path.join(machine.work, 'ws', 'features', 'step_definitions', 'locators', 'home.json'), 'utf8'),
      ) as Record<string, { name: string; locators: Array<{ kind: string; value?: string }> }>;
      const box = Object.values(locators).find((element) => element.name === 'feed the cat')!;
      expect(box.locators.map((locator) => locator.kind)).toEqual(['css', 'css']);
      expect(box.locators[0]!.value).toMatch(/^xpath=.*"feed the cat"/);
    },
  );

  it(
    'registers the link handler with the setup command as the page shows it, and xdg-open hands the launch link to the installed rehearse',
    { timeout: 600_000 },
    async () => {
      const hasXdgOpen =
        (await exec('sh', ['-c', 'command -v xdg-open'], { cwd: '/tmp', env: { PATH: process.env.PATH ?? '' } })).code === 0;
      if (!hasXdgOpen) return;
      const user = await signUp(test, { email: 'desktop@acme.test' });
      const projectId = user.projectId;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
      const launch = await user.api.call(recorderCalls.localLaunch, { body: { projectId, operation: 'recorder', env: 'shop' } });

      // A global install into this machine's own prefix (as a user without root sets npm's prefix).
      const machine = outsideMachine('rehearse-desktop-');
      folders.push(machine.root);
      const prefix = path.join(machine.home, '.npm-global');
      // npm's global config lives under its prefix: keep this machine's (its registry settings) while moving the prefix.
      const globalconfig = (await exec('npm', ['config', 'get', 'globalconfig'], { cwd: machine.work, env: machine.env })).out.trim();
      const env = {
        ...machine.env,
        npm_config_prefix: prefix,
        npm_config_globalconfig: globalconfig,
        PATH: `${path.join(prefix, 'bin')}:${machine.env.PATH}`,
      };
      const setup = await exec('timeout', ['300', 'bash', '-c', launch.setupCommand], { cwd: machine.work, env });
      expect(setup.code, setup.out).toBe(0);
      expect(setup.out).toContain(`for rehearse:// links to ${serverUrl}.`);
      const entry = readFileSync(path.join(machine.home, '.local', 'share', 'applications', 'rehearse-recorder.desktop'), 'utf8');
      expect(entry).toContain(`${prefix}/lib/node_modules/@rehearse/runner/bin/rehearse.mjs open --allow-server ${serverUrl} %u`);

      // The desktop opens the page's link (no desktop session here: xdg-open's generic path, which
      // needs only a display name). The handler reads the server, environment and launch key from
      // it and gets as far as the window, which this machine without a display cannot show.
      const opened = await exec('timeout', ['120', 'xdg-open', launch.deepLink], { cwd: machine.work, env: { ...env, DISPLAY: ':99' } });
      expect(opened.out).toContain(
        `Opening the recorder: rehearse record --server ${serverUrl} --env shop --project ${projectId} --branch main`,
      );
      expect(opened.out).not.toContain(launch.command.split(' ')[0]!.slice('REHEARSE_TOKEN='.length));
      expect(opened.out).toContain(
        'rehearse record: the browser did not start: there is no display for its window here (run it in a desktop session, or add --headless).',
      );
      // A link for another server is refused before anything runs.
      const foreign = launch.deepLink.replace(encodeURIComponent(serverUrl), encodeURIComponent('https://evil.example'));
      const refused = await exec('xdg-open', [foreign], { cwd: machine.work, env: { ...env, DISPLAY: ':99' } });
      expect(refused.out).toContain("which is not one of this handler's servers");
    },
  );
});
