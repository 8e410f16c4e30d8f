import { execFile } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Headers, RunReport, runnerCalls, systemCalls, type TestCase } from '@rehearse/contract';
import { DEMO_SHOP_USER } from '@rehearse/demo-shop';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { captureIo, filesContaining, filesUnder } from '../testing/output.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { CONSOLE_ERROR, FAILING_TEXT } from '../testing/shop-workspace.js';
import { runCli } from './index.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TEST_DATA = [
  { key: 'email', value: DEMO_SHOP_USER.email, DataType: 'string' as const },
  { key: 'password', value: DEMO_SHOP_USER.password, DataType: 'secret' as const },
];

const shop = useDemoShopWorkspaces();
const workspace = shop.workspace;

const byName = (report: RunReport, name: string): TestCase => {
  const found = report.testCases.find((testCase) => testCase.scenarioName === name);
  if (!found) throw new Error(`no test case "${name}" in ${report.testCases.map((t) => t.scenarioName).join(', ')}`);
  return found;
};

const summary = (report: RunReport) =>
  Object.fromEntries(report.testCases.map((testCase) => [testCase.scenarioName, testCase.result.status]));

const EXPECTED_STATUSES = {
  'Search finds the mug': 'PASSED',
  'Add a backpack to the cart with recorded locators': 'PASSED',
  'Search for backpack': 'PASSED',
  'Search for bottle': 'PASSED',
  'Sign in through the API': 'PASSED',
  'Sign in with a wrong password fails on purpose': 'FAILED',
};

