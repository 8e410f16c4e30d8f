import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { authCalls, Messages, recorderCalls, runsCalls, workspaceCalls as ws } from '@rehearse/contract';
import { runRecord } from '@rehearse/recorder/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

describe('rehearse record (the local recorder)', () => {
  let test: TestApp;
  let serverUrl: string;

  beforeAll(async () => {
    test = await startTestApp('pglite');
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    serverUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => test?.close());

  it('records in its own Chromium with an access key and publishes scenario, steps and locators in one commit', { timeout: 120_000 }, async () => {
    const user = await signUp(test, { email: 'local@acme.test' });
    const projectId = user.projectId;
    await user.api.call(ws.pushEnv, { body: { projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
    await user.api.call(ws.changeTestData, {
      body: { projectId, testData: [{ key: 'password', value: 'rehearse123', DataType: 'secret', environment: '*' }] },
    });
    const { accessKey } = await user.api.call(authCalls.createAccessKey, { body: { name: 'laptop', projectId } });
    const out: string[] = [];
    const code = await runRecord(
      ['--server', serverUrl, '--token', accessKey.token, '--project', projectId, '--env', 'shop', '--feature', 'Local', '--scenario', 'Sign in', '--headless'],
      { env: {}, stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => out.push(t) }, fetch },
      {
        drive: async (session) => {
          const page = session.activePage;
          await page.getByRole('link', { name: 'Sign in' }).click();
          await page.getByLabel('Email').click();
          await page.keyboard.type('demo@rehearse.dev');
          await page.getByLabel('Password').click();
          await page.keyboard.type('rehearse123');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('button', { name: 'Sign out' }).waitFor();
        },
      },
    );
    expect(code, out.join('')).toBe(0);
    expect(out.join('')).toContain('Published "Sign in" to feature "Local"');
    expect(out.join('')).toContain('fill "Password" ****');
    expect(out.join('')).not.toContain('rehearse123');
    const { features } = await user.api.call(ws.getFeatureList, { body: { projectId } });
    const feature = features.find((f) => f.featureName === 'Local')!;
    expect(feature.scenarios[0]!.content).toContain('And I fill in "Password" with "{{password}}"');
    const files = await user.api.call(ws.getFiles, { query: { projectId, directory: 'features/step_definitions/locators' } });
    expect(JSON.stringify(files)).toContain('login.json');
    const log = execFileSync('git', ['--git-dir', path.join(test.settings.dataDir, 'workspaces', projectId, 'repo.git'), 'log', '-1', '--format=%s%n%an', '--name-only', 'main'], { encoding: 'utf8' });
    expect(log).toMatch(/^\[recorder\] scenario: Sign in, feature: Local, branch: main, env: shop\n/);
    expect(log).toContain('features/Local.feature');
    expect(log).toContain('features/step_definitions/login.mjs');
    expect(log).toContain('features/step_definitions/locators/login.json');
    // The pages it saw joined the application memory, with their ARIA snapshot and steps.
    const { memory } = await user.api.call(runsCalls.applicationMemory, { query: { projectId } });
    const login = memory.paths['/demo-shop/login.html']!;
    expect(login.snapshot).toContain('Sign in');
    expect(Object.keys(login.pathsmap)).toContain('When I fill in "Email" with "demo@rehearse.dev"');

    // Re-recording one step (ai_learn) replaces that step's line and nothing else.
    const before = feature.scenarios[0]!.content.split('\n');
    await user.api.call(recorderCalls.publish, {
      body: {
        projectId,
        env: 'shop',
        featureName: 'Local',
        scenarioName: 'Sign in',
        stepIndex: 1,
        commands: [{ type: 'click', path: '/login.html', element: { name: 'Products', locators: [{ kind: 'role', role: 'link', name: 'Products', exact: true }] } }],
      },
    });
    const after = (await user.api.call(ws.getFeatureList, { body: { projectId } })).features.find((f) => f.featureName === 'Local')!.scenarios[0]!.content.split('\n');
    expect(after.filter((line, i) => line !== before[i])).toEqual(['    When I click on "Products" link']);

    // Bad input: a 4xx with the rule's message, and nothing written.
    const empty = await failure(user.api.call(recorderCalls.publish, { body: { projectId, featureName: 'Local', scenarioName: 'Nothing', commands: [] } }));
    expect([empty.httpStatus, empty.message]).toEqual([400, Messages.recorderNothingToPublish]);
    const onlyOpen = [{ type: 'navigate' as const, value: '/', path: '/' }, { type: 'click' as const, path: '/', element: { name: 'x', locators: [{ kind: 'css' as const, value: 'a' }] } }];
    const badName = await failure(user.api.call(recorderCalls.publish, { body: { projectId, featureName: 'Bad?Name', scenarioName: 'X', commands: onlyOpen } }));
    expect(badName.httpStatus).toBe(400);
    const notMine = await failure(user.api.call(recorderCalls.publish, { body: { projectId, featureName: 'Local', scenarioName: 'X', connectionId: '00000000-0000-4000-8000-00000000c0de' } }));
    expect([notMine.httpStatus, notMine.message]).toEqual([404, Messages.recorderSessionNotFound]);
    const count = (await user.api.call(ws.getFeatureList, { body: { projectId } })).features.length;
    expect(count).toBe(1);
  });
});
