import { authCalls, runnerCalls, runsCalls, workspaceCalls, type RunReport, type TestCase } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG_BASE64 } from '../testing/report-fixture.js';
import { failure, signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';

const PNG = TINY_PNG_BASE64;

function testCase(
  name: string,
  status: 'PASSED' | 'FAILED',
  screenshotId?: string,
  url = 'http://rehearse.test/demo-shop/cart.html',
): TestCase {
  const time = new Date().toISOString();
  const ok = { status: 'PASSED' as const, startTime: time, endTime: time };
  return {
    id: `runner-${name}`,
    scenarioName: name,
    featureName: 'Checkout',
    uri: 'features/checkout.feature',
    tags: ['@smoke'],
    result: { status, startTime: time, endTime: time, ...(status === 'FAILED' ? { message: 'Expected "Cart 2"' } : {}) },
    parameters: {},
    steps: [
      {
        keyword: 'Given',
        type: 'Context',
        text: 'I open "/demo-shop/cart.html"',
        result: ok,
        commands: [{ type: 'navigate', ...(screenshotId ? { screenshotId } : {}), info: { url }, result: ok }],
        networkData: [],
        webLog: [],
        ariaSnapshot: '- heading "Your cart" [level=1]',
      },
      {
        keyword: 'Then',
        type: 'Outcome',
        text: 'I should see "Cart 2"',
        result: status === 'FAILED' ? { status: 'FAILED', message: 'Expected "Cart 2"', startTime: time, endTime: time } : ok,
        commands: [],
        networkData: [],
        webLog: [],
      },
    ],
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    webLog: [],
    networkLog: [],
    ...(status === 'FAILED' ? { failedStep: 1 } : {}),
  };
}

function report(cases: TestCase[], name?: string): RunReport {
  const time = new Date().toISOString();
  return {
    ...(name ? { name } : {}),
    env: { name: 'default', baseUrl: 'http://rehearse.test/demo-shop/' },
    startTime: time,
    endTime: new Date(Date.now() + 1234).toISOString(),
    mode: 'local',
    browser: 'chromium',
    viewport: { width: 1024, height: 768 },
    testCases: cases,
  };
}

describe.each(testBackends())('runs and reports on %s', (backend) => {
  let test: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let keyApi: ReturnType<TestApp['client']>;
  let projectId: string;

  beforeAll(async () => {
    test = await startTestApp(backend);
    owner = await signUp(test, { email: 'runs@acme.test' });
    projectId = owner.projectId;
    const { accessKey } = await owner.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId } });
    keyApi = test.client(accessKey.token);
  });
  afterAll(async () => test?.close());

  it("refuses artifact data that is not base64 with the spec's words and stores nothing, and takes it padded or not", async () => {
    const artifactCount = async () =>
      (await test.database.rows<{ n: number }>(`select count(*)::int as n from artifacts where project_id = '${projectId}'`))[0]!.n;
    const before = await artifactCount();
    for (const data of ['not base64!', 'aGk===', 'aG=k', 'aGk=\n', 'aGk-', 'aGk_', 'aGkh!', ' aGk', 'aG==aGk=', 'aGkha']) {
      const refused = await failure(keyApi.call(runnerCalls.uploadArtifact, { body: { projectId, contentType: 'image/png', data } }));
      expect({ data, status: refused.httpStatus, message: refused.message }).toEqual({
        data,
        status: 400,
        message: 'The artifact data must be base64.',
      });
    }
    expect(await artifactCount()).toBe(before);

    // "hi!" and "hi" padded, and "hi" without its padding: all three are stored.
    for (const data of ['aGkh', 'aGk=', 'aGk']) {
      const { id } = await keyApi.call(runnerCalls.uploadArtifact, { body: { projectId, contentType: 'text/plain', data } });
      expect(id).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('stores an uploaded run once, lists it, and serves its report, screenshots and memory', async () => {
    const { id: screenshotId } = await keyApi.call(runnerCalls.uploadArtifact, {
      body: { projectId, contentType: 'image/png', data: PNG },
    });
    expect(screenshotId).toMatch(/^[0-9a-f]{64}$/);
    const body = {
      projectId,
      uploadKey: 'run-key-0001',
      report: report([testCase('Buy a backpack', 'PASSED', screenshotId), testCase('Buy two', 'FAILED')], 'Nightly'),
    };
    const first = await keyApi.call(runnerCalls.uploadRun, { body });
    const again = await keyApi.call(runnerCalls.uploadRun, { body });
    expect(again.runId).toBe(first.runId);
    expect(first.reportLink).toBe(`http://rehearse.test/${projectId}/run-report/${first.runId}`);

    const { projectSummary } = await owner.api.call(runsCalls.getDetails, { body: { projectId } });
    expect(projectSummary.stats).toEqual({ pageCount: 1, total: 1, totalIsCapped: false });
    expect(projectSummary.report[0]).toMatchObject({
      id: first.runId,
      type: 'run',
      name: 'Nightly',
      status: 'FAILED',
      totalScenarios: 2,
      totalScenariosPassed: 1,
      failedStep: 'I should see "Cart 2"',
    });

    const { run } = await owner.api.call(runsCalls.getRun, { query: { runId: first.runId } });
    // An uploaded run belongs to no execution: nothing to follow live.
    expect(run.execution).toBeNull();
    // Spec 02 §3 "Run: id, type 'run', name, changes, …": nothing was healed in this run.
    expect(run.changes).toBe(0);
    expect(run.report.testCases.map((c) => [c.scenarioName, c.result.status])).toEqual([
      ['Buy a backpack', 'PASSED'],
      ['Buy two', 'FAILED'],
    ]);
    const testCaseId = run.report.testCases[0]!.id;
    const shot = await owner.api.call(runsCalls.runScreenshot, { params: { runId: first.runId, testCaseId, screenshotId } });
    expect([shot.image, shot.contentType]).toEqual([PNG, 'image/png']);
    expect((await owner.api.call(runsCalls.scenarioScreenshot, { params: { testCaseId, screenshotId } })).image).toBe(PNG);
    // Spec 02 §7 "GET screenshots/scenario/{a}/{b}[/{c}]": the three-segment form (run, scenario, screenshot) answers too.
    const threeSegments = await owner.api.call(runsCalls.scenarioRunScreenshot, {
      params: { runId: first.runId, testCaseId, screenshotId },
    });
    expect([threeSegments.image, threeSegments.contentType]).toEqual([PNG, 'image/png']);
    const raw = await test.app.inject({
      method: 'GET',
      url: `/api/runs/screenshots/scenario/${first.runId}/${testCaseId}/${screenshotId}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(raw.statusCode).toBe(200);
    // A scenario of another run under this run's id is no screenshot of it.
    const otherCase = run.report.testCases[1]!.id;
    expect(
      (
        await failure(
          owner.api.call(runsCalls.scenarioRunScreenshot, { params: { runId: first.runId, testCaseId: otherCase, screenshotId } }),
        )
      ).httpStatus,
    ).toBe(404);
    const scenario = await owner.api.call(runsCalls.getScenario, { query: { scenarioId: testCaseId } });
    expect(scenario.scenario.report.scenarioName).toBe('Buy a backpack');
    // The single scenario report's breadcrumb names its run.
    expect(scenario.scenario.runName).toBe('Nightly');

    const { memory } = await owner.api.call(runsCalls.applicationMemory, { query: { projectId } });
    expect(memory.paths['/demo-shop/cart.html']).toMatchObject({
      snapshot: '- heading "Your cart" [level=1]',
      pathsmap: { 'I open "/demo-shop/cart.html"': { path: '/demo-shop/cart.html' } },
    });

    const dashboard = await owner.api.call(runsCalls.dashboardDetails, { query: { projectId } });
    expect(dashboard.dashboardDetails).toEqual({ scenarioCountLastWeek: 2, runsCountLastWeek: 1, passedRunsCountLastWeek: 0 });
  });

  it("answers a run's changes (spec 02 §3): how many of its scenarios self-healing changed", async () => {
    const healed: TestCase = { ...testCase('Buy a lamp', 'PASSED'), result: { ...testCase('x', 'PASSED').result, status: 'FIXED_BY_AI' } };
    // A project of its own: the other tests count this project's runs.
    const other = await signUp(test, { email: 'changes@acme.test' });
    const { accessKey } = await other.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: other.projectId } });
    const { runId } = await test.client(accessKey.token).call(runnerCalls.uploadRun, {
      body: {
        projectId: other.projectId,
        uploadKey: 'run-key-changes',
        report: report([healed, testCase('Buy two', 'FAILED'), testCase('Buy one', 'PASSED')]),
      },
    });
    const { run } = await other.api.call(runsCalls.getRun, { query: { runId } });
    expect(run.changes).toBe(1);
  });

  it("keeps a scenario that passed on a retry flaky in its report, counts it in the reports list, and serves the run's JUnit and HTML report and the scenario's trace", async () => {
    // A project of its own: the other tests count this project's runs.
    const other = await signUp(test, { email: 'flaky@acme.test' });
    const { accessKey } = await other.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: other.projectId } });
    const key = test.client(accessKey.token);
    const upload = (contentType: 'application/xml' | 'text/html', text: string) =>
      key.call(runnerCalls.uploadArtifact, {
        body: { projectId: other.projectId, contentType, data: Buffer.from(text).toString('base64') },
      });
    const junit = (await upload('application/xml', '<testsuite name="Pay"/>')).id;
    const html = (await upload('text/html', '<!DOCTYPE html><title>Pay</title>')).id;
    const zip = Buffer.from('PK\x05\x06'.padEnd(22, '\0'), 'latin1');
    const trace = (
      await key.call(runnerCalls.uploadArtifact, {
        body: { projectId: other.projectId, contentType: 'application/zip', data: zip.toString('base64') },
      })
    ).id;
    const flaky: TestCase = {
      ...testCase('Pay with a card', 'PASSED'),
      attempts: 2,
      flaky: true,
      reportFiles: { junit, html },
      traceFileId: trace,
    };
    // A report may only name the project's own artifacts as its files and trace.
    const stranger = { ...flaky, reportFiles: { junit: 'f'.repeat(64) } };
    await expect(
      key.call(runnerCalls.uploadRun, {
        body: { projectId: other.projectId, uploadKey: 'run-key-stranger', report: report([stranger], 'Stranger') },
      }),
    ).rejects.toMatchObject({ httpStatus: 400 });
    const strangerTrace = { ...flaky, traceFileId: 'e'.repeat(64) };
    await expect(
      key.call(runnerCalls.uploadRun, {
        body: { projectId: other.projectId, uploadKey: 'run-key-stranger-trace', report: report([strangerTrace], 'Stranger') },
      }),
    ).rejects.toMatchObject({ httpStatus: 400 });
    const { runId } = await test.client(accessKey.token).call(runnerCalls.uploadRun, {
      body: {
        projectId: other.projectId,
        uploadKey: 'run-key-flaky',
        report: report([flaky, testCase('Pay in cash', 'PASSED')], 'Retried'),
      },
    });
    const { projectSummary } = await other.api.call(runsCalls.getDetails, { body: { projectId: other.projectId } });
    expect(projectSummary.report).toEqual([
      expect.objectContaining({ id: runId, status: 'PASSED', totalScenariosPassed: 2, flakyScenarios: 1 }),
    ]);
    const { run } = await other.api.call(runsCalls.getRun, { query: { runId } });
    expect(run.report.testCases.map((c) => [c.scenarioName, c.flaky ?? false, c.attempts ?? 1])).toEqual([
      ['Pay with a card', true, 2],
      ['Pay in cash', false, 1],
    ]);
    // The run's JUnit XML and HTML report come back from the scenario that names them, as saved.
    const stored = run.report.testCases[0]!;
    const file = await other.api.call(runsCalls.runScreenshot, { params: { runId, testCaseId: stored.id, screenshotId: html } });
    expect([Buffer.from(file.image, 'base64').toString('utf8'), file.contentType]).toEqual([
      '<!DOCTYPE html><title>Pay</title>',
      'text/html',
    ]);
    const xml = await other.api.call(runsCalls.runScreenshot, { params: { runId, testCaseId: stored.id, screenshotId: junit } });
    expect(xml.contentType).toBe('application/xml');
    // And its trace, for "Download trace".
    const traceFile = await other.api.call(runsCalls.runScreenshot, { params: { runId, testCaseId: stored.id, screenshotId: trace } });
    expect([traceFile.contentType, Buffer.from(traceFile.image, 'base64').equals(zip)]).toEqual(['application/zip', true]);
    // Not through a scenario that does not name it.
    await expect(
      other.api.call(runsCalls.runScreenshot, { params: { runId, testCaseId: run.report.testCases[1]!.id, screenshotId: html } }),
    ).rejects.toMatchObject({ httpStatus: 404 });
  });

  it("renders the run's HTML report from its cucumber messages on download, the uploader's markup kept as data", async () => {
    const other = await signUp(test);
    const { accessKey } = await other.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: other.projectId } });
    const key = test.client(accessKey.token);
    const hostileName = 'Pay </script><script>alert(1)</script>';
    const uploadTo = (api: typeof key, projectId: string, contentType: 'image/png' | 'application/xml', data: string) =>
      api.call(runnerCalls.uploadArtifact, { body: { projectId, contentType, data } }).then((answer) => answer.id);
    // Screenshots the messages name by reference: the project's own, one of its files that is no
    // screenshot, and another project's screenshot (the same bytes would share an id: these differ).
    const ownShot = await uploadTo(key, other.projectId, 'image/png', PNG);
    const notAShot = await uploadTo(key, other.projectId, 'application/xml', Buffer.from('<testsuite name="Pay"/>').toString('base64'));
    const intruder = await signUp(test);
    const { accessKey: intruderKey } = await intruder.api.call(authCalls.createAccessKey, {
      body: { name: 'ci', projectId: intruder.projectId },
    });
    const foreignPng = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.from('another project')]).toString('base64');
    const foreignShot = await uploadTo(test.client(intruderKey.token), intruder.projectId, 'image/png', foreignPng);
    const byReference = (id: string) =>
      JSON.stringify({
        attachment: { body: '', contentEncoding: 'BASE64', mediaType: 'image/png', fileName: `${id}.png`, url: `rehearse-artifact:${id}` },
      });
    const messages = [
      JSON.stringify({ meta: { protocolVersion: '27.0.0', implementation: { name: 'cucumber-js', version: '12.0.0' } } }),
      'not a message',
      '[1, 2]',
      JSON.stringify({ pickle: { id: 'p1', uri: 'features/pay.feature', name: hostileName, steps: [], tags: [], astNodeIds: [] } }),
      byReference(ownShot),
      byReference(notAShot),
      byReference(foreignShot),
      '',
    ].join('\n');
    const { id } = await key.call(runnerCalls.uploadArtifact, {
      body: { projectId: other.projectId, contentType: 'application/x-ndjson', data: Buffer.from(messages).toString('base64') },
    });
    const { runId } = await key.call(runnerCalls.uploadRun, {
      body: {
        projectId: other.projectId,
        uploadKey: 'run-key-messages',
        report: report([{ ...testCase('Pay', 'PASSED'), reportFiles: { messages: id } }], 'Messages'),
      },
    });
    const { run } = await other.api.call(runsCalls.getRun, { query: { runId } });
    const file = await other.api.call(runsCalls.runScreenshot, {
      params: { runId, testCaseId: run.report.testCases[0]!.id, screenshotId: id },
    });
    const page = Buffer.from(file.image, 'base64').toString('utf8');
    expect(file.contentType).toBe('text/html');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    // Cucumber's own page: its title and script, with the two messages (and nothing else) inlined.
    expect(page).toContain('<title>Cucumber</title>');
    expect(page).toContain('"uri":"features/pay.feature","name":"Pay \\x3C/script>\\x3Cscript>alert(1)\\x3C/script>"');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('not a message');
    // The project's screenshot is back in its attachment; the other two stay references, unread.
    expect(page).toContain(`"body":"${PNG}","contentEncoding":"BASE64","mediaType":"image/png","fileName":"${ownShot}.png"`);
    expect(page).not.toContain(`rehearse-artifact:${ownShot}`);
    expect(page).toContain(
      `"body":"","contentEncoding":"BASE64","mediaType":"image/png","fileName":"${notAShot}.png","url":"rehearse-artifact:${notAShot}"`,
    );
    expect(page).toContain(`"url":"rehearse-artifact:${foreignShot}"`);
    expect(page).not.toContain(foreignPng);
  });

  it('opens a trace through a signed link that names only that trace, dies with time, and serves the viewer itself', async () => {
    const other = await signUp(test);
    const { accessKey } = await other.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: other.projectId } });
    const key = test.client(accessKey.token);
    const zip = Buffer.from('PK\x05\x06'.padEnd(22, '\0'), 'latin1');
    const trace = (
      await key.call(runnerCalls.uploadArtifact, {
        body: { projectId: other.projectId, contentType: 'application/zip', data: zip.toString('base64') },
      })
    ).id;
    const failed: TestCase = { ...testCase('Pay with a card', 'FAILED'), traceFileId: trace };
    const { runId } = await key.call(runnerCalls.uploadRun, {
      body: {
        projectId: other.projectId,
        uploadKey: 'run-key-traced',
        report: report([failed, testCase('Pay in cash', 'PASSED')], 'Traced'),
      },
    });
    const { run } = await other.api.call(runsCalls.getRun, { query: { runId } });
    const [withTrace, withoutTrace] = run.report.testCases;

    const link = await other.api.call(runsCalls.traceLink, { query: { testCaseId: withTrace!.id } });
    expect(link.filePath).toMatch(/^\/trace-files\/trace\.zip\?link=[\w-]+\.[\w-]+$/);
    expect(link.viewerPath).toBe(`/trace-viewer/index.html?trace=${encodeURIComponent(link.filePath)}`);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    // The link is the credential: no session, as the viewer's service worker fetches it.
    const file = await test.app.inject({ method: 'GET', url: link.filePath });
    expect([file.statusCode, file.headers['content-type'], file.headers['cache-control'], file.rawPayload.equals(zip)]).toEqual([
      200,
      'application/zip',
      'no-store',
      true,
    ]);

    // A changed link, an expired one, and a scenario without a trace get the reason, not bytes.
    const signed = new URL(link.filePath, 'http://x').searchParams.get('link')!;
    const [body, mac] = signed.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...payload, testCaseId: withoutTrace!.id })).toString('base64url')}.${mac}`;
    for (const bad of [forged, 'garbage', 'a.b.c', `${signed}x`, '']) {
      const refused = await test.app.inject({ method: 'GET', url: `/trace-files/trace.zip?link=${encodeURIComponent(bad)}` });
      expect([bad, refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
        bad,
        404,
        'This trace link has expired or is not valid. Open the trace again from the scenario report.',
      ]);
    }
    const later = new Date(Date.now() + 31 * 60_000);
    await expect(test.services.runArtifacts.traceFile(signed, later)).rejects.toMatchObject({ statusCode: 404 });
    const none = await failure(other.api.call(runsCalls.traceLink, { query: { testCaseId: withoutTrace!.id } }));
    expect([none.httpStatus, none.message]).toEqual([
      404,
      'This scenario has no trace. Traces are kept for failed scenarios by default (trace in rehearse.config.json).',
    ]);
    // Another project's member gets no link.
    const stranger = await failure(owner.api.call(runsCalls.traceLink, { query: { testCaseId: withTrace!.id } }));
    expect(stranger.httpStatus).toBe(403);

    // Playwright's own viewer, from this server.
    const viewer = await test.app.inject({ method: 'GET', url: '/trace-viewer/index.html' });
    expect([viewer.statusCode, viewer.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(viewer.body).toContain('<title>Playwright Trace Viewer</title>');
    expect((await test.app.inject({ method: 'GET', url: '/trace-viewer/sw.bundle.js' })).statusCode).toBe(200);
  });

  it("counts each project's artifacts against its quota: an upload past it is a 413 with the reason, the same bytes again cost nothing", async () => {
    const small = await startTestApp('pglite', { ARTIFACT_QUOTA_MB: '1' });
    try {
      const user = await signUp(small);
      const { accessKey } = await user.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: user.projectId } });
      const key = small.client(accessKey.token);
      const upload = (fill: number, kib: number) =>
        key.call(runnerCalls.uploadArtifact, {
          body: { projectId: user.projectId, contentType: 'application/zip', data: Buffer.alloc(kib * 1024, fill).toString('base64') },
        });
      const first = await upload(1, 700);
      // The same bytes are stored once and counted once.
      expect((await upload(1, 700)).id).toBe(first.id);
      const refused = await failure(upload(2, 400));
      expect([refused.httpStatus, refused.message]).toEqual([
        413,
        'This project keeps at most 1 MB of screenshots, traces and reports, and this upload would pass it. Delete old runs, or ask the administrator to raise ARTIFACT_QUOTA_MB.',
      ]);
      // Nothing of the refused upload was kept; something that fits still goes in.
      expect(
        await small.services.runUploads.uploadArtifact(
          user.projectId,
          'image/png',
          Buffer.alloc(300 * 1024, 3).toString('base64'),
          10 * 1024 * 1024,
        ),
      ).toMatch(/^[0-9a-f]{64}$/);
      // Another project has its own quota.
      const other = await signUp(small);
      const { accessKey: otherKey } = await other.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: other.projectId } });
      await small.client(otherKey.token).call(runnerCalls.uploadArtifact, {
        body: { projectId: other.projectId, contentType: 'application/zip', data: Buffer.alloc(900 * 1024, 4).toString('base64') },
      });
    } finally {
      await small.close();
    }
  });

  it('filters, searches, pages and nests reruns', async () => {
    const single = await keyApi.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: 'single-0001', kind: 'scenario', report: report([testCase('Solo 100%_done', 'PASSED')]) },
    });
    const rerun = await keyApi.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: 'rerun-0001', rerunOf: single.runId, report: report([testCase('Solo 100%_done', 'PASSED')], 'Rerun') },
    });
    const list = (body: Record<string, unknown>) => owner.api.call(runsCalls.getDetails, { body: { projectId, ...body } });
    const passed = await list({ filterType: 'passed' });
    expect(passed.projectSummary.report.map((r) => [r.type, r.name, r.reruns.map((x) => x.id)])).toEqual([
      ['scenario', 'Solo 100%_done', [rerun.runId]],
    ]);
    expect((await list({ filterType: 'failed' })).projectSummary.report.map((r) => r.name)).toEqual(['Nightly']);
    expect((await list({ search: '100%' })).projectSummary.report.map((r) => r.name)).toEqual(['Solo 100%_done']);
    expect((await list({ search: '%' })).projectSummary.report).toHaveLength(1);
    const paged = await list({ limit: 1, page: 1 });
    expect(paged.projectSummary.stats).toEqual({ pageCount: 2, total: 2, totalIsCapped: false });
    expect(paged.projectSummary.report).toHaveLength(1);
  });

  it('sorts the list by name, status or duration in both directions, ties by the same direction', async () => {
    const team = await signUp(test, { email: 'sorting@acme.test' });
    const { accessKey } = await team.api.call(authCalls.createAccessKey, { body: { name: 'ci', projectId: team.projectId } });
    const key = test.client(accessKey.token);
    // Uploaded in this order (so publish times follow it), each taking the seconds given.
    for (const [name, status, seconds] of [
      ['Beta', 'PASSED', 3],
      ['Alpha', 'FAILED', 1],
      ['Gamma', 'PASSED', 2],
    ] as const) {
      const start = new Date(Date.now() - 60_000);
      await key.call(runnerCalls.uploadRun, {
        body: {
          projectId: team.projectId,
          uploadKey: `sort-${name}`,
          report: {
            ...report([testCase(`${name} scenario`, status)], name),
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + seconds * 1000).toISOString(),
          },
        },
      });
    }
    const names = async (sortField: string, sortOrder: string) =>
      (
        await team.api.call(runsCalls.getDetails, {
          body: { projectId: team.projectId, sortField: sortField as 'name', sortOrder: sortOrder as 'asc' },
        })
      ).projectSummary.report.map((row) => row.name);
    expect(await names('name', 'asc')).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names('name', 'desc')).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await names('executionTime', 'asc')).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(await names('executionTime', 'desc')).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(await names('status', 'asc')).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names('status', 'desc')).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await names('publishTime', 'desc')).toEqual(['Gamma', 'Alpha', 'Beta']);
  });

  it('keeps the search index free of a GIN pending list, which PGlite (no autovacuum) would never merge', async () => {
    const [index] = await test.database.rows<{ options: string[] | null }>(
      `select reloptions as options from pg_class where oid = to_regclass('runs_name_trgm_idx')`,
    );
    // Where pg_trgm could not be created (a restricted PostgreSQL role) there is no index to tune.
    if (index) expect(index.options).toContain('fastupdate=off');
    else expect(backend).toBe('postgres');
  });

  it('refuses garbage uploads cleanly', async () => {
    const start = (await owner.api.call(runsCalls.getDetails, { body: { projectId } })).projectSummary.stats.total;
    const wrongSchema = await test.app.inject({
      method: 'POST',
      url: '/api/runs/upload',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { projectId, uploadKey: 'garbage-0001', report: { testCases: 'nope' } },
    });
    expect(wrongSchema.statusCode).toBe(400);
    const unknownShot = await failure(
      keyApi.call(runnerCalls.uploadRun, {
        body: { projectId, uploadKey: 'garbage-0002', report: report([testCase('x', 'PASSED', 'f'.repeat(64))]) },
      }),
    );
    expect(unknownShot.message).toBe(`The report names a screenshot that was not uploaded: ${'f'.repeat(64)}`);
    const huge = await test.app.inject({
      method: 'POST',
      url: '/api/runs/upload-artifact',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ projectId, contentType: 'image/png', data: 'A'.repeat(50 * 1024 * 1024) }),
    });
    expect([huge.statusCode, huge.json().error]).toEqual([413, 'The request body is too large.']);
    expect(
      (await failure(keyApi.call(runnerCalls.uploadArtifact, { body: { projectId, contentType: 'image/png', data: '***' } }))).message,
    ).toBe('The artifact data must be base64.');
    const unknownRun = await failure(owner.api.call(runsCalls.getRun, { query: { runId: '6f1c3a57-2a53-4d0c-8f0a-0c1d2e3f4a5b' } }));
    expect([unknownRun.httpStatus, unknownRun.message]).toEqual([404, 'Run not found.']);

    const stranger = await signUp(test, { email: 'runs-stranger@else.test' });
    const { run } = await owner.api.call(runsCalls.getRun, {
      query: { runId: (await owner.api.call(runsCalls.getDetails, { body: { projectId } })).projectSummary.report[0]!.id },
    });
    const foreign = await failure(stranger.api.call(runsCalls.getRun, { query: { runId: run.id } }));
    expect([foreign.httpStatus, foreign.message]).toEqual([403, 'You do not have access to this project.']);
    const foreignRerun = await failure(
      stranger.api.call(runnerCalls.uploadRun, {
        body: { projectId: stranger.projectId, uploadKey: 'steal-0001', rerunOf: run.id, report: report([]) },
      }),
    );
    expect(foreignRerun.httpStatus).toBe(404);
    expect((await owner.api.call(runsCalls.getDetails, { body: { projectId } })).projectSummary.stats.total).toBe(start);
  });

  it('gives plain test data only to access keys, and comments only to their authors to change', async () => {
    await owner.api.call(workspaceCalls.changeTestData, {
      body: { projectId, testData: [{ key: 'password', value: 'plain-secret', DataType: 'secret', environment: '*' }] },
    });
    const refused = await failure(owner.api.call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } }));
    expect([refused.httpStatus, refused.message]).toEqual([
      403,
      'Test data values are only given to runs authenticated with an access key.',
    ]);
    const given = await keyApi.call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } });
    expect(given.testData).toEqual([{ key: 'password', value: 'plain-secret', DataType: 'secret' }]);

    // At an execution's pinned commit: the values it started with, whatever the branch has now.
    const { commit: pinned } = await owner.api.call(workspaceCalls.updateWorkspace, { body: { projectId } });
    await owner.api.call(workspaceCalls.changeTestData, {
      body: { projectId, testData: [{ key: 'password', value: 'changed-later', DataType: 'secret', environment: '*' }] },
    });
    const atPin = await keyApi.call(runnerCalls.runTestData, { body: { projectId, environment: 'default', commit: pinned } });
    expect(atPin.testData).toEqual([{ key: 'password', value: 'plain-secret', DataType: 'secret' }]);
    expect((await keyApi.call(runnerCalls.runTestData, { body: { projectId, environment: 'default' } })).testData[0]?.value).toBe(
      'changed-later',
    );
    const unknownCommit = await failure(
      keyApi.call(runnerCalls.runTestData, { body: { projectId, environment: 'default', commit: '0'.repeat(40) } }),
    );
    expect([unknownCommit.httpStatus, unknownCommit.message]).toEqual([404, "This commit does not exist in the project's workspace."]);
    const abbreviated = await failure(
      keyApi.call(runnerCalls.runTestData, { body: { projectId, environment: 'default', commit: pinned.slice(0, 12) } }),
    );
    expect([abbreviated.httpStatus, abbreviated.message]).toEqual([
      400,
      'Invalid commit: a full commit id (40 hexadecimal characters) is expected.',
    ]);

    const runId = (await owner.api.call(runsCalls.getDetails, { body: { projectId, filterType: 'failed' } })).projectSummary.report[0]!.id;
    const testCaseId = (await owner.api.call(runsCalls.getRun, { query: { runId } })).run.report.testCases[1]!.id;
    const { comment } = await owner.api.call(runsCalls.addComment, { body: { testCaseId, content: 'Flaky on Mondays' } });
    expect(comment).toMatchObject({ content: 'Flaky on Mondays', mine: true });
    expect((await failure(owner.api.call(runsCalls.addComment, { body: { testCaseId, content: '  ' } }))).message).toBe(
      'Comment cannot be empty.',
    );

    const { invitations } = await owner.api.call(authCalls.createInvitation, {
      body: { project_id: projectId, sent_to_email_list: ['colleague@acme.test'] },
    });
    const colleague = await signUp(test, { email: 'colleague@acme.test' });
    await colleague.api.call(authCalls.addMember, { body: { id: invitations[0]!.id } });
    const notYours = await failure(
      colleague.api.call(runsCalls.updateComment, { params: { id: comment._id }, body: { content: 'mine now' } }),
    );
    expect([notYours.httpStatus, notYours.message]).toEqual([403, 'You can only change your own comments.']);
    const seen = await colleague.api.call(runsCalls.getRun, { query: { runId } });
    expect(seen.run.report.testCases[1]!.comments).toEqual([expect.objectContaining({ content: 'Flaky on Mondays', mine: false })]);
    await owner.api.call(runsCalls.updateComment, { params: { id: comment._id }, body: { content: 'Fixed' } });
    await owner.api.call(runsCalls.deleteComment, { params: { id: comment._id } });
    expect((await owner.api.call(runsCalls.getRun, { query: { runId } })).run.report.testCases[1]!.comments).toEqual([]);
  });

  it("stores a CLI upload as a local run even when its report says cloud (spec 02 Run.mode: cloud only for the server's own jobs)", async () => {
    const { runId } = await keyApi.call(runnerCalls.uploadRun, {
      body: { projectId, uploadKey: 'run-key-mode', report: { ...report([testCase('Mode', 'PASSED')], 'Mode'), mode: 'cloud' } },
    });
    const { run } = await owner.api.call(runsCalls.getRun, { query: { runId } });
    expect(run.mode).toBe('local');
    const { projectSummary } = await owner.api.call(runsCalls.getDetails, { body: { projectId, search: 'Mode' } });
    expect(projectSummary.report.find((row) => row.id === runId)?.mode).toBe('local');
  });
  it("gives a report the previous results of its own series: a single scenario run its scenario's single runs, an upload the runs of its name", async () => {
    const upload = async (uploadKey: string, cases: TestCase[], name?: string, kind?: 'scenario') =>
      (await keyApi.call(runnerCalls.uploadRun, { body: { projectId, uploadKey, ...(kind ? { kind } : {}), report: report(cases, name) } }))
        .runId;
    const single1 = await upload('series-s1', [testCase('Series scenario', 'FAILED')], undefined, 'scenario');
    const weekly1 = await upload('series-w1', [testCase('Series scenario', 'PASSED'), testCase('Other', 'PASSED')], 'Series weekly');
    await upload('series-o1', [testCase('Series scenario', 'PASSED')], 'Series other');
    const single2 = await upload('series-s2', [testCase('Series scenario', 'PASSED')], undefined, 'scenario');
    const weekly2 = await upload('series-w2', [testCase('Series scenario', 'FAILED'), testCase('Other', 'PASSED')], 'Series weekly');

    const prev = async (runId: string) => (await owner.api.call(runsCalls.getRun, { query: { runId } })).run.report.prevResults;
    expect(await prev(single2)).toMatchObject({
      of: { kind: 'scenario', name: 'Series scenario' },
      runs: ['FAILED'],
      previousRuns: [{ id: single1, status: 'FAILED' }],
      scenarios: { 'Series scenario': ['FAILED'] },
    });
    expect(await prev(weekly2)).toMatchObject({
      of: { kind: 'name', name: 'Series weekly' },
      runs: ['PASSED'],
      previousRuns: [{ id: weekly1, status: 'PASSED' }],
      scenarios: { 'Series scenario': ['PASSED'], Other: ['PASSED'] },
    });
    expect(await prev(single1)).toMatchObject({ runs: [], previousRuns: [], scenarios: { 'Series scenario': [] } });
  });
});
