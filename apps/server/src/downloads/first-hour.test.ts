import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { authCalls, workspaceCalls as ws } from '@rehearse/contract';
import { buildRunnerPackage } from '@rehearse/cli/pack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { freePort } from '../testing/ports.js';
import { exec, outsideMachine, start, type OutsideMachine, type Started } from './testing/outside-machine.js';

const REPO_LICENSE = new URL('../../../../LICENSE', import.meta.url);

const FEATURE = `Feature: Shop
  @smoke
  Scenario: The mug is listed
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  Scenario: A product the shop does not sell
    Given I open "/"
    Then I should see "Golden Teapot of Nowhere"
`;

/**
 * Issue 47, "A newcomer's first hour": what a person meets with the runner installed from the
 * server into a folder of their own (outside this checkout, a HOME of its own), in the order they
 * meet it: the package's licence, a profile of their own beside the pulled `cucumber.mjs`, the
 * package's README on plain cucumber-js, and `rehearse record` in a pulled folder and without a
 * terminal.
 */
describe("a newcomer's first hour with the runner installed from the server (issue 47)", () => {
  let test: TestApp;
  let serverUrl: string;
  let machine: OutsideMachine;
  let projectId: string;
  let token: string;
  let api: Awaited<ReturnType<typeof signUp>>['api'];

  beforeAll(async () => {
    // Cached by a hash of the sources: built once, not per test file or run.
    await buildRunnerPackage();
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    test = await startTestApp('pglite', { PUBLIC_URL: serverUrl });
    await test.app.listen({ host: '127.0.0.1', port });
    const user = await signUp(test, { email: 'newcomer@acme.test' });
    ({ projectId, api } = user);
    await api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
    await api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'shop.feature', content: FEATURE } } });
    ({
      accessKey: { token },
    } = await api.call(authCalls.createAccessKey, { body: { projectId, name: 'laptop' } }));
    machine = outsideMachine('rehearse-first-hour-');
    const installed = await exec(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', `${serverUrl}/downloads/rehearse-runner-latest.tgz`],
      { cwd: machine.work, env: machine.env },
    );
    expect(installed.code, installed.out).toBe(0);
  }, 300_000);
  afterAll(async () => {
    await test?.close();
    machine?.remove();
  });

  /** `npx rehearse …` in `cwd` with the project's access key, as the CI instructions set it. */
  const rehearse = (args: string[], cwd: string) =>
    exec('npx', ['rehearse', ...args], { cwd, env: { ...machine.env, REHEARSE_TOKEN: token } });

  /** A fresh folder `rehearse pull` fills, given only the server (the key names its project). */
  async function pulled(name: string): Promise<string> {
    const pull = await rehearse(['pull', '--server', serverUrl, '--dir', name], machine.work);
    expect(pull.code, pull.out).toBe(0);
    return path.join(machine.work, name);
  }

  /** Ends a recorder that is still running (its whole process group: npx, node and Chromium). */
  const stop = (recorder: Started) => {
    if (recorder.child.exitCode === null) process.kill(-recorder.child.pid!, 'SIGKILL');
  };

  it('serves a package a team may depend on: Apache-2.0 in its package.json, and the licence text beside it', async () => {
    const served = Buffer.from(await (await fetch(`${serverUrl}/downloads/rehearse-runner-latest.tgz`)).arrayBuffer());
    const unpacked = mkdtempSync(path.join(machine.root, 'tarball-'));
    writeFileSync(path.join(unpacked, 'runner.tgz'), served);
    const untar = await exec('tar', ['-xzf', 'runner.tgz'], { cwd: unpacked, env: machine.env });
    expect(untar.code, untar.out).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package', 'package.json'), 'utf8')) as { license: string };
    expect(manifest.license).toBe('Apache-2.0');
    const licence = readFileSync(path.join(unpacked, 'package', 'LICENSE'), 'utf8');
    expect(licence).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(licence).toBe(readFileSync(REPO_LICENSE, 'utf8'));
    // npm kept it in what it installed.
    expect(readFileSync(path.join(machine.work, 'node_modules', '@rehearse', 'runner', 'LICENSE'), 'utf8')).toBe(licence);
  });

  it(
    'lets a pulled workspace have profiles of its own: rehearse run and plain cucumber-js both take --profile',
    { timeout: 300_000 },
    async () => {
      const workspace = await pulled('profiles');
      // The pulled cucumber.mjs says how to add a profile; the person does as it says.
      const profileFile = path.join(workspace, 'cucumber.mjs');
      const example = /^\/\/\s+(export const smoke = .*)$/m.exec(readFileSync(profileFile, 'utf8'));
      expect(example, readFileSync(profileFile, 'utf8')).not.toBeNull();
      appendFileSync(profileFile, `\n${example![1]}\n`);

      const local = { ...machine.env, REHEARSE_HEADLESS: '1' };
      const run = await exec('npx', ['rehearse', 'run', '--env', 'environments/shop.json', '--headless', '--profile', 'smoke'], {
        cwd: workspace,
        env: local,
      });
      expect(run.out).toContain('1 scenario: 1 passed, 0 failed');
      expect(run.code).toBe(0);

      const plain = await exec('npx', ['cucumber-js', '--profile', 'smoke'], {
        cwd: workspace,
        env: { ...local, REHEARSE_ENV: 'environments/shop.json' },
      });
      expect(plain.out).toContain('1 scenario (1 passed)');
      expect(plain.code).toBe(0);
      // Rehearse's report came with the profile: the smoke scenario only.
      const report = JSON.parse(readFileSync(path.join(workspace, 'rehearse-report', 'report.json'), 'utf8')) as {
        testCases: Array<{ scenarioName: string; result: { status: string } }>;
      };
      expect(report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status])).toEqual([
        ['The mug is listed', 'PASSED'],
      ]);
      // Without --profile the default one runs every scenario (one fails on purpose): a test result, not a refused configuration.
      const all = await exec('npx', ['rehearse', 'run', '--env', 'environments/shop.json', '--headless'], { cwd: workspace, env: local });
      expect(all.out).toContain('2 scenarios: 1 passed, 1 failed');
      expect(all.code).toBe(1);

      // A workspace created before keeps its cucumber.mjs, which re-exports the profile: a named
      // profile beside that line works too (with plain cucumber-js, after the default one).
      writeFileSync(profileFile, `export { default } from '@rehearse/runner/profile';\nexport const smoke = { tags: '@smoke' };\n`);
      const older = await exec('npx', ['rehearse', 'run', '--env', 'environments/shop.json', '--headless', '--profile', 'smoke'], {
        cwd: workspace,
        env: local,
      });
      expect(older.out).toContain('1 scenario: 1 passed, 0 failed');
      expect(older.code).toBe(0);
      const olderPlain = await exec('npx', ['cucumber-js', '--profile', 'default', '--profile', 'smoke'], {
        cwd: workspace,
        env: { ...local, REHEARSE_ENV: 'environments/shop.json' },
      });
      expect(olderPlain.out).toContain('1 scenario (1 passed)');
      expect(olderPlain.code).toBe(0);
    },
  );

  it(
    "runs a cucumber-js project of one's own on Rehearse's steps with the command the installed README gives",
    { timeout: 300_000 },
    async () => {
      const readme = readFileSync(path.join(machine.work, 'node_modules', '@rehearse', 'runner', 'README.md'), 'utf8');
      const command = readme
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line.startsWith('npx cucumber-js --import'));
      expect(command, readme).toBeDefined();
      // A project of the person's own where npm installed the runner: a built-in step and one of
      // theirs that uses context.web (the same runtime instance as the support code's).
      const project = machine.work;
      mkdirSync(path.join(project, 'features', 'step_definitions'), { recursive: true });
      mkdirSync(path.join(project, 'environments'), { recursive: true });
      writeFileSync(
        path.join(project, 'environments', 'default.json'),
        JSON.stringify({ name: 'default', baseUrl: `${serverUrl}/demo-shop/` }),
      );
      writeFileSync(
        path.join(project, 'features', 'own.feature'),
        'Feature: Own\n  Scenario: The shop greets\n    Given I open "/"\n    Then the shop lists "Enamel Camp Mug"\n',
      );
      writeFileSync(
        path.join(project, 'features', 'step_definitions', 'own.mjs'),
        `import { Then } from '@cucumber/cucumber';
import { context } from '@rehearse/runner';

Then('the shop lists {string}', async function (name) {
  await context.web.verifyText(name, {}, {}, this);
});
`,
      );
      const plain = await exec('bash', ['-c', command!], { cwd: project, env: { ...machine.env, REHEARSE_HEADLESS: '1' } });
      expect(plain.out).toContain('1 scenario (1 passed)');
      expect(plain.code).toBe(0);
    },
  );

  it(
    'records in a pulled folder for the server and project it was pulled from, with no --server or --project',
    { timeout: 300_000 },
    async () => {
      const workspace = await pulled('recording');
      const recorder = start('npx', ['rehearse', 'record', '--env', 'shop', '--headless'], {
        cwd: workspace,
        env: { ...machine.env, REHEARSE_TOKEN: token },
      });
      try {
        await recorder.waitFor(`Recording ${serverUrl}/demo-shop/`, 240_000);
        expect(recorder.output()).not.toContain('localhost:4000');
      } finally {
        stop(recorder);
      }
    },
  );

  it('keeps recording when standard input ends (no terminal), and publishes nothing for it', { timeout: 300_000 }, async () => {
    const recorder = start(
      'npx',
      [
        'rehearse',
        'record',
        '--server',
        serverUrl,
        '--env',
        'shop',
        '--headless',
        '--feature',
        'Without a terminal',
        '--scenario',
        'Not published',
      ],
      { cwd: machine.work, env: { ...machine.env, REHEARSE_TOKEN: token } },
    );
    // As `< /dev/null` or a CI shell: the input is over before the recorder opens.
    recorder.child.stdin.end();
    try {
      await recorder.waitFor('Standard input ended: publish from the recorder panel in the page, or close the browser window.', 240_000);
      // Still recording a while later: nothing was published, nothing failed.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(recorder.child.exitCode, recorder.output()).toBeNull();
      expect(recorder.output()).not.toContain('Published');
      expect(recorder.output()).not.toContain('publishing failed');
    } finally {
      stop(recorder);
    }
    const { features } = await api.call(ws.getFeatureList, { body: { projectId } });
    expect(features.map((feature) => feature.featureName)).not.toContain('Without a terminal');
  });
});
