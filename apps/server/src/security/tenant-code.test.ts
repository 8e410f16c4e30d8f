import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, createApiClient } from '@rehearse/api-client';
import {
  executionCalls,
  runnerCalls,
  runsCalls,
  scenarioJobCalls,
  workerCalls,
  workspaceCalls as ws,
  type ScenarioJob,
} from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

// Issue 17, "Must show": a stranger who just signed up uploads step code (through the API, as a
// user would) that tries to read the server's key, the server's environment, another project's
// workspace, /etc/shadow and the worker token, and to write outside its folder; it runs through
// "Run scenario" and through an execution on a local worker. Every attempt must fail, and the run
// report shows what the step got. A leaked worker token replayed against another project's test
// data is refused.

const CANARY_SMTP = 'smtp://canary-user:canary-smtp-password@mail.invalid:25';
const CANARY_AI = 'canary-ai-api-key';
const HOST_FILE = path.join(tmpdir(), `rehearse-escape-${process.pid}.txt`);

/** The attacker's step: every attempt, then a failure whose message lists what each one got. */
function attackSteps(dataDir: string, victimProjectId: string, ownProjectId: string): string {
  return `import { Given } from '@cucumber/cucumber';
import fs from 'node:fs';
import net from 'node:net';

const DATA = ${JSON.stringify(dataDir)};
const VICTIM = ${JSON.stringify(victimProjectId)};
const OWN = ${JSON.stringify(ownProjectId)};
const got = (fn) => { try { const value = fn(); return 'GOT ' + String(value).slice(0, 80); } catch (error) { return error.code ?? error.message; } };

Given('I try to break out of the sandbox', async function () {
  // Any process whose environment or command line holds a worker token or the server's canaries.
  let holders = 0;
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\\d+$/.test(entry))) {
    for (const file of ['environ', 'cmdline']) {
      try { if (/rhw_|canary/.test(fs.readFileSync('/proc/' + pid + '/' + file, 'latin1'))) holders += 1; } catch {}
    }
  }
  const server = process.argv[process.argv.indexOf('--server') + 1];
  const call = async (url, init = {}) => {
    const response = await fetch(server + url, { ...init, headers: { authorization: 'Bearer ' + process.env.REHEARSE_TOKEN, 'content-type': 'application/json' } });
    return response.status + ' ' + (await response.text()).slice(0, 160);
  };
  const results = {
    serverKey: got(() => fs.readFileSync(DATA + '/secret.key', 'utf8')),
    dataDir: got(() => fs.readdirSync(DATA).join(',')),
    otherWorkspace: got(() => fs.readFileSync(DATA + '/workspaces/' + VICTIM + '/repo.git/HEAD', 'utf8')),
    shadow: got(() => fs.readFileSync('/etc/shadow', 'utf8')),
    passwd: got(() => fs.readFileSync('/etc/passwd', 'utf8')),
    smtpUrl: String(process.env.SMTP_URL),
    aiApiKey: String(process.env.AI_API_KEY),
    workerToken: String(process.env.REHEARSE_WORKER_TOKEN),
    processesHoldingSecrets: holders,
    writeDataDir: got(() => fs.writeFileSync(DATA + '/pwned.txt', 'x')),
    writeHostFile: got(() => fs.writeFileSync(${JSON.stringify(HOST_FILE)}, 'x')),
    writeUsr: got(() => fs.writeFileSync('/usr/pwned.txt', 'x')),
    keyOnOtherProject: await call('/api/runs/test-data', { method: 'POST', body: JSON.stringify({ projectId: VICTIM, environment: 'default' }) }),
    keyOnOtherCalls: await call('/api/workspace/testData?projectId=' + OWN + '&branch=main'),
    // The database on the host's loopback (PostgreSQL here trusts local connections).
    databasePort: await new Promise((resolve) => {
      const socket = net.connect(5432, '127.0.0.1', () => { socket.destroy(); resolve('GOT connected'); });
      socket.on('error', (error) => resolve(error.code));
    }),
  };
  throw new Error('ATTEMPTS ' + JSON.stringify(results));
});
`;
}