describe('rehearse run on a five-scenario feature against the demo shop', () => {
  let ws: string;
  let out: string;
  let code: number;
  let io: ReturnType<typeof captureIo>;
  let report: RunReport;

  beforeAll(async () => {
    ws = workspace({ data: TEST_DATA });
    out = path.join(ws, 'out');
    io = captureIo();
    code = await runCli(['run', '--env', 'environments/default.json', '--data', 'test-data.json', '--out', out, '--headless'], {
      cwd: ws,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport;
  });

  it('exits with 1 because one scenario failed, and says which', () => {
    expect(io.err()).toBe('');
    expect(code).toBe(1);
    expect(io.out()).toMatch(/6 scenarios: 5 passed, 1 failed — run FAILED/);
    expect(io.out()).toContain('✗ FAILED    Trailhead shop › Sign in with a wrong password fails on purpose');
  });

  it('writes a report that validates against the contract, with every scenario in it', () => {
    expect(() => RunReport.parse(report)).not.toThrow();
    expect(summary(report)).toEqual(EXPECTED_STATUSES);
    expect(report.env).toEqual({ name: 'default', baseUrl: shop.baseUrl });
    expect(report).toMatchObject({ mode: 'local', browser: 'chromium', viewport: { width: 1024, height: 768 } });
    expect(byName(report, 'Search for bottle').parameters).toEqual({ term: 'bottle', product: 'Insulated Water Bottle' });
    expect(byName(report, 'Search finds the mug').tags).toEqual(['@shop']);
  });

  it('gives every browser command a screenshot stored under its sha256', () => {
    const commands = report.testCases.flatMap((testCase) => testCase.steps.flatMap((step) => step.commands));
    const browserCommands = commands.filter((command) => !command.type.startsWith('api_') && command.type !== 'undefined_step');
    expect(browserCommands.length).toBeGreaterThan(20);
    for (const command of browserCommands) {
      expect(command.screenshotId, command.type).toMatch(/^[0-9a-f]{64}$/);
      expect(existsSync(path.join(out, 'artifacts', `${command.screenshotId}.png`)), command.type).toBe(true);
    }
    const files = filesUnder(path.join(out, 'artifacts')).filter((file) => file.endsWith('.png'));
    expect(files.length).toBe(new Set(browserCommands.map((command) => command.screenshotId)).size);
    // Beside them, the failed scenario's trace (retain-on-failure by default) and no other.
    const traces = report.testCases.flatMap((testCase) => (testCase.traceFileId ? [[testCase.scenarioName, testCase.traceFileId]] : []));
    expect(traces.map(([name]) => name)).toEqual(['Sign in with a wrong password fails on purpose']);
    expect(filesUnder(path.join(out, 'artifacts')).filter((file) => file.endsWith('.zip'))).toEqual([
      path.join(out, 'artifacts', `${traces[0]![1]}.zip`),
    ]);
  });

  it('records the failing step, its message, its page snapshot and the undefined step after it', () => {
    const failing = byName(report, 'Sign in with a wrong password fails on purpose');
    expect(failing.failedStep).toBe(4);
    const step = failing.steps[4]!;
    expect(step.text).toBe(`I should see "${FAILING_TEXT}"`);
    expect(step.result.status).toBe('FAILED');
    expect(step.result.message).toContain(`The page does not show "${FAILING_TEXT}"`);
    expect(failing.result.message).toBe(step.result.message);
    expect(step.commands.at(-1)).toMatchObject({ type: 'verify_page_contains_text', result: { status: 'FAILED' } });
    expect(step.ariaSnapshot).toContain('Invalid email or password');
    const undefinedStep = failing.steps[5]!;
    expect(undefinedStep.result.status).toBe('UNDEFINED');
    expect(undefinedStep.commands).toEqual([
      expect.objectContaining({ type: 'undefined_step', result: expect.objectContaining({ status: 'FAILED' }) }),
    ]);
  });

  it('resolves generated elements through their candidates when the first one is wrong', () => {
    const cart = byName(report, 'Add a backpack to the cart with recorded locators');
    const click = cart.steps.flatMap((step) => step.commands).find((command) => command.type === 'click_element')!;
    expect(click.element_name).toBe('Add to cart');
    expect(click.locatorLog).toEqual([
      'css=button.buy-now: 0 visible matches',
      'role=button[name="Add to cart" exact]: 1 visible match, used',
    ]);
    const select = cart.steps.flatMap((step) => step.commands).find((command) => command.type === 'select_combobox')!;
    expect(select).toMatchObject({ element_name: 'Colour', value: 'Slate' });
    expect(select.locatorLog?.[0]).toBe('testId="colour-select": 0 visible matches');
    expect(cart.steps.at(-1)!.commands[0]).toMatchObject({ type: 'verify_element_value', info: { value: '2', expectedValue: '2' } });
  });

  it('captures network requests with statuses per step, and console errors with their time', () => {
    const search = byName(report, 'Search finds the mug');
    const open = search.steps[0]!;
    expect(open.networkData.find((entry) => entry.type === 'document')).toMatchObject({
      method: 'GET',
      status: 200,
      requestUrl: shop.baseUrl,
    });
    const productCalls = search.networkLog.filter((entry) => entry.requestUrl.includes('/api/products'));
    expect(productCalls.length).toBeGreaterThanOrEqual(2);
    // The shop aborts a search still in flight when the next keystroke starts one (on a slow
    // machine that happens): such a call is recorded as failed with the browser's reason.
    const answered = productCalls.filter((call) => !call.failed);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const call of answered) {
      expect(call.status).toBe(200);
      expect(call.responseTime).toBeGreaterThan(0);
      expect(call.size).toBeGreaterThan(0);
    }
    for (const call of productCalls.filter((entry) => entry.failed))
      expect(call).toMatchObject({ status: null, failureText: 'net::ERR_ABORTED' });
    const logStep = search.steps.at(-1)!;
    expect(logStep.webLog).toEqual([
      { type: 'error', text: CONSOLE_ERROR, time: expect.any(String) },
      { type: 'warning', text: 'Rehearse test: a warning', time: expect.any(String) },
    ]);
    expect(search.webLog).toHaveLength(2);
    expect(search.initialAriaSnapshot).toContain('Gear for the trail ahead');
  });

  it('runs API steps with their tests, status, data and headers, and masks the secret in the payload', () => {
    const apiCase = byName(report, 'Sign in through the API');
    const [login, status, , json, products] = apiCase.steps.map((step) => step.commands[0]!);
    expect(login).toMatchObject({
      type: 'api_request',
      payload: { type: 'json', content: expect.stringContaining('{{password}}') },
      info: { status: 200, statusText: 'OK', data: expect.objectContaining({ ok: true, name: 'Dana Demo' }) },
    });
    expect(login!.info!.headers!['content-type']).toContain('application/json');
    expect(status).toMatchObject({ type: 'api_assert', info: { tests: [{ name: 'status is 200', passed: true }], testsPassed: 1 } });
    expect(json!.info!.tests).toEqual([{ name: 'JSON name is "Dana Demo"', passed: true }]);
    expect(products!.info).toMatchObject({
      testsPassed: 3,
      tests: expect.arrayContaining([expect.objectContaining({ name: 'status is 200' })]),
    });
    expect(apiCase.networkLog.map((entry) => [entry.type, entry.method, entry.status])).toEqual([
      ['api', 'POST', 200],
      ['api', 'GET', 200],
    ]);
  });

  it("writes cucumber's own JUnit XML, Cucumber JSON, HTML and messages that count the failure", () => {
    const junit = readFileSync(path.join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite [^>]*tests="6"[^>]*failures="1"/);
    expect(junit).toContain('name="Sign in with a wrong password fails on purpose"');
    expect(junit).toContain(`The page does not show &quot;${FAILING_TEXT}&quot;`);
    const cucumber = JSON.parse(readFileSync(path.join(out, 'cucumber.json'), 'utf8')) as Array<{
      elements: Array<{ steps: Array<{ result: { status: string } }> }>;
    }>;
    const statuses = cucumber.flatMap((feature) => feature.elements.flatMap((element) => element.steps.map((step) => step.result.status)));
    expect(statuses.filter((status) => status === 'failed')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'undefined')).toHaveLength(1);
    expect(cucumber[0]!.elements).toHaveLength(6);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('window.CUCUMBER_MESSAGES');
    expect(
      readFileSync(path.join(out, 'messages.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .filter((line) => line.includes('"testCaseFinished"')),
    ).toHaveLength(6);
  });

  it('runs the same feature under plain cucumber-js with the support code and formatter, with the same outcome', async () => {
    // A user's repository: the runner installed in node_modules, a cucumber config naming our
    // support file and formatter, tsx for the TypeScript source.
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(ws, 'node_modules'), 'dir');
    writeFileSync(
      path.join(ws, 'cucumber.mjs'),
      `export default {
  import: ['node_modules/@rehearse/runner/src/support/register.ts', 'features/step_definitions/**/*.mjs'],
  format: ['summary', ['@rehearse/runner/formatter', 'plain-report/report.json'], 'junit:plain-report/junit.xml'],
};
`,
    );
    // Asynchronously: the demo shop answers from this very process.
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        path.join(ws, 'node_modules', '.bin', 'cucumber-js'),
        [],
        {
          cwd: ws,
          timeout: 120_000,
          env: { ...process.env, NODE_OPTIONS: '--import tsx', REHEARSE_DATA: 'test-data.json', REHEARSE_HEADLESS: '1' },
        },
        (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout, result.stderr).toContain('6 scenarios (1 failed, 5 passed)');
    const plain = JSON.parse(readFileSync(path.join(ws, 'plain-report', 'report.json'), 'utf8')) as RunReport;
    expect(() => RunReport.parse(plain)).not.toThrow();
    expect(summary(plain)).toEqual(EXPECTED_STATUSES);
    expect(byName(plain, 'Sign in with a wrong password fails on purpose').failedStep).toBe(4);
    const shots = plain.testCases
      .flatMap((testCase) => testCase.steps.flatMap((step) => step.commands.map((command) => command.screenshotId)))
      .filter(Boolean);
    for (const id of shots) expect(existsSync(path.join(ws, 'plain-report', 'artifacts', `${id}.png`))).toBe(true);
    expect(existsSync(path.join(ws, 'plain-report', 'junit.xml'))).toBe(true);
    expect(filesContaining(path.join(ws, 'plain-report'), DEMO_SHOP_USER.password)).toEqual([]);
  });
});

/** A stand-in for the runs service: answers the three runner calls and keeps what it was sent. */
async function startFakeServer(testData: unknown[]) {
  const received: Array<{ path: string; headers: IncomingMessage['headers']; body: unknown; raw: string }> = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(raw || 'null') as unknown;
      received.push({ path: request.url ?? '', headers: request.headers, body, raw });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.headers.authorization !== 'Bearer rhs_test_key') return send(401, { status: false, error: 'Session Expired' });
      if (request.url === runnerCalls.runTestData.path) {
        runnerCalls.runTestData.body.parse(body);
        return send(200, { status: true, testData });
      }
      if (request.url === runnerCalls.uploadArtifact.path) {
        runnerCalls.uploadArtifact.body.parse(body);
        return send(200, { status: true, id: `server-${received.length}` });
      }
      if (request.url === runnerCalls.uploadRun.path) {
        runnerCalls.uploadRun.body.parse(body);
        return send(200, { status: true, runId: 'run-1', reportLink: '/p-1/run-report/run-1' });
      }
      return send(404, { status: false, error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const PROJECT_ID = '11111111-1111-4111-8111-111111111111';

describe('secrets and uploads', () => {
  it('never writes a secret it typed into any report file, upload or output line, and uploads the run', async () => {
    const secretFeature = `Feature: Sign in
  Scenario: Sign in with the stored password
    Given I open "login.html"
    When I fill "Email" with "{{email}}"
    And I fill "Password" with "{{password}}"
    And I click "Sign in"
    Then I should see "Dana Demo"
    And I should see "{{password}}"
`;
    const ws = workspace({ feature: secretFeature });
    const server = await startFakeServer(TEST_DATA);
    const out = path.join(ws, 'out');
    const io = captureIo();
    try {
      const code = await runCli(['run', '--server', server.url, '--token', 'rhs_test_key', '--project', PROJECT_ID, '--out', out], {
        cwd: ws,
        stdout: io.stdout,
        stderr: io.stderr,
      });
      // The last step fails on purpose: the page never shows the password, and the failure
      // message must not either.
      expect(code).toBe(1);
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport;
      const steps = report.testCases[0]!.steps;
      expect(steps.slice(0, 5).map((step) => step.result.status)).toEqual(['PASSED', 'PASSED', 'PASSED', 'PASSED', 'PASSED']);
      expect(steps[2]!.commands[0]).toMatchObject({ type: 'fill_element', element_name: 'Password', value: 'secret:****' });
      expect(steps[5]!.result.message).toContain('The page does not show "secret:****"');

      expect(filesContaining(out, DEMO_SHOP_USER.password)).toEqual([]);
      expect(io.out() + io.err()).not.toContain(DEMO_SHOP_USER.password);
      for (const request of server.received.filter((r) => r.path !== runnerCalls.runTestData.path)) {
        expect(request.raw).not.toContain(DEMO_SHOP_USER.password);
      }
      // The JUnit XML, cucumber messages (the server renders the HTML report from them) and trace
      // kept with the run, decoded (the trace unzipped): no secret in them either.
      const kept = server.received.filter(
        (r) => r.path === runnerCalls.uploadArtifact.path && (r.body as { contentType: string }).contentType !== 'image/png',
      );
      // Uploaded at once, so in no particular order.
      expect(kept.map((r) => (r.body as { contentType: string }).contentType).sort()).toEqual([
        'application/x-ndjson',
        'application/xml',
        'application/zip',
      ]);
      for (const request of kept) {
        const bytes = Buffer.from((request.body as { data: string }).data, 'base64');
        const texts =
          (request.body as { contentType: string }).contentType === 'application/zip'
            ? Object.values(unzipSync(bytes)).map((entry) => Buffer.from(entry))
            : [bytes];
        for (const text of texts) expect(text.toString('latin1')).not.toContain(DEMO_SHOP_USER.password);
      }

      const paths = server.received.map((request) => request.path);
      // First the server's version and the key's project (this stand-in knows neither: the run goes on with --project).
      expect(paths.slice(0, 3)).toEqual([systemCalls.health.path, runnerCalls.keyProject.path, runnerCalls.runTestData.path]);
      expect(paths.at(-1)).toBe(runnerCalls.uploadRun.path);
      const shots = new Set(steps.flatMap((step) => step.commands.map((command) => command.screenshotId)).filter(Boolean));
      expect(paths.filter((p) => p === runnerCalls.uploadArtifact.path)).toHaveLength(shots.size + 3);
      const upload = server.received.at(-1)!;
      expect(upload.headers.authorization).toBe('Bearer rhs_test_key');
      expect(upload.headers[Headers.projectId]).toBe(PROJECT_ID);
      const body = runnerCalls.uploadRun.body.parse(upload.body);
      expect(body.uploadKey.length).toBeGreaterThanOrEqual(8);
      const uploadedShots = body.report.testCases[0]!.steps.flatMap((step) => step.commands.map((command) => command.screenshotId)).filter(
        Boolean,
      );
      expect(uploadedShots.every((id) => id!.startsWith('server-'))).toBe(true);
      expect(body.report.testCases[0]!.reportFiles).toEqual({
        junit: expect.stringMatching(/^server-/),
        messages: expect.stringMatching(/^server-/),
      });
      expect(body.report.testCases[0]!.traceFileId).toMatch(/^server-/);
      expect(io.out()).toContain(`Report link: ${server.url}/p-1/run-report/run-1`);
    } finally {
      await server.close();
    }
  });
});

describe('hooks', () => {
  it('shows a failed Before or After hook as a step named "Failed hook"', async () => {
    const ws = workspace({
      feature: `Feature: Hooks
  @broken-before
  Scenario: A Before hook fails
    Given I open "/"

  @broken-after
  Scenario: An After hook fails
    Given I open "/"
`,
      steps: `import { After, Before } from '@cucumber/cucumber';
Before({ tags: '@broken-before' }, function () { throw new Error('The test database is down'); });
After({ tags: '@broken-after' }, function () { throw new Error('Could not clean up'); });
`,
    });
    const io = captureIo();
    const code = await runCli(['run', '--out', 'out', '--screenshots', 'off'], { cwd: ws, stdout: io.stdout, stderr: io.stderr });
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')) as RunReport;
    const [before, after] = report.testCases;
    expect(before!.steps.map((step) => [step.type, step.text, step.result.status])).toEqual([
      ['Before', 'Failed hook', 'FAILED'],
      ['Context', 'I open "/"', 'SKIPPED'],
    ]);
    expect(before!.result).toMatchObject({ status: 'FAILED', message: 'The test database is down' });
    expect(before!.failedStep).toBe(0);
    expect(after!.steps.map((step) => [step.type, step.text, step.result.status])).toEqual([
      ['Context', 'I open "/"', 'PASSED'],
      ['After', 'Failed hook', 'FAILED'],
    ]);
    expect(after!.failedStep).toBe(1);
  });

  it('runs every example of an outline named as written with --scenario, placeholders included', async () => {
    const ws = workspace();
    const io = captureIo();
    const code = await runCli(['run', '--scenario', 'Search for <term>', '--out', 'out', '--screenshots', 'on-failure'], {
      cwd: ws,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')) as RunReport;
    expect(report.testCases.map((testCase) => testCase.scenarioName)).toEqual(['Search for backpack', 'Search for bottle']);
    expect(
      report.testCases.flatMap((testCase) => testCase.steps.flatMap((step) => step.commands)).some((command) => command.screenshotId),
    ).toBe(false);
  });
});

describe("a command's page title", () => {
  it('is the title of the page a click opened, even when that page sends its head late', async () => {
    // The new document commits with its first bytes; its <title> comes 800 ms later. A busy CI
    // machine opened that window on the demo shop and the click's record said title ''.
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (request.url !== '/slow') {
        response.end('<!doctype html><html><head><title>Start page</title></head><body><a href="/slow">Next page</a></body></html>');
        return;
      }
      response.write('<!doctype html><html>');
      setTimeout(() => response.end('<head><title>Slow page</title></head><body><p>Arrived</p></body></html>'), 800);
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const start = `http://127.0.0.1:${(server.address() as AddressInfo).port}/start`;
      const ws = workspace({
        feature: `Feature: Titles
  Scenario: A link to a slow page
    Given I open "${start}"
    When I click "Next page"
    Then I should see "Arrived"
`,
      });
      const io = captureIo();
      const code = await runCli(['run', '--out', 'out', '--screenshots', 'off'], { cwd: ws, stdout: io.stdout, stderr: io.stderr });
      expect(code, io.err()).toBe(0);
      const report = JSON.parse(readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')) as RunReport;
      const commands = report.testCases[0]!.steps.flatMap((step) => step.commands);
      expect(commands.map((command) => command.info?.title)).toEqual(['Start page', 'Slow page', 'Slow page']);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('reduced motion (rehearse.config.json "reducedMotion")', () => {
  const feature = `Feature: Motion
  Scenario: The page reports its motion preference
    Given I open "/"
    Then the page prefers reduced motion
`;
  const steps = `import { Then } from '@cucumber/cucumber';
Then('the page prefers reduced motion', async function () {
  const reduced = await this.page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches);
  if (!reduced) throw new Error('The page does not prefer reduced motion');
});
`;
  const run = async (ws: string, env: NodeJS.ProcessEnv = process.env) => {
    const io = captureIo();
    const code = await runCli(['run', '--out', 'out', '--screenshots', 'off'], { cwd: ws, env, stdout: io.stdout, stderr: io.stderr });
    return { code, err: io.err() };
  };

  it('gives pages prefers-reduced-motion: reduce when the project asks for it, and not by default', async () => {
    expect((await run(workspace({ feature, steps, config: { reducedMotion: true } }))).code).toBe(0);
    expect((await run(workspace({ feature, steps }))).code).toBe(1);
  });

  it('lets REHEARSE_REDUCED_MOTION override the project, and refuses a value that is not a boolean', async () => {
    expect((await run(workspace({ feature, steps }), { ...process.env, REHEARSE_REDUCED_MOTION: '1' })).code).toBe(0);
    expect(
      (await run(workspace({ feature, steps, config: { reducedMotion: true } }), { ...process.env, REHEARSE_REDUCED_MOTION: '0' })).code,
    ).toBe(1);
    const badConfig = await run(workspace({ feature, steps, config: { reducedMotion: 'yes' } }));
    expect(badConfig).toMatchObject({ code: 2 });
    expect(badConfig.err).toContain('"reducedMotion" must be true or false');
    const badEnv = await run(workspace({ feature, steps }), { ...process.env, REHEARSE_REDUCED_MOTION: 'maybe' });
    expect(badEnv).toMatchObject({ code: 2 });
    expect(badEnv.err).toContain('REHEARSE_REDUCED_MOTION must be 1 or 0');
  });
});

describe('usage errors', () => {
  it('exits with 2 and a clear message', async () => {
    const ws = workspace();
    const cases: Array<[string[], string]> = [
      [['run', '--env', 'environments/nope.json'], 'No environment file environments/nope.json'],
      [['run', '--browser', 'netscape'], '--browser must be one of chromium, firefox, webkit'],
      [['run', '--viewport', 'big'], 'A viewport is WIDTHxHEIGHT'],
      [['run', '--server', 'http://x.test'], '--server needs --token'],
      [['run', '--server', 'http://x.test', '--token', 't'], 'rehearse: the server did not answer ('],
      [['run', '--frobnicate'], "Unknown option '--frobnicate'"],
      [['run', '--scenario', 'No such scenario'], 'No scenario matched'],
      [['run', '--name', 'Search (for'], '--name is not a regular expression'],
      [
        ['run', '--name', 'Search', '--scenario', 'Search for <term>'],
        'Choose --scenario (an exact name) or --name (a regular expression), not both',
      ],
      [['run', '--retry', 'twice'], '--retry must be a whole number from 0 to 10 (got "twice")'],
      [['run', '--parallel', '-1'], '--parallel'],
      [['run', '--format-options', '[1]'], '--format-options must be a JSON object'],
      [['run', '--profile', 'nightly'], '--profile nightly: there is no cucumber.js'],
      [['launch'], 'Unknown command "launch"'],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo();
      const code = await runCli(argv, { cwd: ws, stdout: io.stdout, stderr: io.stderr });
      expect({ argv, code }).toEqual({ argv, code: 2 });
      expect(io.err()).toContain(message);
    }
  });

  it('refuses a REHEARSE_HEADLESS_SHELL that is not 1 or 0 before running anything', async () => {
    const ws = workspace();
    const io = captureIo();
    const env = { ...process.env, REHEARSE_HEADLESS_SHELL: 'maybe' };
    const code = await runCli(['run', '--headless', '--out', 'out'], { cwd: ws, env, stdout: io.stdout, stderr: io.stderr });
    expect(code).toBe(2);
    expect(io.err()).toContain('REHEARSE_HEADLESS_SHELL must be 1 or 0');
    expect(existsSync(path.join(ws, 'out'))).toBe(false);
  });

  it('refuses firefox and webkit clearly when their builds are not installed', async () => {
    const ws = workspace();
    const io = captureIo();
    const env = { ...process.env, PLAYWRIGHT_BROWSERS_PATH: path.join(ws, 'no-browsers'), FIREFOX_PATH: '' };
    const code = await runCli(['run', '--browser', 'firefox'], { cwd: ws, env, stdout: io.stdout, stderr: io.stderr });
    expect(code).toBe(2);
    expect(io.err()).toContain("No firefox found: Playwright's firefox build is needed (`npx playwright install firefox`)");
  });
});
