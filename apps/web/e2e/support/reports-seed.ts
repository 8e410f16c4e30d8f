import type { ApiClient } from '@rehearse/api-client';
import {
  runnerCalls,
  workspaceCalls,
  type Command,
  type NetworkEntry,
  type ReportStep,
  type RunReport,
  type TestCase,
  type WebLogEntry,
} from '@rehearse/contract';

/** A run report shaped like the runner's, with screenshots, network and console entries. */
export interface SeedOptions {
  name: string;
  /** Steps per scenario and commands per step. */
  steps: number;
  commands: number;
  /** PNG bytes uploaded once and used as every command's screenshot. */
  png: Buffer;
  /** Step index whose last command fails (and whose network has a 500), or -1 for a passing run. */
  failAt?: number;
  /** Step index with a console error (and no failing request). */
  consoleErrorAt?: number;
  scenarios?: number;
  uploadKey?: string;
  /** The first scenario's name (default 'Pay with a card'). */
  scenarioName?: string;
  /** An execution's run to append to, as a worker does (the api then carries the job's key). */
  appendTo?: string;
}

const BASE = 'http://127.0.0.1/demo-shop/';

function iso(start: number, offsetMs: number): string {
  return new Date(start + offsetMs).toISOString();
}

/** Uploads the screenshot and a run report; answers the run id and the uploaded screenshot id. */
export async function seedRun(api: ApiClient, projectId: string, o: SeedOptions): Promise<{ runId: string; screenshotId: string }> {
  const { id: screenshotId } = await api.call(runnerCalls.uploadArtifact, {
    body: { projectId, contentType: 'image/png', data: o.png.toString('base64') },
  });
  const start = Date.now() - 60_000;
  const failAt = o.failAt ?? -1;
  const testCases: TestCase[] = Array.from({ length: o.scenarios ?? 1 }, (_, sc) => {
    let t = 0;
    const steps: ReportStep[] = Array.from({ length: o.steps }, (_, si) => {
      // Only the first scenario fails; the others pass.
      const failing = sc === 0 && si === failAt;
      const skipped = sc === 0 && failAt >= 0 && si > failAt;
      const stepStart = t;
      const commands: Command[] = Array.from({ length: o.commands }, (_, ci) => {
        const cmdFails = failing && ci === o.commands - 1;
        const c: Command = {
          type: ci === 0 ? 'navigate' : ci % 2 ? 'click_element' : 'fill_element',
          element_name: ci === 0 ? undefined : `${ci % 2 ? 'Button' : 'Field'} ${si + 1}.${ci + 1}`,
          value: ci % 2 === 0 && ci > 0 ? (ci === 2 ? 'mask:hunter2' : `value ${ci}`) : undefined,
          screenshotId,
          result: {
            status: skipped ? 'SKIPPED' : cmdFails ? 'FAILED' : 'PASSED',
            message: cmdFails ? 'Element "Pay now" was not found within 30 s' : undefined,
            startTime: iso(start, t),
            endTime: iso(start, (t += 120)),
          },
        };
        return c;
      });
      const networkData: NetworkEntry[] = skipped
        ? []
        : [
            { requestUrl: `${BASE}products.json`, method: 'GET', status: 200, responseTime: 84, size: 2048, type: 'fetch' },
            { requestUrl: `${BASE}app.js`, method: 'GET', status: 304, responseTime: 12, size: null, type: 'script' },
            ...(failing
              ? [{ requestUrl: `${BASE}api/pay`, method: 'POST', status: 500, responseTime: 1450, size: 312, type: 'xhr' } as NetworkEntry]
              : []),
          ];
      const webLog: WebLogEntry[] =
        si === o.consoleErrorAt || failing
          ? [
              { type: 'warning', text: 'Deprecated API used', time: iso(start, t) },
              { type: 'error', text: 'TypeError: cart is undefined', time: iso(start, t) },
            ]
          : [];
      return {
        keyword: si === 0 ? 'Given' : si === o.steps - 1 ? 'Then' : 'When',
        type: si === 0 ? 'Context' : si === o.steps - 1 ? 'Outcome' : 'Action',
        text: `step ${si + 1} of scenario ${sc + 1}`,
        result: {
          status: skipped ? 'SKIPPED' : failing ? 'FAILED' : 'PASSED',
          message: failing ? 'Element "Pay now" was not found within 30 s' : undefined,
          startTime: iso(start, stepStart),
          endTime: iso(start, t),
        },
        commands,
        networkData,
        webLog,
      };
    });
    const failed = failAt >= 0 && sc === 0;
    return {
      id: `tc-${sc}`,
      scenarioName: sc === 0 ? (o.scenarioName ?? 'Pay with a card') : `Browse catalogue ${sc}`,
      featureName: 'checkout',
      uri: 'features/checkout.feature',
      tags: ['@regression'],
      result: {
        status: failed ? 'FAILED' : 'PASSED',
        message: failed ? 'Element "Pay now" was not found within 30 s' : undefined,
        startTime: iso(start, 0),
        endTime: iso(start, t),
      },
      parameters: { user: 'ada@acme.test', password: 'mask:hunter2' },
      steps,
      env: { name: 'default', baseUrl: BASE },
      webLog: steps.flatMap((s) => s.webLog),
      networkLog: steps.flatMap((s) => s.networkData),
      failedStep: failed ? failAt : undefined,
    };
  });
  const report: RunReport = {
    name: o.name,
    env: { name: 'default', baseUrl: BASE },
    startTime: iso(start, 0),
    endTime: new Date().toISOString(),
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases,
  };
  const uploaded = await api.call(runnerCalls.uploadRun, {
    body: { projectId, uploadKey: o.uploadKey ?? `seed-${o.name}-${Date.now()}`, report, ...(o.appendTo ? { appendTo: o.appendTo } : {}) },
  });
  return { runId: uploaded.runId, screenshotId };
}

