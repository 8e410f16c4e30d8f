import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { executionCalls as calls, runsCalls, workspaceCalls as ws, type ExecutionStatus } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { executionFinished } from '../testing/execution-finished.js';

const RUNNER_BIN = fileURLToPath(new URL('../../../../packages/cli/bin/rehearse.mjs', import.meta.url));
const NEVER_SOLD = 'A tent this shop never sold';

/** Two scenarios whose names stay while their expectation changes between the two pushes. */
const feature = (first: string, second: string) => `Feature: Pinned

  @pinned
  Scenario: First product
    Given I open "/"
    Then I should see "${first}"

  @pinned
  Scenario: Second product
    Given I open "/"
    Then I should see "${second}"
`;

// A real worker (one thread, so both scenarios go through the same thread's cached workspace and
// kept Chromium) against a listening server.
describe('an execution runs the commit its branch had when it started', () => {
  let test: TestApp;
  let base: string;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    test = await startTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    try {
      if (worker?.pid && worker.exitCode === null) process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await test?.close();
  });

  it(
    'a commit pushed after run/{id} (scenarios and test data) is not what the worker runs; the next run takes it',
    { timeout: 300_000 },
    async () => {
      const user = await signUp(test, { email: 'pinned@acme.test' });
      const { projectId } = user;
      await user.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${base}/demo-shop/` } } });
      const push = (content: string) =>
        user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'pinned.feature', content } } });
      // The first scenario's product comes from test data, which is pinned with the commit too.
      const setProduct = (value: string) =>
        user.api.call(ws.changeTestData, {
          body: { projectId, testData: [{ key: 'product', value, DataType: 'string', environment: '*' }] },
        });
      await setProduct('Trail Backpack');
      await push(feature('{{product}}', 'Enamel Camp Mug'));
      const { execution } = await user.api.call(calls.create, {
        body: {
          projectId,
          name: 'Pinned',
          env: 'local',
          flows: [{ scenarioGroups: [{ name: 'All', threadCount: 1, tags: ['@pinned'] }] }],
        },
      });
      const finished = (): Promise<ExecutionStatus> => executionFinished(test, execution.id, 120_000);
      const stepTexts = async (runId: string) =>
        (await user.api.call(runsCalls.getRun, { query: { runId } })).run.report.testCases.flatMap((testCase) =>
          testCase.steps.map((step) => step.text),
        );

      // Started with no worker yet: then the branch moves on to scenarios that cannot pass.
      const { runId: pinnedRun } = await user.api.call(calls.run, { params: { id: execution.id } });
      await push(feature(NEVER_SOLD, NEVER_SOLD));
      await setProduct(NEVER_SOLD);

      const { token } = await test.services.workerTokens.create('pinned commit test');
      worker = spawn(process.execPath, [RUNNER_BIN, 'worker', '--server', base, '--threads', '1'], {
        env: { ...process.env, REHEARSE_WORKER_TOKEN: token, NO_COLOR: '1' },
        stdio: 'ignore',
        // Own process group, so the test can stop the worker and its thread at once.
        detached: true,
      });

      expect(await finished()).toMatchObject({ runId: pinnedRun, totalScenarios: 2, scenariosPassed: 2, scenariosFailed: 0 });
      const pinned = await stepTexts(pinnedRun);
      expect(pinned).toEqual(expect.arrayContaining(['I should see "{{product}}"', 'I should see "Enamel Camp Mug"']));
      expect(pinned.join('\n')).not.toContain(NEVER_SOLD);

      // The same thread, its cache holding the old commit, runs the next run at the new one.
      const { runId: nextRun } = await user.api.call(calls.run, { params: { id: execution.id } });
      expect(await finished()).toMatchObject({ runId: nextRun, totalScenarios: 2, scenariosPassed: 0, scenariosFailed: 2 });
      expect(await stepTexts(nextRun)).toContain(`I should see "${NEVER_SOLD}"`);
    },
  );
});
