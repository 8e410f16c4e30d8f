import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { RunResult, runnerCalls } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { breakBrowserLaunch } from '../testing/broken-browser.js';
import { useDemoShopWorkspaces } from '../testing/demo-shop-suite.js';
import { captureIo } from '../testing/output.js';
import { processIo } from './io.js';
import { runRun } from './run.js';

const shop = useDemoShopWorkspaces();

const FEATURE = `Feature: Result

  Scenario: Home lists the mug
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  Scenario: Home lists a unicorn saddle
    Given I open "/"
    Then I should see "Unicorn saddle"
`;

const PROJECT_ID = '11111111-1111-4111-8111-111111111111';
const RUN_ID = '22222222-2222-4222-8222-222222222222';

/** A stand-in for the runs service: test data and artifacts answered; the report upload answered, or refused with a 500. */
async function startServer(uploads: 'accept' | 'refuse'): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.url === runnerCalls.runTestData.path) return send(200, { status: true, testData: [] });
      if (request.url === runnerCalls.uploadArtifact.path) return send(200, { status: true, id: 'a'.repeat(64) });
      if (request.url === runnerCalls.uploadRun.path)
        return uploads === 'accept'
          ? send(200, { status: true, runId: RUN_ID, reportLink: `/${PROJECT_ID}/run-report/${RUN_ID}` })
          : send(500, { status: false, error: 'The database is down' });
      return send(404, { status: false, error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs one scenario in-process with --result-file; answers what runRun returned and what the file holds. */
async function run(scenario: string, extra: string[] = []) {
  const ws = shop.workspace({ feature: FEATURE });
  const file = path.join(ws, 'result.json');
  const io = captureIo();
  const returned = await runRun(
    [
      '--env',
      'environments/default.json',
      '--headless',
      '--scenario',
      scenario,
      '--out',
      path.join(ws, 'out'),
      '--result-file',
      file,
      ...extra,
    ],
    { ...processIo(), cwd: ws, stdout: io.stdout, stderr: io.stderr },
  );
  const written = RunResult.parse(JSON.parse(readFileSync(file, 'utf8')));
  expect(written).toEqual(returned);
  return returned;
}

describe('rehearse run --result-file: the typed result a caller reads instead of the output', () => {
  it('a passed and uploaded run: exit 0, the run and its link, no error', async () => {
    const server = await startServer('accept');
    try {
      expect(await run('Home lists the mug', ['--server', server.url, '--token', 'rhk_test', '--project', PROJECT_ID])).toEqual({
        exitCode: 0,
        runId: RUN_ID,
        reportLink: `${server.url}/${PROJECT_ID}/run-report/${RUN_ID}`,
        errorClass: 'none',
        reason: null,
      });
    } finally {
      await server.close();
    }
  });

  it('a failed scenario is test-failed, with the scenario and its failure as the reason', async () => {
    const result = await run('Home lists a unicorn saddle');
    expect(result).toMatchObject({ exitCode: 1, runId: null, reportLink: null, errorClass: 'test-failed' });
    expect(result.reason).toMatch(/^Home lists a unicorn saddle: .*Unicorn saddle/);
  });

  it('a passed scenario whose report the server refuses is an infrastructure error, not a failed test', { timeout: 60_000 }, async () => {
    const server = await startServer('refuse');
    try {
      const result = await run('Home lists the mug', ['--server', server.url, '--token', 'rhk_test', '--project', PROJECT_ID]);
      expect(result).toMatchObject({ exitCode: 1, runId: null, reportLink: null, errorClass: 'infrastructure' });
      expect(result.reason).toMatch(/^Uploading the report failed: The database is down \(HTTP 500/);
    } finally {
      await server.close();
    }
  });

  it('a browser that does not start is an infrastructure error, though cucumber failed the scenario', async () => {
    // A "browser" that exits at once: Playwright's launch fails.
    const restore = breakBrowserLaunch();
    try {
      const result = await run('Home lists the mug');
      expect(result).toMatchObject({ exitCode: 1, errorClass: 'infrastructure' });
      expect(result.reason).toMatch(/^The browser did not start: /);
    } finally {
      restore();
    }
  });

  it('a setup error still writes the file (infrastructure, exit 2) before the usage error reaches the CLI', async () => {
    const ws = shop.workspace({ feature: FEATURE });
    const file = path.join(ws, 'result.json');
    await expect(
      runRun(['--env', 'environments/missing.json', '--result-file', file], { ...processIo(), cwd: ws, ...captureIo() }),
    ).rejects.toThrow('No environment file environments/missing.json');
    expect(existsSync(file)).toBe(true);
    expect(RunResult.parse(JSON.parse(readFileSync(file, 'utf8')))).toEqual({
      exitCode: 2,
      runId: null,
      reportLink: null,
      errorClass: 'infrastructure',
      reason: 'No environment file environments/missing.json',
    });
  });
});
