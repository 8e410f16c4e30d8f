import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aiCalls, type OversightItem, type RunReport } from '@rehearse/contract';
import { runCli } from '@rehearse/runner/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../../packages/runner/src/browser.js';
import { fingerprintOf } from '../../../../packages/runner/src/support/healing.js';
import { startShops } from '../../../../packages/runner/src/testing/healing-suite.js';
import { failure, injectFetch, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Issue 10 "Must show": a run with AI recovery heals a renamed element on version 2 of the demo
 * shop, files a Code Review item, and accepting it makes the next plain run pass without healing.
 * Real pieces throughout: the runner CLI with Chromium, the server through its routes, git.
 */

const LOCATOR_FILE = 'features/step_definitions/locators/login.json';

const FEATURE = `Feature: Sign in

  Scenario: Sign in with the demo account
    Given I open "login.html"
    When I type the demo email
    And I type the demo password
    And I press sign in
    Then I should see "Signed in as"
`;

const STEPS = `import { When } from '@cucumber/cucumber';
import { context, locatorsFile } from '@rehearse/runner';

const elements = locatorsFile(import.meta.url, 'locators/login.json');

When('I type the demo email', async function () {
  await context.web.fill(elements.email, 'demo@rehearse.dev', {}, {}, this);
});
When('I type the demo password', async function () {
  await context.web.fill(elements.password, 'rehearse123', {}, {}, this);
});
When('I press sign in', async function () {
  await context.web.click(elements.sign_in, {}, {}, this);
});
`;

describe('Code Review of a healed run', () => {
  let test: TestApp;
  let shops: Awaited<ReturnType<typeof startShops>>;
  let dir: string;
  let locators: string;

  beforeAll(async () => {
    [test, shops] = await Promise.all([startTestApp('pglite'), startShops()]);
    // The recorder's output on version 1: candidates a renamed id and label break, and fingerprints.
    const browser = await launchBrowser({ browser: 'chromium', headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(`${shops.v1}login.html`);
      const record = async (name: string, candidates: object[], selector: string) => ({
        name,
        locators: candidates,
        fingerprint: await fingerprintOf(page, page.locator(selector)),
      });
      locators = `${JSON.stringify(
        {
          email: await record(
            'Email',
            [
              { kind: 'css', value: '#email' },
              { kind: 'label', value: 'Email', exact: true },
            ],
            '#email',
          ),
          password: await record('Password', [{ kind: 'css', value: '#password' }], '#password'),
          sign_in: await record(
            'Sign in',
            [
              { kind: 'css', value: '#login-form button' },
              { kind: 'role', role: 'button', name: 'Sign in', exact: true },
            ],
            '#login-form button',
          ),
        },
        null,
        2,
      )}\n`;
    } finally {
      await browser.close();
    }
  });

  afterAll(async () => {
    await test?.close();
    await shops?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('heals on v2, files an item, and Accept makes the next plain run pass', { timeout: 240_000 }, async () => {
    const { user, projectId, api } = await signUp(test);
    const caller = { kind: 'session' as const, user, tokenHash: '' };
    const access = await test.services.access.authorize(caller, { from: 'body', field: 'id' }, projectId);
    const key = await test.services.accessKeys.create(projectId, user.id, 'ci');
    const files: Record<string, string> = {
      'features/login.feature': FEATURE,
      'features/step_definitions/login.mjs': STEPS,
      [LOCATOR_FILE]: locators,
      'environments/v2.json': JSON.stringify({ name: 'v2', baseUrl: shops.v2 }),
      'rehearse.config.json': JSON.stringify({ commandTimeoutMs: 2_000, screenshots: 'on-failure' }),
    };
    const ws = await test.services.workspaces.open(caller, access);
    await test.services.workspaces.write(ws, async () => ({
      changes: Object.entries(files).map(([file, content]) => ({ path: file, content })),
      message: '[recorder] scenario: Sign in with the demo account, feature: Sign in, branch: main, env: v2',
      result: {},
    }));
    // The same files locally, as `rehearse pull` lays them out.
    dir = mkdtempSync(path.join(tmpdir(), 'rehearse-heal-'));
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    const output: string[] = [];
    const io = {
      cwd: dir,
      env: { ...process.env, REHEARSE_HEAL: '' },
      stdout: { write: (t: string) => output.push(t) },
      stderr: { write: (t: string) => output.push(t) },
      fetch: injectFetch(test.app),
    };
    const run = (out: string, ...extra: string[]) =>
      runCli(
        [
          'run',
          '--env',
          'environments/v2.json',
          '--headless',
          '--out',
          out,
          '--server',
          'http://rehearse.test',
          '--token',
          key.token,
          '--project',
          projectId,
          ...extra,
        ],
        io,
      );
    const report = (out: string) => JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')) as RunReport;

    // v2 renamed the ids and the label: a plain run fails.
    expect(await run('plain-before')).toBe(1);
    expect(report('plain-before').testCases[0]!.result.status).toBe('FAILED');

    // With AI recovery it passes, confirmed by a rerun, as "fixed by AI".
    expect(await run('healed', '--heal'), output.join('')).toBe(0);
    const healed = report('healed').testCases[0]!;
    expect(healed.result.status).toBe('FIXED_BY_AI');
    expect(healed.retrainStats).toEqual({ result: 'passed' });
    const healings = healed.steps.flatMap((step) => step.commands).flatMap((command) => (command.healing ? [command.healing] : []));
    expect(healings.map((h) => [h.source?.key, h.classification, h.healed])).toEqual([
      ['email', 'locator', true],
      ['password', 'locator', true],
      ['sign_in', 'locator', true],
    ]);
    expect(output.join('')).toContain('confirmed by a rerun with the healed locators');
    // The workspace is untouched until someone accepts.
    expect(readFileSync(path.join(dir, LOCATOR_FILE), 'utf8')).toBe(locators);

    const { items } = await api.call(aiCalls.oversightList, { query: { project_id: projectId } });
    expect(items).toHaveLength(1);
    const item: OversightItem = items[0]!;
    expect(item).toMatchObject({ name: 'Sign in with the demo account', classification: 'locator', file: LOCATOR_FILE, before: locators });
    expect(item.confidence).toBeGreaterThan(0.6);
    expect(item.beforeScreenshotId).not.toBeNull();
    const after = JSON.parse(item.after) as Record<string, { locators: Array<Record<string, unknown>> }>;
    expect(after.email!.locators[0]).toEqual({ kind: 'role', role: 'textbox', name: 'Email address', exact: true });
    // The recorded candidates stay behind the new ones.
    expect(after.email!.locators).toContainEqual({ kind: 'css', value: '#email' });

    const { commit } = await api.call(aiCalls.acceptOversight, { body: { projectId, scenario_id: item.scenario_id } });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect((await api.call(aiCalls.oversightList, { query: { project_id: projectId } })).items).toEqual([]);
    const snapshot = await test.services.workspaces.read(ws);
    const accepted = await snapshot.readText(LOCATOR_FILE);
    expect(accepted).toBe(item.after);
    const log = await ws.git.log(ws.branch, 1);
    expect(log[0]!.subject).toContain('[app:code-review.accept]');
    // Accepting twice finds nothing left to accept.
    expect((await failure(api.call(aiCalls.acceptOversight, { body: { projectId, scenario_id: item.scenario_id } }))).message).toBe(
      'This code review item no longer exists.',
    );

    // The next plain run, on the accepted files, passes without healing.
    writeFileSync(path.join(dir, LOCATOR_FILE), accepted!);
    expect(await run('plain-after'), output.join('')).toBe(0);
    const plain = report('plain-after').testCases[0]!;
    expect(plain.result.status).toBe('PASSED');
    expect(plain.steps.flatMap((step) => step.commands).some((command) => command.healing)).toBe(false);
  });
});
