import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Messages, scenarioJobCalls, SocketPaths, workspaceCalls as ws, type LiveStep, type ScenarioJob } from '@rehearse/contract';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished, runScenarioToEnd } from '../testing/scenario-job.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

type User = Awaited<ReturnType<typeof signUp>>;

/**
 * Step code that reports what it sees: the cookies of its browser context, what an earlier
 * scenario of the same process left in its globals, its own version, and the server's secrets
 * it must not reach (a file under DATA_DIR, the server's environment, a job's token).
 */
const STEPS = (version: string) => `import { readFileSync } from 'node:fs';
import { Then, When } from '@cucumber/cucumber';

When('the page sets the cookie {string}', async function (cookie) {
  await this.page.evaluate((text) => { document.cookie = text + '; path=/'; }, cookie);
  const names = (await this.browserContext.cookies()).map((c) => c.name);
  if (!names.includes(cookie.split('=')[0])) throw new Error('the page could not set its cookie');
  globalThis.warmScenarios = (globalThis.warmScenarios ?? 0) + 1;
});

Then('the page has no cookie {string}', async function (name) {
  const names = (await this.browserContext.cookies()).map((c) => c.name);
  if (names.includes(name)) throw new Error('the cookie of the earlier scenario is still there');
  if (!globalThis.warmScenarios) throw new Error('another process: nothing of the earlier scenario is left in this one');
});

Then('the step code is version {string}', function (wanted) {
  if (wanted !== '${version}') throw new Error('step code version ${version} ran');
});

Then('nothing of another project is here', function () {
  if (globalThis.warmScenarios) throw new Error('this process ran another project before');
});

Then('step code looks for the server secrets in {string}', function (file) {
  let read;
  try {
    read = readFileSync(file, 'utf8');
  } catch (error) {
    read = 'unreadable ' + error.code;
  }
  const env = Object.keys(process.env).filter((name) => /CANARY|SECRET_KEY|DATABASE_URL|REHEARSE_TOKEN/.test(name));
  throw new Error('SEEN ' + JSON.stringify({ read, env }));
});
`;

const FEATURE = (secretFile: string) => `Feature: Warm

  Scenario: Sets a cookie
    Given I open "/"
    When the page sets the cookie "warm=1"

  Scenario: Sees no cookie
    Given I open "/"
    Then the page has no cookie "warm"

  Scenario: Reads the step version
    Then the step code is version "2"

  Scenario: Attacks the server
    Then step code looks for the server secrets in "${secretFile}"
`;

const serverDir = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

