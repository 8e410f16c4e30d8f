import { workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

/** A feature file with `count` scenarios of three steps each. */
export function generatedFeature(name: string, count: number, offset = 0): string {
  const scenarios = Array.from(
    { length: count },
    (_, i) => `  @generated @batch${(offset + i) % 7}
  Scenario: ${name} case ${offset + i}
    Given I open "/demo-shop/"
    When I fill "Search products" with "item ${offset + i}"
    Then I should see "item ${offset + i}"
`,
  );
  return `Feature: ${name}\n\n${scenarios.join('\n')}`;
}

describe('a workspace with 10,000 scenarios', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  it('stores, lists and counts every scenario and keeps answering after an edit', { timeout: 240_000 }, async () => {
    const user = await signUp(test, { email: 'large@acme.test' });
    const projectId = user.projectId;
    const session = { kind: 'session' as const, user: user.user, tokenHash: '' };
    const access = await test.services.access.authorize(session, { from: 'body', field: 'p' }, projectId);
    const workspace = await test.services.workspaces.open(session, access);
    // 100 files of 100 scenarios, written as one commit (a bulk import), then read through the API.
    await test.services.workspaces.write(workspace, async () => ({
      changes: Array.from({ length: 100 }, (_, f) => ({
        path: `features/area${f}.feature`,
        content: generatedFeature(`Area ${f}`, 100, f * 100),
      })),
      message: '[app:import] 10,000 scenarios',
      result: {},
    }));

    const started = performance.now();
    const list = await user.api.call(ws.getFeatureList, { body: { projectId } });
    const cold = performance.now() - started;
    expect(list.features).toHaveLength(100);
    expect(list.features.reduce((sum, f) => sum + f.scenarios.length, 0)).toBe(10_000);
    expect(list.allTags).toEqual(['@batch0', '@batch1', '@batch2', '@batch3', '@batch4', '@batch5', '@batch6', '@generated']);
    expect(await user.api.call(ws.featuresCount, { body: { projectId } })).toEqual({ status: true, count: 100, scenarios: 10_000 });

    const steps = await user.api.call(ws.storeAndGetSteps, { query: { projectId }, body: {} });
    expect(steps.steps).toHaveLength(30_000);
    expect(steps.steps.every((step) => step.implemented)).toBe(true);

    await user.api.call(ws.renameScenario, {
      body: { projectId, featureName: 'area42', scenarioIndex: 3, newName: 'Renamed in a big workspace' },
    });
    const warmStart = performance.now();
    const after = await user.api.call(ws.getFeatureList, { body: { projectId } });
    const warm = performance.now() - warmStart;
    expect(after.features.find((f) => f.name === 'area42.feature')!.scenarios[3]!.name).toBe('Renamed in a big workspace');
    // Figures for the log, not assertions: speed is measured by `npm run bench`.
    console.info(`10,000 scenarios: first listing ${cold.toFixed(0)} ms, listing after one edit ${warm.toFixed(0)} ms`);
  });
});