/** A run visiting `routes` (one step each, the command's info.url on that route, with an ARIA snapshot). */
export async function seedMemory(api: ApiClient, projectId: string, routes: string[], uploadKey = `memory-${Date.now()}`): Promise<void> {
  const t = new Date().toISOString();
  const ok = { status: 'PASSED' as const, startTime: t, endTime: t };
  const steps: ReportStep[] = routes.map((route, i) => ({
    keyword: 'When',
    type: 'Action',
    text: `I visit ${route}`,
    result: ok,
    commands: [{ type: 'navigate', info: { url: `${BASE.replace(/\/demo-shop\/$/, '')}${route}` }, result: ok }],
    networkData: [],
    webLog: [],
    ariaSnapshot: `- heading "Page ${i + 1}" [level=1]\n- link "Home"`,
  }));
  await api.call(runnerCalls.uploadRun, {
    body: {
      projectId,
      uploadKey,
      report: {
        name: 'Explore',
        env: { name: 'default', baseUrl: BASE },
        startTime: t,
        endTime: t,
        mode: 'local',
        browser: 'chromium',
        viewport: { width: 1024, height: 768 },
        testCases: [
          {
            id: 'm',
            scenarioName: 'Explore',
            featureName: 'map',
            uri: 'features/map.feature',
            tags: [],
            result: ok,
            parameters: {},
            steps,
            env: { name: 'default', baseUrl: BASE },
            webLog: [],
            networkLog: [],
          },
        ],
      },
    },
  });
}

/** The locator file a healed run's fix changes, as the recorder writes it. */
export const HEALED_LOCATOR_FILE = 'features/step_definitions/locators/cart.json';
/** Entries of the locator file before the healed one (each 11 lines as JSON.stringify writes it). */
export const HEALED_ENTRIES_BEFORE = 45;

/**
 * A run whose one scenario self-healing fixed: the "Pay now" button of `HEALED_LOCATOR_FILE` was
 * found again as "Pay". Uploading it makes the server file a Code Review item, exactly as a
 * `rehearse run --heal` upload does.
 */
export async function seedHealedRun(api: ApiClient, projectId: string, png: Buffer): Promise<{ runId: string }> {
  const recorded = { name: 'Pay now', locators: [{ kind: 'role', role: 'button', name: 'Pay now', exact: true }] };
  // A real page's locator file is long: the healed entry sits in the middle of it (Code Review opens the diff there).
  const entry = (n: number) => [
    `item_${n}`,
    { name: `Item ${n}`, locators: [{ kind: 'role', role: 'link', name: `Item ${n}`, exact: true }] },
  ];
  const file = Object.fromEntries([
    ...Array.from({ length: HEALED_ENTRIES_BEFORE }, (_, n) => entry(n)),
    ['pay_now', recorded],
    ...Array.from({ length: 15 }, (_, n) => entry(HEALED_ENTRIES_BEFORE + n)),
  ]);
  await api.call(workspaceCalls.pushFile, {
    body: {
      projectId,
      directory: 'features/step_definitions/locators',
      file: { name: 'cart.json', content: `${JSON.stringify(file, null, 2)}\n` },
    },
  });
  const { id: screenshotId } = await api.call(runnerCalls.uploadArtifact, {
    body: { projectId, contentType: 'image/png', data: png.toString('base64') },
  });
  const t = new Date().toISOString();
  const ok = { status: 'PASSED' as const, startTime: t, endTime: t };
  const healed: Command = {
    type: 'click_element',
    element_name: 'Pay now',
    screenshotId,
    healing: {
      classification: 'locator',
      healed: true,
      confidence: 0.91,
      reason: 'No candidate matched; the button "Pay" matches the recorded fingerprint best.',
      element: 'Pay now',
      source: { file: HEALED_LOCATOR_FILE, key: 'pay_now' },
      locators: [{ kind: 'role', role: 'button', name: 'Pay', exact: true }],
      fingerprint: { tag: 'button', role: 'button', name: 'Pay', attributes: {}, ancestors: ['main', 'form'] },
      beforeScreenshotId: screenshotId,
      considered: [
        { element: 'button “Pay”', confidence: 0.91 },
        { element: 'button “Pay later”', confidence: 0.702 },
      ],
    },
    result: ok,
  };
  const testCase: TestCase = {
    id: 'tc-healed',
    scenarioName: 'Pay with a card',
    featureName: 'checkout',
    uri: 'features/checkout.feature',
    tags: [],
    result: { status: 'FIXED_BY_AI', startTime: t, endTime: t },
    parameters: {},
    steps: [
      { keyword: 'When', type: 'Action', text: 'I click on "Pay now" button', result: ok, commands: [healed], networkData: [], webLog: [] },
    ],
    env: { name: 'default', baseUrl: BASE },
    webLog: [],
    networkLog: [],
    retrainStats: { result: 'passed' },
  };
  const uploaded = await api.call(runnerCalls.uploadRun, {
    body: {
      projectId,
      uploadKey: `healed-${Date.now()}`,
      report: {
        name: 'Healed checkout',
        env: { name: 'default', baseUrl: BASE },
        startTime: t,
        endTime: t,
        mode: 'local',
        browser: 'chromium',
        viewport: { width: 1024, height: 768 },
        testCases: [testCase],
      },
    },
  });
  return { runId: uploaded.runId };
}