describe('"Run scenario" on warm runners', () => {
  let test: TestApp;
  let alice: User;
  let bob: User;
  // DATA_DIR inside the runner's code (apps/server is one of its roots): only the sandbox's rule hides it.
  const dataDir = path.join(serverDir, `.warm-test-data-${randomBytes(4).toString('hex')}`);
  const secretFile = path.join(dataDir, 'canary.txt');

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(secretFile, 'the server secret');
    process.env.REHEARSE_WARM_CANARY = 'the server secret';
    test = await startTestApp('pglite', { WORKER_PROCESSES: '1', DATA_DIR: dataDir, WARM_RUNNERS: 'true' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const shop = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}/demo-shop/`;
    alice = await signUp(test, { email: 'alice-warm@acme.test' });
    bob = await signUp(test, { email: 'bob-warm@acme.test' });
    for (const user of [alice, bob]) {
      const { projectId } = user;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: shop } } });
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features/step_definitions', file: { name: 'warm.mjs', content: STEPS('1') } },
      });
    }
    await alice.api.call(ws.pushFile, {
      body: { projectId: alice.projectId, directory: 'features', file: { name: 'warm.feature', content: FEATURE(secretFile) } },
    });
    await bob.api.call(ws.pushFile, {
      body: {
        projectId: bob.projectId,
        directory: 'features',
        file: { name: 'alone.feature', content: 'Feature: Alone\n\n  Scenario: Alone\n    Then nothing of another project is here\n' },
      },
    });
  });
  afterAll(async () => {
    await test?.close();
    delete process.env.REHEARSE_WARM_CANARY;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (user: User, featureName: string, scenarioName: string): Promise<ScenarioJob> =>
    runScenarioToEnd(user.api, { projectId: user.projectId, featureName, scenarioName, environment: 'local' });
  const runnersOf = (projectId: string) => test.services.warmRunners!.list().filter((runner) => runner.projectId === projectId);

  it('runs two scenarios back to back in one runner, each in its own browser context', { timeout: 240_000 }, async () => {
    expect(await run(alice, 'warm', 'Sets a cookie')).toMatchObject({ state: 'passed', message: null });
    const [first] = runnersOf(alice.projectId);
    expect(first).toMatchObject({ runs: 1, busy: false });
    // The same process (its globals remember the first scenario) and a fresh context (no cookie).
    expect(await run(alice, 'warm', 'Sees no cookie')).toMatchObject({ state: 'passed', message: null });
    expect(runnersOf(alice.projectId)).toEqual([{ ...first, runs: 2 }]);
  });

  it('never serves another project from a runner', { timeout: 240_000 }, async () => {
    const passed = await run(bob, 'alone', 'Alone');
    expect([passed.state, passed.message]).toEqual(['passed', null]);
    const [alices] = runnersOf(alice.projectId);
    const [bobs] = runnersOf(bob.projectId);
    expect(bobs!.pid).not.toBe(alices!.pid);
    expect(alices!.runs).toBe(2);
  });

  it('hides DATA_DIR, the server environment and job tokens from step code in a warm runner', { timeout: 240_000 }, async () => {
    const attacked = await run(alice, 'warm', 'Attacks the server');
    expect(attacked.state).toBe('failed');
    const seen = JSON.parse(/SEEN (\{.*\})/.exec(attacked.message ?? '')![1]!) as { read: string; env: string[] };
    expect(seen.read).toMatch(/^unreadable ENOENT/);
    expect(seen.env).toEqual([]);
  });

  it('serves a new commit from a fresh runner that sees the changed step code', { timeout: 240_000 }, async () => {
    const before = await run(alice, 'warm', 'Reads the step version');
    expect([before.state, before.message]).toEqual(['failed', 'Reads the step version: step code version 1 ran']);
    const [old] = runnersOf(alice.projectId);
    await alice.api.call(ws.pushFile, {
      body: { projectId: alice.projectId, directory: 'features/step_definitions', file: { name: 'warm.mjs', content: STEPS('2') } },
    });
    const after = await run(alice, 'warm', 'Reads the step version');
    expect([after.state, after.message]).toEqual(['passed', null]);
    const now = runnersOf(alice.projectId);
    expect(now).toHaveLength(1);
    expect(now[0]!.pid).not.toBe(old!.pid);
    expect(now[0]!.commit).not.toBe(old!.commit);
  });

  it(
    'starts a runner when a scenario page opens, so the first click takes it warm, and tells the page each step as it runs',
    { timeout: 240_000 },
    async () => {
      const carol = await signUp(test, { email: 'carol-warm@acme.test' });
      const { projectId } = carol;
      await carol.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: 'http://127.0.0.1:9/' } } });
      const feature = [
        'Feature: Page',
        '',
        '  Scenario: Three steps',
        '    Given the URL should contain ""',
        '    Then the title should be "not this one"',
        '    And the URL should contain ""',
        '',
      ].join('\n');
      await carol.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'page.feature', content: feature } } });
      const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
      const socket = io(base, { path: SocketPaths[0], auth: { token: carol.token }, transports: ['websocket'], reconnection: false });
      const heard: LiveStep[] = [];
      socket.on('scenario_job_step', (event: { projectId: string; step: LiveStep }) => {
        if (event.projectId === projectId) heard.push(event.step);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        expect(await socket.emitWithAck('joinProject', { projectId })).toEqual({ status: true });
        const warmUp = () => carol.api.call(scenarioJobCalls.warmUp, { body: { projectId } });
        expect(await warmUp()).toEqual({ status: true, runner: 'starting' });
        // The page opened twice (a second tab): still one runner.
        expect((await warmUp()).runner).toMatch(/^(starting|ready)$/);
        await expect.poll(async () => (await warmUp()).runner, { timeout: 120_000, interval: 500 }).toBe('ready');
        const [warmed] = runnersOf(projectId);
        expect(warmed).toMatchObject({ runs: 0, busy: false });
        const job = await runScenarioToEnd(carol.api, {
          projectId,
          featureName: 'page',
          scenarioName: 'Three steps',
          environment: 'local',
        });
        expect(job.state).toBe('failed');
        expect(runnersOf(projectId)).toEqual([{ ...warmed, runs: 1 }]);
        // Each step started, then ended, in order; the one after the failure is skipped.
        await expect.poll(() => heard.length).toBe(6);
        // An ended step carries the page its last command left (a PNG); a starting one carries none.
        // The failed step's page is the same blank page, sent once already (the page keeps showing it);
        // the skipped step took none.
        expect(heard.filter((step) => step.status !== 'running').map((step) => step.screenshot?.slice(0, 11))).toEqual([
          'iVBORw0KGgo',
          undefined,
          undefined,
        ]);
        expect(heard.filter((step) => step.status === 'running' && step.screenshot)).toEqual([]);
        expect(heard.map((step) => [step.index, step.count, step.keyword, step.text, step.status])).toEqual([
          [0, 3, 'Given', 'the URL should contain ""', 'running'],
          [0, 3, 'Given', 'the URL should contain ""', 'passed'],
          [1, 3, 'Then', 'the title should be "not this one"', 'running'],
          [1, 3, 'Then', 'the title should be "not this one"', 'failed'],
          [2, 3, 'And', 'the URL should contain ""', 'running'],
          [2, 3, 'And', 'the URL should contain ""', 'skipped'],
        ]);
        // Another project's member cannot warm this one.
        await expect(alice.api.call(scenarioJobCalls.warmUp, { body: { projectId } })).rejects.toMatchObject({ httpStatus: 403 });
      } finally {
        socket.disconnect();
      }
    },
  );
});

/** An After hook that never ends (cucumber's own hook timeout switched off), as step code can be written. */
const HANGING_HOOK = `import { After } from '@cucumber/cucumber';

After({ tags: '@hangs', timeout: -1 }, function () {
  return new Promise(() => {
    setInterval(() => undefined, 1000);
  });
});
`;

describe('a warm runner past the job deadline', () => {
  let test: TestApp;
  let user: User;

  beforeAll(async () => {
    // One attempt: the deadline's error is the job's end. 60 s leave room for a cold start on a busy machine.
    test = await startTestApp('pglite', { WORKER_PROCESSES: '1', RUN_TIMEOUT_MINUTES: '1', JOB_ATTEMPTS: '1', WARM_RUNNERS: 'true' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (test.app.server.address() as AddressInfo).port;
    user = await signUp(test, { email: 'hang-warm@acme.test' });
    const { projectId } = user;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `http://127.0.0.1:${port}/demo-shop/` } } });
    await user.api.call(ws.pushFile, {
      body: {
        projectId,
        directory: 'features',
        file: {
          name: 'hang.feature',
          content:
            'Feature: Hang\n\n  Scenario: Warms\n    Given I open "/"\n\n  @hangs\n  Scenario: Never cleans up\n    Given I open "/"\n',
        },
      },
    });
    await user.api.call(ws.pushFile, {
      body: { projectId, directory: 'features/step_definitions', file: { name: 'hang.mjs', content: HANGING_HOOK } },
    });
  });
  afterAll(async () => test?.close());

  it('is killed at the deadline and the job ends as an error, not a failed scenario', { timeout: 240_000 }, async () => {
    const { job: warming } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId: user.projectId, featureName: 'hang', scenarioName: 'Warms', environment: 'local' },
    });
    expect((await jobFinished(user.api, warming.id)).state).toBe('passed');
    const [warm] = test.services.warmRunners!.list();
    const started = Date.now();
    const { job } = await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId: user.projectId, featureName: 'hang', scenarioName: 'Never cleans up', environment: 'local' },
    });
    const hung = await jobFinished(user.api, job.id);
    expect([hung.state, hung.message]).toEqual(['error', Messages.jobDeadlinePassed('1 minute')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55_000);
    // The warm runner that hung is gone, its whole process tree with it.
    expect(test.services.warmRunners!.list().map((runner) => runner.pid)).not.toContain(warm!.pid);
    expect(() => process.kill(warm!.pid!, 0)).toThrow();
  });
});
