import { executionCalls, workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

// Found by bench/worker-agents-at-scale.ts: running an execution of 10,000 scenarios answered 500,
// its jobs written in one insert past PostgreSQL's 65,535 parameters a statement. 7,000 scenarios
// (over 130,000 parameters in one statement) now start, every one a job.

const FILES = 7;
const SCENARIOS_PER_FILE = 1000;

function bigFeature(file: number): string {
  const scenarios = Array.from(
    { length: SCENARIOS_PER_FILE },
    (_, index) => `  Scenario: Shopper ${file}-${index}\n    Given I open "/"\n`,
  ).join('\n');
  return `@big\nFeature: Big ${file}\n\n${scenarios}`;
}

describe.each(testBackends())('an execution of thousands of scenarios on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend);
  });
  afterAll(async () => test?.close());

  it('starts with a job for each of 7,000 scenarios, and halts', { timeout: 120_000 }, async () => {
    const user = await signUp(test);
    const { projectId } = user;
    for (let file = 0; file < FILES; file++)
      await user.api.call(ws.pushFile, {
        body: { projectId, directory: 'features', file: { name: `big-${file}.feature`, content: bigFeature(file) } },
      });
    const { execution } = await user.api.call(executionCalls.create, {
      body: {
        projectId,
        name: 'Everything',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'All', threadCount: 2, tags: ['@big'] }] }],
      },
    });
    const { runId } = await user.api.call(executionCalls.run, { params: { id: execution.id } });
    expect(runId).toBeTruthy();
    const status = await test.services.engine.status(execution.id);
    expect(status).toMatchObject({ running: true, totalScenarios: FILES * SCENARIOS_PER_FILE });
    await user.api.call(executionCalls.halt, { params: { id: execution.id } });
    expect((await test.services.engine.status(execution.id)).running).toBe(false);
  });
});
