import { aiCalls, runnerCalls, workspaceCalls, type RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { applyLocatorChanges } from './oversight.service.js';

const FILE = 'features/step_definitions/locators/cart.json';
const LOCATORS = `${JSON.stringify({ buy: { name: 'Buy', locators: [{ kind: 'css', value: '#buy' }] }, other: { name: 'Other', locators: [] } }, null, 2)}\n`;
const NEW = [{ kind: 'role', role: 'button', name: 'Add to bag', exact: true }];

/** A report as `rehearse run --heal` uploads it: one scenario fixed by AI, one plainly failed. */
function healedReport(status: 'FIXED_BY_AI' | 'FAILED', file = FILE): RunReport {
  const time = new Date().toISOString();
  const passed = { status: 'PASSED' as const, startTime: time, endTime: time };
  const command = {
    type: 'click_element',
    element_name: 'Buy',
    healing: {
      classification: 'locator' as const,
      healed: true,
      confidence: 0.84,
      reason: 'healed',
      element: 'Buy',
      source: { file, key: 'buy' },
      locators: NEW,
      fingerprint: { tag: 'button' },
    },
    result: passed,
  };
  return {
    env: { name: 'default', baseUrl: 'http://shop.test/' },
    startTime: time,
    endTime: time,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: 'tc-1',
        scenarioName: 'Buy',
        featureName: 'Cart',
        uri: 'features/cart.feature',
        tags: [],
        result: { ...passed, status },
        parameters: {},
        steps: [{ keyword: 'When', type: 'Action', text: 'I buy it', result: passed, commands: [command], networkData: [], webLog: [] }],
        env: { name: 'default', baseUrl: 'http://shop.test/' },
        webLog: [],
        networkLog: [],
        retrainStats: { result: status === 'FIXED_BY_AI' ? 'passed' : 'failed' },
      },
    ],
  };
}

describe('applyLocatorChanges', () => {
  it('puts the new candidates first, keeps the old ones and updates the fingerprint', () => {
    const after = JSON.parse(applyLocatorChanges(LOCATORS, [{ key: 'buy', locators: NEW, fingerprint: { tag: 'button' } }])) as Record<
      string,
      unknown
    >;
    expect(after.buy).toEqual({ name: 'Buy', locators: [...NEW, { kind: 'css', value: '#buy' }], fingerprint: { tag: 'button' } });
    expect(after.other).toEqual({ name: 'Other', locators: [] });
  });

  it('refuses a file that lost the entry or is not JSON', () => {
    expect(() => applyLocatorChanges('{}', [{ key: 'buy', locators: NEW }])).toThrow(
      'The locator file changed since this fix was found. Run the scenario with AI recovery again.',
    );
    expect(() => applyLocatorChanges('nope', [{ key: 'buy', locators: NEW }])).toThrow(
      'The locator file changed since this fix was found. Run the scenario with AI recovery again.',
    );
  });
});

describe('Code Review items from uploaded runs', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  async function project() {
    const owner = await signUp(test);
    const { api, projectId } = owner;
    await api.call(workspaceCalls.pushFile, {
      body: { projectId, directory: 'features/step_definitions/locators', file: { name: 'cart.json', content: LOCATORS } },
    });
    const upload = (report: RunReport) => api.call(runnerCalls.uploadRun, { body: { projectId, uploadKey: `k-${Math.random()}`, report } });
    const list = async () => (await api.call(aiCalls.oversightList, { query: { project_id: projectId } })).items;
    return { ...owner, upload, list };
  }

  it('files an item only for a scenario fixed by AI whose element came from a locator file', async () => {
    const { upload, list } = await project();
    await upload(healedReport('FAILED'));
    await upload(healedReport('FIXED_BY_AI', 'features/step_definitions/shop.mjs'));
    expect(await list()).toEqual([]);
    await upload(healedReport('FIXED_BY_AI'));
    const items = await list();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'Buy', classification: 'locator', confidence: 0.84, file: FILE, before: LOCATORS });
    // The card says where: the scenario's step by number and text, and the element by name and key (issue 47).
    expect(items[0]!.healed).toEqual([{ stepNumber: 1, step: 'When I buy it', element: 'Buy', key: 'buy' }]);
  });

  it('Discard archives the item and leaves the workspace alone', async () => {
    const { api, projectId, upload, list } = await project();
    await upload(healedReport('FIXED_BY_AI'));
    const [item] = await list();
    await api.call(aiCalls.archiveOversight, { body: { projectId, scenario_id: item!.scenario_id } });
    expect(await list()).toEqual([]);
    const { content } = await api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: FILE } });
    expect(content).toBe(LOCATORS);
    const error = await failure(api.call(aiCalls.archiveOversight, { body: { projectId, scenario_id: item!.scenario_id } }));
    expect([error.httpStatus, error.message]).toEqual([404, 'This code review item no longer exists.']);
  });

  it('Accept refuses, and keeps the item, when the entry is gone from the file', async () => {
    const { api, projectId, upload, list } = await project();
    await upload(healedReport('FIXED_BY_AI'));
    const [item] = await list();
    await api.call(workspaceCalls.pushFile, {
      body: { projectId, directory: 'features/step_definitions/locators', file: { name: 'cart.json', content: '{}\n' } },
    });
    const error = await failure(api.call(aiCalls.acceptOversight, { body: { projectId, scenario_id: item!.scenario_id } }));
    expect([error.httpStatus, error.message]).toEqual([
      409,
      'The locator file changed since this fix was found. Run the scenario with AI recovery again.',
    ]);
    expect(await list()).toHaveLength(1);
  });

  it("does not show one project's items to another", async () => {
    const first = await project();
    const second = await project();
    await first.upload(healedReport('FIXED_BY_AI'));
    const [item] = await first.list();
    expect(await second.list()).toEqual([]);
    const error = await failure(
      second.api.call(aiCalls.acceptOversight, { body: { projectId: second.projectId, scenario_id: item!.scenario_id } }),
    );
    expect([error.httpStatus, error.message]).toEqual([404, 'This code review item no longer exists.']);
  });
});
