import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApiClient, type ApiClient } from '@rehearse/api-client';
import { authCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, outsideMachine, type OutsideMachine } from '../downloads/testing/outside-machine.js';
import { buildImage, canRunContainers, podman, removeContainers, runToEnd, waitForHealthy } from '../testing/containers.js';
import { freePort } from '../testing/ports.js';
import { runScenarioToEnd } from '../testing/scenario-job.js';

// Issue 42, "Must show": the image, built here from scratch without a registry (deploy/image/build.sh),
// runs as it ships with only the privilege docs/deploy.md names (a /proc bubblewrap may mount). A
// stranger signs up, runs a demo-shop scenario through "Run scenario" (its job sandboxed inside the
// container), and step code trying to read the server's DATA_DIR finds nothing there. The runner
// package installs from the container's /downloads into a folder of its own and runs a feature.

const NAME = `rehearse-image-test-${process.pid}`;
const PASSWORD = 'correct horse battery staple';

const FEATURE = `Feature: Shop in a container
  Scenario: The mug is listed
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  Scenario: A product the shop does not sell
    Given I open "/"
    Then I should see "Golden Teapot of Nowhere"

  Scenario: Reach for the server's data
    Given I reach for the server's data
`;

/** Step code from the stranger: tries DATA_DIR (/data) and reports what it got in its failure. */
const ATTACK = `import { Given } from '@cucumber/cucumber';
import fs from 'node:fs';
const got = (fn) => { try { return 'GOT ' + String(fn()).slice(0, 80); } catch (error) { return error.code ?? error.message; } };
Given("I reach for the server's data", function () {
  const results = {
    listData: got(() => fs.readdirSync('/data').join(',')),
    secretKey: got(() => fs.readFileSync('/data/secret.key', 'utf8')),
    writeData: got(() => fs.writeFileSync('/data/pwned.txt', 'x')),
    serverEnvironment: got(() => fs.readFileSync('/proc/1/environ', 'latin1')),
    // The runner's own code is there to run, read-only.
    writeCode: got(() => fs.writeFileSync('/app/packages/runner/package.json', '{}')),
  };
  throw new Error('ATTEMPTS ' + JSON.stringify(results));
});
`;

