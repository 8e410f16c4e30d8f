import { authCalls, recorderCalls, runnerCalls, runsCalls, type ReportStep, type RunReport } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

const BASE = 'http://rehearse.test/demo-shop/';
const time = new Date().toISOString();
const ok = { status: 'PASSED' as const, startTime: time, endTime: time };

function step(text: string, urls: string[], ariaSnapshot?: string): ReportStep {
  return {
    keyword: 'When',
    type: 'Action',
    text,
    result: ok,
    commands: urls.map((url) => ({ type: 'click_element', info: { url: `${BASE}${url}` }, result: ok })),
    networkData: [],
    webLog: [],
    ...(ariaSnapshot ? { ariaSnapshot } : {}),
  };
}

/** A run whose one scenario opens the shop's home page and follows a link to its login page. */
function twoPageRun(): RunReport {
  return {
    name: 'Sign in',
    env: { name: 'default', baseUrl: BASE },
    startTime: time,
    endTime: time,
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: [
      {
        id: 'memory-case',
        scenarioName: 'Sign in',
        featureName: 'Account',
        uri: 'features/account.feature',
        tags: [],
        result: ok,
        parameters: {},
        // Steps snapshot only on failure; the first page's snapshot comes with the scenario.
        initialAriaSnapshot: '- heading "Trailhead Supply" [level=1]',
        steps: [
          step('I open the shop', ['index.html']),
          // The link click lands on the login page inside the step: a navigation all the same.
          step('I click on "Sign in" link', ['index.html', 'login.html']),
          step('I fill in "Email" with "ada@acme.test"', ['login.html'], '- heading "Sign in" [level=1]'),
        ],
        env: { name: 'default', baseUrl: BASE },
        webLog: [],
        networkLog: [],
      },
    ],
  };
}

describe.each(testBackends())('application map edges on %s', (backend) => {
  let test: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let hostile: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    test = await startTestApp(backend);
    owner = await signUp(test, { email: 'map-owner@acme.test' });
    hostile = await signUp(test, { email: 'map-hostile@acme.test' });
  });
  afterAll(async () => test?.close());

  it('draws a run’s page A → page B as an edge A→B, each route with the snapshot captured there', async () => {
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: owner.projectId } });
    await test.client(accessKey.token).call(runnerCalls.uploadRun, {
      body: { projectId: owner.projectId, uploadKey: 'memory-two-pages', report: twoPageRun() },
    });
    const { memory } = await owner.api.call(runsCalls.applicationMemory, { query: { projectId: owner.projectId } });
    expect(memory.edges).toEqual([{ from: '/demo-shop/index.html', to: '/demo-shop/login.html' }]);
    expect(memory.paths['/demo-shop/index.html']!.snapshot).toBe('- heading "Trailhead Supply" [level=1]');
    expect(memory.paths['/demo-shop/login.html']!.snapshot).toBe('- heading "Sign in" [level=1]');
    expect(Object.keys(memory.paths['/demo-shop/login.html']!.pathsmap)).toEqual([
      'I click on "Sign in" link',
      'I fill in "Email" with "ada@acme.test"',
    ]);
  });

  it('draws a recording’s page A → page B as an edge A→B, including a last page where nothing was done', async () => {
    await owner.api.call(recorderCalls.publish, {
      body: {
        projectId: owner.projectId,
        featureName: 'Recorded',
        scenarioName: 'Browse',
        commands: [
          { type: 'navigate', value: '/products.html', path: '/products.html', url: `${BASE}products.html` },
          {
            type: 'click',
            path: '/products.html',
            url: `${BASE}products.html`,
            element: { name: 'Cart', locators: [{ kind: 'role', role: 'link', name: 'Cart', exact: true }] },
          },
        ],
        pages: [
          { path: '/products.html', url: `${BASE}products.html`, title: 'Products', ariaSnapshot: '- heading "Products" [level=1]' },
          { path: '/cart.html', url: `${BASE}cart.html`, title: 'Cart', ariaSnapshot: '- heading "Your cart" [level=1]' },
        ],
      },
    });
    const { memory } = await owner.api.call(runsCalls.applicationMemory, { query: { projectId: owner.projectId } });
    expect(memory.edges).toContainEqual({ from: '/demo-shop/products.html', to: '/demo-shop/cart.html' });
    expect(memory.edges).toContainEqual({ from: '/demo-shop/index.html', to: '/demo-shop/login.html' });
    expect(memory.paths['/demo-shop/cart.html']!.snapshot).toBe('- heading "Your cart" [level=1]');
    expect(memory.paths['/demo-shop/products.html']!.snapshot).toBe('- heading "Products" [level=1]');
    // Every edge joins two routes of the map.
    for (const edge of memory.edges) expect(Object.keys(memory.paths)).toEqual(expect.arrayContaining([edge.from, edge.to]));
  });

  it('shows another project none of these routes or edges, and refuses to read the owner’s map', async () => {
    const { memory } = await hostile.api.call(runsCalls.applicationMemory, { query: { projectId: hostile.projectId } });
    expect(memory).toEqual({ paths: {}, edges: [] });
    const refused = await failure(hostile.api.call(runsCalls.applicationMemory, { query: { projectId: owner.projectId } }));
    expect(refused.httpStatus).toBe(403);
  });
});
