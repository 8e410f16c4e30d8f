/**
 * Workspace bench: a project with 500 features / 5,000 scenarios (15,000 steps, 50 step
 * definition files), served on 127.0.0.1; measures get-feature-list and store-and-get-steps over
 * HTTP, cold (first call after a commit) and warm, against the target "p99 ≤ 100 ms warm".
 *
 *   npx tsx bench/workspace.ts          (also part of `npm run bench`)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@rehearse/api-client';
import { authCalls, workspaceCalls } from '@rehearse/contract';
import { startTestApp } from '../apps/server/src/testing/test-app.js';
import { percentile } from './stats.js';

const FEATURES = 500;
const SCENARIOS_PER_FEATURE = 10;
const STEP_FILES = 50;
const REQUESTS = 200;
const TARGET_P99_MS = 100;

function feature(index: number): string {
  const scenarios = Array.from({ length: SCENARIOS_PER_FEATURE }, (_, i) => {
    const n = index * SCENARIOS_PER_FEATURE + i;
    return `  @area${index % 20} @regression\n  Scenario: Case ${n}\n    Given I open "/demo-shop/"\n    When I search the catalogue for item ${n}\n    Then I should see "item ${n}"\n`;
  });
  return `Feature: Area ${index}\n\n${scenarios.join('\n')}`;
}

function stepFile(index: number): string {
  return `import { When } from '@cucumber/cucumber';\n\n/** @recorder */\nWhen(/^I search the catalogue for item ${index}\\d*$/, async function () {});\n`;
}

async function measure(name: string, requests: number, call: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { name, requests, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.at(-1) ?? Number.NaN };
}

async function main(): Promise<void> {
  // The same server the integration tests start: fresh database and data folder, no request logs.
  const test = await startTestApp('pglite');
  const { app, services } = test;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const anonymous = createApiClient({ baseUrl: base });
    const { token, project } = await anonymous.call(authCalls.signup, {
      body: { email: 'bench@acme.test', password: 'bench password', firstname: 'Bench', lastname: 'Mark' },
    });
    const api = createApiClient({ baseUrl: base, getToken: () => token });
    const projectId = project._id;
    const user = await services.users.findByEmail('bench@acme.test');
    if (!user) throw new Error('bench user missing');
    const caller = { kind: 'session' as const, user, tokenHash: '' };
    const workspace = await services.workspaces.open(
      caller,
      await services.access.authorize(caller, { from: 'body', field: 'p' }, projectId),
    );
    const seeded = performance.now();
    await services.workspaces.write(workspace, async () => ({
      changes: [
        ...Array.from({ length: FEATURES }, (_, i) => ({ path: `features/area${i}.feature`, content: feature(i) })),
        ...Array.from({ length: STEP_FILES }, (_, i) => ({ path: `features/step_definitions/steps${i}.mjs`, content: stepFile(i) })),
      ],
      message: '[bench] seed',
      result: {},
    }));
    const seedMs = performance.now() - seeded;

    const listCold = performance.now();
    const list = await api.call(workspaceCalls.getFeatureList, { body: { projectId } });
    const listColdMs = performance.now() - listCold;
    const stepsCold = performance.now();
    const steps = await api.call(workspaceCalls.storeAndGetSteps, { query: { projectId }, body: {} });
    const stepsColdMs = performance.now() - stepsCold;
    const scenarios = list.features.reduce((sum, f) => sum + f.scenarios.length, 0);

    const results = [
      await measure('get-feature-list (warm)', REQUESTS, () => api.call(workspaceCalls.getFeatureList, { body: { projectId } })),
      await measure('store-and-get-steps (warm)', REQUESTS, () =>
        api.call(workspaceCalls.storeAndGetSteps, { query: { projectId }, body: {} }),
      ),
    ];
    // After one edit only the changed file is parsed again; the listing is rebuilt from cached blobs.
    await api.call(workspaceCalls.renameScenario, { body: { projectId, featureName: 'area7', scenarioIndex: 1, newName: 'Edited' } });
    const afterEdit = performance.now();
    await api.call(workspaceCalls.getFeatureList, { body: { projectId } });
    const afterEditMs = performance.now() - afterEdit;

    console.log(
      `\nWorkspace bench (PGlite, ${FEATURES} features, ${scenarios} scenarios, ${steps.steps.length} steps, ${STEP_FILES} step files)`,
    );
    console.log(
      `  seed commit ${seedMs.toFixed(0)} ms; first get-feature-list ${listColdMs.toFixed(0)} ms; first store-and-get-steps ${stepsColdMs.toFixed(0)} ms; get-feature-list after one edit ${afterEditMs.toFixed(0)} ms`,
    );
    console.log('  call                          n     p50 ms   p99 ms   max ms');
    for (const r of results) {
      console.log(
        `  ${r.name.padEnd(28)} ${String(r.requests).padStart(4)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(8)} ${r.max.toFixed(1).padStart(8)}`,
      );
    }
    const verdict = results.every((r) => r.p99 <= TARGET_P99_MS) ? 'within' : 'OVER';
    console.log(`  verdict: warm p99 ${verdict} the ${TARGET_P99_MS} ms target`);
    const out = fileURLToPath(new URL('./results/', import.meta.url));
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, 'workspace.json'),
      `${JSON.stringify({ features: FEATURES, scenarios, seedMs, listColdMs, stepsColdMs, afterEditMs, results }, null, 2)}\n`,
    );
  } finally {
    await test.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
