import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '@rehearse/api-client';
import { adminCalls, authCalls, executionCalls, runsCalls, workspaceCalls as ws, type RunExecution } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, outsideMachine, type OutsideMachine } from '../downloads/testing/outside-machine.js';
import {
  buildImage,
  buildPostgresImage,
  canRunContainers,
  CONTAINER_START_MS,
  podman,
  podmanEnv,
  removeContainers,
  runToEnd,
  waitForHealthy,
} from '../testing/containers.js';
import { freePort } from '../testing/ports.js';
import { runScenarioToEnd } from '../testing/scenario-job.js';

// One file for both container suites: they share one image build, and vitest's other worker goes
// on with the rest of the tests meanwhile instead of waiting on the same build.

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
    const tookMs = await waitForHealthy(`${base}/api/health`, CONTAINER_START_MS, () => podman(['logs', NAME]));
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

// Issue 42, "Must show": the team install in one file (deploy/compose.yaml) run with podman-compose:
// PostgreSQL, one API, one scheduler and two worker containers. An execution of 2 flows × 3 threads
// over 12 scenarios runs to the end while one worker container is killed mid-run: the killed
// worker's scenarios go back to the queue when their lease lapses and run on the other worker,
// every scenario exactly once, and the one scenario the shop cannot satisfy fails.

const COMPOSE_FILE = fileURLToPath(new URL('../../../../deploy/compose.yaml', import.meta.url));
const PROJECT = `rehearse-compose-${process.pid}`;

/** Six scenarios per flow; "Golden Teapot" is not in the shop, so exactly one fails. */
function feature(tag: string, count: number, failing: boolean): string {
  const scenarios = Array.from({ length: count }, (_, index) => {
    const last = index === count - 1 && failing;
    return `  Scenario: ${tag} shopper ${index + 1}
    Given I open "/"
    Then I should see "${last ? 'Golden Teapot of Nowhere' : 'Enamel Camp Mug'}"
    When I click "Add Enamel Camp Mug to cart"
    Then I should see "Added Enamel Camp Mug"
`;
  });
  return `@${tag}\nFeature: Shoppers ${tag}\n\n${scenarios.join('\n')}`;
}

function compose(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'podman-compose',
      ['-p', PROJECT, '-f', COMPOSE_FILE, ...args],
      { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`podman-compose ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

const container = (service: string) => `${PROJECT}_${service}_1`;

describe.skipIf(!canRunContainers() && !process.env.CI)('the compose install: PostgreSQL, API, scheduler, two workers', () => {
  let env: NodeJS.ProcessEnv;
  let base: string;
  let api: ApiClient;

  beforeAll(async () => {
    const [image, postgres] = await Promise.all([buildImage(), buildPostgresImage()]);
    const port = await freePort();
    env = {
      ...podmanEnv(),
      REHEARSE_IMAGE: image,
      POSTGRES_IMAGE: postgres,
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      REHEARSE_SECRET_KEY: randomBytes(32).toString('hex'),
      REHEARSE_WORKER_TOKEN: `rhw_${randomBytes(16).toString('hex')}`,
      REHEARSE_PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Podman's narrower form of the one privilege the sandbox needs.
      REHEARSE_PROC_OPTION: 'unmask=/proc/*',
      // A killed worker's scenarios come back after 10 s instead of 30.
      WORKER_LEASE_SECONDS: '10',
    };
    await compose(['up', '-d'], env);
    base = `http://127.0.0.1:${port}`;
    // The API may start before PostgreSQL accepts connections; its restart policy brings it back.
    const tookMs = await waitForHealthy(`${base}/api/health`, CONTAINER_START_MS, () => podman(['logs', '--tail', '60', container('api')]));
    console.log(`compose's api answered /api/health in ${(tookMs / 1000).toFixed(1)} s`);
  }, 20 * 60_000);

  afterAll(async () => {
    if (env) await compose(['down', '--volumes', '--timeout', '2'], env).catch(() => undefined);
    await podman(['network', 'rm', '--force', `${PROJECT}_default`]).catch(() => undefined);
  });

  it('runs 2 flows × 3 threads over 12 scenarios to the end while one worker container is killed', { timeout: 600_000 }, async () => {
    const health = (await (await fetch(`${base}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: true, database: 'postgres' });
    const signedUp = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'lead@team.test', password: 'correct horse battery staple', firstname: 'Lee', lastname: 'Lead' },
    });
    api = createApiClient({ baseUrl: base, getToken: () => signedUp.token });
    const projectId = signedUp.project._id;
    // The first user administers the instance: six threads for 2 flows × 3 (a project starts with 2).
    await api.call(adminCalls.updateProject, { params: { projectId }, body: { maxExecutionThreads: 6 } });
    // The shop as the workers reach it: the API container on the compose network.
    await api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: 'http://api:4000/demo-shop/' } } });
    await api.call(ws.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'a.feature', content: feature('a', 6, false) } },
    });
    await api.call(ws.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'b.feature', content: feature('b', 6, true) } },
    });

    const { execution } = await api.call(executionCalls.create, {
      body: {
        projectId,
        name: 'Nightly on the team install',
        env: 'local',
        flows: [
          { scenarioGroups: [{ name: 'Flow A', threadCount: 3, tags: ['@a'] }] },
          { scenarioGroups: [{ name: 'Flow B', threadCount: 3, tags: ['@b'] }] },
        ],
      },
    });
    const { runId } = await api.call(executionCalls.run, { params: { id: execution.id } });
    const progress = async (): Promise<RunExecution | null> =>
      (await api.call(runsCalls.getRun, { query: { runId } })).run.execution ?? null;

    // Kill worker 1 while it holds scenarios: the agents list shows its threads busy.
    const workerOneHost = await podman(['inspect', '--format', '{{.Config.Hostname}}', container('worker-1')]);
    const deadline = Date.now() + 300_000;
    let busyThreads = 0;
    while (busyThreads === 0) {
      if (Date.now() > deadline) throw new Error(`worker 1 never took a scenario: ${JSON.stringify(await progress())}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { agents } = await api.call(adminCalls.listWorkers);
      busyThreads = agents.find((agent) => agent.host === workerOneHost)?.busyThreads ?? 0;
    }
    let status = await progress();
    expect(status?.running).toBe(true);
    await podman(['kill', '--signal', 'KILL', container('worker-1')]);
    // Stopped by hand, so the restart policy leaves it down.
    await podman(['stop', '--time', '0', container('worker-1')]).catch(() => undefined);

    while (status?.running !== false) {
      if (Date.now() > deadline) throw new Error(`the execution did not finish: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await progress();
    }
    expect(status).toMatchObject({ totalScenarios: 12, scenariosPassed: 11, scenariosFailed: 1, scenariosErrored: 0 });

    const { run } = await api.call(runsCalls.getRun, { query: { runId } });
    const names = run.report.testCases.map((testCase) => testCase.scenarioName).sort();
    // Every scenario exactly once: none lost with the killed worker, none reported twice.
    expect(names).toEqual(['a', 'b'].flatMap((tag) => Array.from({ length: 6 }, (_, index) => `${tag} shopper ${index + 1}`)).sort());
    const failed = run.report.testCases.filter((testCase) => testCase.result.status === 'FAILED');
    expect(failed.map((testCase) => testCase.scenarioName)).toEqual(['b shopper 6']);
    // The killed worker is gone; the other one finished the run.
    expect(await podman(['inspect', '--format', '{{.State.Running}}', container('worker-1')])).toBe('false');
    expect(await podman(['inspect', '--format', '{{.State.Running}}', container('worker-2')])).toBe('true');
  });
});