const FEATURE = `@attack
Feature: Curious

  Scenario: Break out
    Given I try to break out of the sandbox
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tenant code from a stranger stays in its sandbox', () => {
  let test: TestApp;
  let server: string;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let victim: Awaited<ReturnType<typeof signUp>>;
  const saved = { SMTP_URL: process.env.SMTP_URL, AI_API_KEY: process.env.AI_API_KEY };

  beforeAll(async () => {
    // The server's own environment holds the canaries, as a real server's would.
    process.env.SMTP_URL = CANARY_SMTP;
    process.env.AI_API_KEY = CANARY_AI;
    test = await startTestApp('pglite', {
      WORKER_PROCESSES: '1',
      LOCAL_WORKERS: '1',
      LOCAL_WORKER_THREADS: '1',
      SMTP_URL: CANARY_SMTP,
      AI_API_KEY: CANARY_AI,
    });
    // A default install keeps its generated key here.
    await writeFile(path.join(test.settings.dataDir, 'secret.key'), 'canary-server-key\n', { mode: 0o600 });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    server = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    victim = await signUp(test, { email: 'victim@acme.test' });
    await victim.api.call(ws.changeTestData, {
      body: {
        projectId: victim.projectId,
        testData: [{ key: 'password', value: 'victim-plain-secret', DataType: 'secret', environment: '*' }],
      },
    });
    stranger = await signUp(test, { email: 'stranger@elsewhere.test' });
    const { projectId } = stranger;
    await stranger.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${server}/demo-shop/` } } });
    await stranger.api.call(ws.pushFile, {
      body: {
        projectId,
        directory: 'features/step_definitions',
        file: { name: 'attack.mjs', content: attackSteps(test.settings.dataDir, victim.projectId, projectId) },
      },
    });
    await stranger.api.call(ws.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'curious.feature', content: FEATURE } },
    });
  }, 120_000);

  afterAll(async () => {
    process.env.SMTP_URL = saved.SMTP_URL;
    process.env.AI_API_KEY = saved.AI_API_KEY;
    if (saved.SMTP_URL === undefined) delete process.env.SMTP_URL;
    if (saved.AI_API_KEY === undefined) delete process.env.AI_API_KEY;
    await test?.close();
  });

  /** What the attack step reported, read back from the run report the way a user sees it. */
  async function attempts(runId: string): Promise<Record<string, string | number>> {
    const { run } = await stranger.api.call(runsCalls.getRun, { query: { runId } });
    expect(run.status).toBe('FAILED');
    const text = JSON.stringify(run.report);
    const start = text.indexOf('ATTEMPTS ');
    expect(start).toBeGreaterThan(-1);
    // The message sits JSON-escaped inside the report; parse the escaped object back.
    const escaped = /ATTEMPTS (\{.*?\})(?:\\n|")/.exec(text)?.[1];
    return JSON.parse(JSON.parse(`"${escaped}"`)) as Record<string, string | number>;
  }

  function expectEveryAttemptRefused(seen: Record<string, string | number>): void {
    expect(seen).toMatchObject({
      serverKey: 'ENOENT',
      dataDir: 'ENOENT',
      otherWorkspace: 'ENOENT',
      shadow: 'ENOENT',
      passwd: 'ENOENT',
      smtpUrl: 'undefined',
      aiApiKey: 'undefined',
      workerToken: 'undefined',
      processesHoldingSecrets: 0,
      writeDataDir: 'ENOENT',
      writeUsr: 'EROFS',
      // The job has no network of its own: the host's loopback is not there at all.
      databasePort: 'ECONNREFUSED',
    });
    // The job's key: another project's test data, and calls a run does not make, are refused.
    expect(seen.keyOnOtherProject).toMatch(/^403 /);
    expect(seen.keyOnOtherProject).toContain('This access key belongs to another project.');
    expect(seen.keyOnOtherCalls).toMatch(/^403 /);
    expect(seen.keyOnOtherCalls).toContain('This key belongs to a running job');
    // A write "outside" lands in the job's own throwaway /tmp, never on the host.
    expect(existsSync(HOST_FILE)).toBe(false);
    expect(existsSync(path.join(test.settings.dataDir, 'pwned.txt'))).toBe(false);
  }

  it('through Run scenario', { timeout: 240_000 }, async () => {
    const { job } = await stranger.api.call(scenarioJobCalls.runScenario, {
      body: { projectId: stranger.projectId, featureName: 'curious', scenarioName: 'Break out', environment: 'local' },
    });
    let done: ScenarioJob = job;
    for (let i = 0; i < 360 && (done.state === 'queued' || done.state === 'running'); i++) {
      await sleep(500);
      ({ job: done } = await stranger.api.call(scenarioJobCalls.scenarioJob, { params: { jobId: job.id } }));
    }
    expect(done.state).toBe('failed');
    expectEveryAttemptRefused(await attempts(done.runId!));
  });

  it('through an execution on a local worker', { timeout: 240_000 }, async () => {
    const { execution } = await stranger.api.call(executionCalls.create, {
      body: {
        projectId: stranger.projectId,
        name: 'Curious',
        env: 'local',
        flows: [{ scenarioGroups: [{ name: 'All', threadCount: 1, tags: ['@attack'] }] }],
      },
    });
    const { runId } = await stranger.api.call(executionCalls.run, { params: { id: execution.id } });
    for (let i = 0; i < 360; i++) {
      if (!(await test.services.engine.status(execution.id)).running) break;
      await sleep(500);
    }
    expect(await test.services.engine.status(execution.id)).toMatchObject({ running: false, scenariosFailed: 1 });
    expectEveryAttemptRefused(await attempts(runId));
  });

  it('a leaked worker token cannot read any project’s test data', async () => {
    const { token } = await test.services.workerTokens.create('leaked');
    const leaked = createApiClient({ baseUrl: server, getToken: () => token });
    const refused = await leaked
      .call(runnerCalls.runTestData, { body: { projectId: victim.projectId, environment: 'default' } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).httpStatus).toBe(401);
    const masked = await leaked
      .call(ws.getTestData, { query: { projectId: victim.projectId, branch: 'main' } })
      .catch((error: unknown) => error);
    expect((masked as ApiError).httpStatus).toBe(401);
    // Its claims hand out only job keys: with nothing queued there is nothing to claim.
    expect((await leaked.call(workerCalls.claim, { body: { workerId: 'leaked-token-test', waitMs: 0 } })).job).toBeNull();
  });
});