describe.skipIf(!canRunContainers() && !process.env.CI)('the image, built offline and run as it ships', () => {
  let base: string;
  let api: ApiClient;
  let projectId: string;
  let machine: OutsideMachine | undefined;
  let image: string;

  beforeAll(async () => {
    image = await buildImage();
    const port = await freePort();
    await removeContainers(NAME);
    await podman(['run', '--detach', '--name', NAME, '--security-opt', 'unmask=/proc/*', '--publish', `127.0.0.1:${port}:4000`, image]);
    base = `http://127.0.0.1:${port}`;
    const tookMs = await waitForHealthy(`${base}/api/health`, 60_000, () => podman(['logs', NAME]));
    console.log(`image started to /api/health in ${(tookMs / 1000).toFixed(1)} s`);
  }, 20 * 60_000);

  afterAll(async () => {
    machine?.remove();
    await removeContainers(NAME);
  });

  it('runs as its unprivileged user, healthy, with the server, scheduler and workers in one process', async () => {
    expect(await podman(['exec', NAME, 'id', '-u'])).toBe('10001');
    // The image's own HEALTHCHECK, run as the engine runs it.
    await podman(['healthcheck', 'run', NAME]);
    const health = (await (await fetch(`${base}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: true, database: 'pglite', install: 'server' });
    // Production dependencies only: no test runner, no type checker in the image.
    const modules = await podman(['exec', NAME, 'ls', '/app/node_modules']);
    expect(modules.split('\n')).not.toContain('vitest');
    expect(modules.split('\n')).not.toContain('typescript');
  });

  it('signs a stranger up and runs the demo shop through Run scenario, sandboxed inside the container', { timeout: 300_000 }, async () => {
    const signedUp = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'stranger@elsewhere.test', password: PASSWORD, firstname: 'Stan', lastname: 'Ranger' },
    });
    api = createApiClient({ baseUrl: base, getToken: () => signedUp.token });
    projectId = signedUp.project._id;
    // The shop as the job reaches it: the server's own address inside the container.
    await api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: 'http://127.0.0.1:4000/demo-shop/' } } });
    await api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'shop.feature', content: FEATURE } } });
    await api.call(ws.pushFile, {
      body: { projectId, directory: 'features/step_definitions', file: { name: 'reach.mjs', content: ATTACK } },
    });
    const run = (scenarioName: string) => runScenarioToEnd(api, { projectId, featureName: 'shop', scenarioName, environment: 'local' });

    const listed = await run('The mug is listed');
    expect([listed.state, listed.message]).toEqual(['passed', null]);
    // A scenario the shop cannot satisfy fails inside the container too, and says why.
    const missing = await run('A product the shop does not sell');
    expect(missing.state).toBe('failed');
    expect(missing.message).toContain('Golden Teapot of Nowhere');
  });

  it("keeps the stranger's step code away from the server's DATA_DIR", { timeout: 300_000 }, async () => {
    // The data is there for the server: the attack aims at real files.
    expect((await podman(['exec', NAME, 'ls', '/data'])).split('\n')).toContain('secret.key');
    const done = await runScenarioToEnd(api, {
      projectId,
      featureName: 'shop',
      scenarioName: "Reach for the server's data",
      environment: 'local',
    });
    expect(done.state).toBe('failed');
    const attempts = JSON.parse(/ATTEMPTS (\{.*\})/.exec(done.message ?? '')?.[1] ?? 'null') as Record<string, string> | null;
    expect(attempts).toEqual({
      listData: 'ENOENT',
      secretKey: 'ENOENT',
      writeData: 'ENOENT',
      // The job's pid 1 is its own sandbox, whose environment is empty of the server's.
      serverEnvironment: expect.not.stringMatching(/REHEARSE_|DATA_DIR/),
      writeCode: 'EROFS',
    });
    expect((await podman(['exec', NAME, 'ls', '/data'])).split('\n')).not.toContain('pwned.txt');
  });

  it(
    "installs the runner from the container's /downloads into a fresh folder and runs a feature with it",
    { timeout: 300_000 },
    async () => {
      machine = outsideMachine('rehearse-image-runner-');
      const install = await exec(
        'npm',
        ['install', '--no-save', '--no-audit', '--no-fund', `${base}/downloads/rehearse-runner-latest.tgz`],
        {
          cwd: machine.work,
          env: machine.env,
        },
      );
      expect(install.code, install.out).toBe(0);
      writeFileSync(path.join(machine.work, 'env.json'), JSON.stringify({ name: 'container', baseUrl: `${base}/demo-shop/` }));
      const features = path.join(machine.work, 'features');
      await exec('mkdir', ['-p', features], { cwd: machine.work, env: machine.env });
      writeFileSync(path.join(features, 'shop.feature'), FEATURE.split('\n\n  Scenario: Reach')[0]!);
      const run = await exec('npx', ['rehearse', 'run', '--env', 'env.json', '--headless', '--out', 'report', 'features/shop.feature'], {
        cwd: machine.work,
        env: machine.env,
      });
      expect(run.out).toContain('2 scenarios: 1 passed, 1 failed');
      expect(run.code).toBe(1);
      expect(readFileSync(path.join(machine.work, 'report', 'report.json'), 'utf8')).toContain('Enamel Camp Mug');
    },
  );

  it.each([
    [['-e', 'REHEARSE_WORKER_TOKEN=rhw_short'], /REHEARSE_WORKER_TOKEN.*must be rhw_ followed by at least 32/],
    [['-e', 'REHEARSE_JOB_LIMITS=pods'], /REHEARSE_JOB_LIMITS must be one of cgroup, container, not "pods"/],
    [['-e', 'REHEARSE_ROLES=api,web'], /REHEARSE_ROLES.*must be a comma list of api, scheduler, workers \(not web\)/],
    [['-e', 'WORKER_LEASE_SECONDS=soon'], /WORKER_LEASE_SECONDS/],
  ])('stops at once with the sentence naming a bad setting (%s)', { timeout: 60_000 }, async (settings, sentence) => {
    const { code, output } = await runToEnd(['--security-opt', 'unmask=/proc/*', ...settings, image]);
    expect(code).toBe(1);
    expect(output).toMatch(sentence);
  });

  it('stops a worker container with the sentence naming a bad --threads', { timeout: 60_000 }, async () => {
    const { code, output } = await runToEnd([
      '--security-opt',
      'unmask=/proc/*',
      '-e',
      `REHEARSE_WORKER_TOKEN=rhw_${'a'.repeat(32)}`,
      image,
      ...['node', 'packages/cli/bin/rehearse.mjs', 'worker', '--server', 'http://api:4000', '--threads', 'lots'],
    ]);
    expect(code).not.toBe(0);
    expect(output).toContain('--threads must be a whole number from 1 to 64 (got "lots")');
  });
});
