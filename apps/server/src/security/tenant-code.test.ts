import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, createApiClient } from '@rehearse/api-client';
import { executionCalls, runnerCalls, runsCalls, workerCalls, workspaceCalls as ws, type ScenarioJob } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionFinished } from '../testing/execution-finished.js';
import { runScenarioToEnd } from '../testing/scenario-job.js';
import { signUp, startTestApp, type TestApp } from '../testing/test-app.js';

// Issue 17, "Must show": a stranger who just signed up uploads step code (through the API, as a
// user would) that tries to read the server's key, the server's environment, another project's
// workspace, /etc/shadow and the worker token, and to write outside its folder; it runs through
// "Run scenario" and through an execution on a local worker. Every attempt must fail, and the run
// report shows what the step got. A leaked worker token replayed against another project's test
// data is refused. On a warm runner (issue 21) the step shares a long-lived process with the
// runner: no key is in its environment, so it captures the key the runner's own calls carry, keeps
// its hook across clicks, and tries the keys of earlier jobs too.

const CANARY_SMTP = 'smtp://canary-user:canary-smtp-password@mail.invalid:25';
const CANARY_AI = 'canary-ai-api-key';
const HOST_FILE = path.join(tmpdir(), `rehearse-escape-${process.pid}.txt`);

/** The attacker's step: every attempt, then a failure whose message lists what each one got. */
function attackSteps(dataDir: string, victimProjectId: string, ownProjectId: string): string {
  return `import { Given } from '@cucumber/cucumber';
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import net from 'node:net';

const DATA = ${JSON.stringify(dataDir)};
const VICTIM = ${JSON.stringify(victimProjectId)};
const OWN = ${JSON.stringify(ownProjectId)};
const got = (fn) => { try { const value = fn(); return 'GOT ' + String(value).slice(0, 80); } catch (error) { return error.code ?? error.message; } };

// Every key the runner's own HTTP calls carry, seen from inside its process through Node's public
// diagnostics channel; loaded once, the hook stays for every later click a warm runner serves.
const state = (globalThis.__attack ??= { keys: [], runs: 0 });
if (!state.hooked) {
  state.hooked = true;
  diagnostics.subscribe('undici:request:create', ({ request }) => {
    const key = /Bearer ([^"\\s,]+)/.exec(JSON.stringify(request.headers))?.[1];
    if (key && !state.keys.includes(key)) state.keys.push(key);
  });
}

Given('I try to break out of the sandbox', async function () {
  state.runs += 1;
  // Any process whose environment or command line holds a worker token or the server's canaries.
  let holders = 0;
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\\d+$/.test(entry))) {
    for (const file of ['environ', 'cmdline']) {
      try { if (/rhw_|canary/.test(fs.readFileSync('/proc/' + pid + '/' + file, 'latin1'))) holders += 1; } catch {}
    }
  }
  const server = process.argv[process.argv.indexOf('--server') + 1];
  // The job's key: from the environment when the run has one, else the latest one captured.
  const key = process.env.REHEARSE_TOKEN ?? state.keys.at(-1);
  const call = async (url, init = {}, withKey = key) => {
    const response = await fetch(server + url, { ...init, headers: { authorization: 'Bearer ' + withKey, 'content-type': 'application/json' } });
    return response.status + ' ' + (await response.text()).slice(0, 160);
  };
  const ownTestData = { method: 'POST', body: JSON.stringify({ projectId: OWN, environment: 'local' }) };
  const earlierKeys = [];
  for (const earlier of state.keys.filter((seen) => seen !== key)) earlierKeys.push((await call('/api/runs/test-data', ownTestData, earlier)).slice(0, 3));
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
    keySource: process.env.REHEARSE_TOKEN ? 'environment' : key ? 'captured' : 'none',
    runsInThisProcess: state.runs,
    earlierKeys: earlierKeys.join(','),
    keyOnOwnRun: (await call('/api/runs/test-data', ownTestData)).slice(0, 3),
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

/** Two attack scenarios for one run: a worker thread runs them one after the other. */
const TWICE = `@twice
Feature: Curious twice

  Scenario: Break out first
    Given I try to break out of the sandbox

  Scenario: Break out again
    Given I try to break out of the sandbox
`;

type Member = Awaited<ReturnType<typeof signUp>>;

/** A server whose environment holds the canaries, a victim with a secret, and a stranger with the attack pushed. */
async function startAttackedServer(
  env: Record<string, string>,
): Promise<{ test: TestApp; server: string; stranger: Member; victim: Member }> {
  const test = await startTestApp('pglite', { ...env, SMTP_URL: CANARY_SMTP, AI_API_KEY: CANARY_AI });
  // A default install keeps its generated key here.
  await writeFile(path.join(test.settings.dataDir, 'secret.key'), 'canary-server-key\n', { mode: 0o600 });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const server = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  const victim = await signUp(test, { email: 'victim@acme.test' });
  await victim.api.call(ws.changeTestData, {
    body: {
      projectId: victim.projectId,
      testData: [{ key: 'password', value: 'victim-plain-secret', DataType: 'secret', environment: '*' }],
    },
  });
  const stranger = await signUpAttacker(test, server, 'stranger@elsewhere.test', victim.projectId);
  return { test, server, stranger, victim };
}

/** A stranger who signs up and pushes the attack (aimed at `victimProjectId`), as a user would through the API. */
async function signUpAttacker(test: TestApp, server: string, email: string, victimProjectId: string): Promise<Member> {
  const attacker = await signUp(test, { email });
  const { projectId } = attacker;
  await attacker.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${server}/demo-shop/` } } });
  await attacker.api.call(ws.pushFile, {
    body: {
      projectId,
      directory: 'features/step_definitions',
      file: { name: 'attack.mjs', content: attackSteps(test.settings.dataDir, victimProjectId, projectId) },
    },
  });
  await attacker.api.call(ws.pushFile, {
    body: { projectId, directory: 'features', file: { name: 'curious.feature', content: FEATURE } },
  });
  return attacker;
}

/** What the attack step reported, read back from the run report the way a user sees it. */
async function attempts(stranger: Member, runId: string): Promise<Record<string, string | number>> {
  const [first] = await attemptsOfEachScenario(stranger, runId, 1);
  return first!;
}

/** What each of a run's `count` attack scenarios reported, in the order the runner ran them. */
async function attemptsOfEachScenario(stranger: Member, runId: string, count: number): Promise<Record<string, string | number>[]> {
  const { run } = await stranger.api.call(runsCalls.getRun, { query: { runId } });
  expect(run.status).toBe('FAILED');
  expect(run.report.testCases).toHaveLength(count);
  return run.report.testCases
    .map((testCase) => {
      const text = JSON.stringify(testCase);
      // The message sits JSON-escaped inside the report; parse the escaped object back.
      const escaped = /ATTEMPTS (\{.*?\})(?:\\n|")/.exec(text)?.[1];
      expect(escaped).toBeDefined();
      return JSON.parse(JSON.parse(`"${escaped}"`)) as Record<string, string | number>;
    })
    .sort((a, b) => Number(a.runsInThisProcess) - Number(b.runsInThisProcess));
}

function expectEveryAttemptRefused(test: TestApp, seen: Record<string, string | number>): void {
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
    // The key the step holds is the job's own, good for the calls its run makes...
    keyOnOwnRun: '200',
  });
  // ...but another project's test data, and calls a run does not make, are refused.
  expect(seen.keyOnOtherProject).toMatch(/^403 /);
  expect(seen.keyOnOtherProject).toContain('This access key belongs to another project.');
  expect(seen.keyOnOtherCalls).toMatch(/^403 /);
  expect(seen.keyOnOtherCalls).toContain('This key belongs to a running job');
  // A write "outside" lands in the job's own throwaway /tmp, never on the host.
  expect(existsSync(HOST_FILE)).toBe(false);
  expect(existsSync(path.join(test.settings.dataDir, 'pwned.txt'))).toBe(false);
}

/** Starts an execution of the scenarios tagged `tag` (one thread) and waits until its `failed` scenarios have ended. */
async function executeToEnd(test: TestApp, member: Member, tag: string, failed: number): Promise<{ runId: string; executionId: string }> {
  const { execution } = await member.api.call(executionCalls.create, {
    body: {
      projectId: member.projectId,
      name: `Curious ${tag}`,
      env: 'local',
      flows: [{ scenarioGroups: [{ name: 'All', threadCount: 1, tags: [tag] }] }],
    },
  });
  const { runId } = await member.api.call(executionCalls.run, { params: { id: execution.id } });
  expect(await executionFinished(test, execution.id)).toMatchObject({ running: false, scenariosFailed: failed });
  return { runId, executionId: execution.id };
}

/** "Run scenario" on the attack, as the stranger clicks it; the finished job. */
const runScenario = (stranger: Member): Promise<ScenarioJob> =>
  runScenarioToEnd(stranger.api, {
    projectId: stranger.projectId,
    featureName: 'curious',
    scenarioName: 'Break out',
    environment: 'local',
  });

/** The server's own environment holds the canaries while a test runs, as a real server's would. */
function withCanariesInEnvironment(): void {
  const saved = { SMTP_URL: process.env.SMTP_URL, AI_API_KEY: process.env.AI_API_KEY };
  beforeAll(() => {
    process.env.SMTP_URL = CANARY_SMTP;
    process.env.AI_API_KEY = CANARY_AI;
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

describe('tenant code from a stranger stays in its sandbox', () => {
  let test: TestApp;
  let server: string;
  let stranger: Member;
  let victim: Member;
  withCanariesInEnvironment();

  beforeAll(async () => {
    // Everything started afresh: "Run scenario" without warm runners, workers with a process per scenario.
    ({ test, server, stranger, victim } = await startAttackedServer({
      WORKER_PROCESSES: '1',
      WARM_RUNNERS: 'false',
      LOCAL_WORKERS: '1',
      LOCAL_WORKER_THREADS: '1',
      LOCAL_WORKER_PROCESS_PER_SCENARIO: 'true',
    }));
  }, 120_000);

  afterAll(async () => {
    await test?.close();
  });

  it('through Run scenario, started afresh for the click', { timeout: 240_000 }, async () => {
    const done = await runScenario(stranger);
    expect(done.state).toBe('failed');
    const seen = await attempts(stranger, done.runId!);
    expect(seen.keySource).toBe('environment');
    expectEveryAttemptRefused(test, seen);
  });

  it('through an execution on a local worker, a process per scenario', { timeout: 240_000 }, async () => {
    const { runId } = await executeToEnd(test, stranger, '@attack', 1);
    const seen = await attempts(stranger, runId);
    // A job process of its own has the job's key in its environment.
    expect(seen.keySource).toBe('environment');
    expectEveryAttemptRefused(test, seen);
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

describe('tenant code from a stranger on a warm runner', () => {
  let test: TestApp;
  let stranger: Member;
  withCanariesInEnvironment();

  beforeAll(async () => {
    ({ test, stranger } = await startAttackedServer({ WORKER_PROCESSES: '1', WARM_RUNNERS: 'true', LOCAL_WORKERS: '0' }));
  }, 120_000);

  afterAll(async () => {
    await test?.close();
  });

  it('captures the job key inside the runner, and it opens nothing beyond its own run', { timeout: 240_000 }, async () => {
    const done = await runScenario(stranger);
    expect(done.state).toBe('failed');
    const seen = await attempts(stranger, done.runId!);
    // No key in the environment: the one tried is the one the runner's own calls carried.
    expect(seen).toMatchObject({ keySource: 'captured', runsInThisProcess: 1 });
    expectEveryAttemptRefused(test, seen);
  });

  it('keeps its hook for the next click, where the earlier job’s key is dead', { timeout: 240_000 }, async () => {
    const done = await runScenario(stranger);
    expect(done.state).toBe('failed');
    const seen = await attempts(stranger, done.runId!);
    // The same process served both clicks (it is warm), and held two keys: the first one is refused.
    expect(seen).toMatchObject({ keySource: 'captured', runsInThisProcess: 2, earlierKeys: '401' });
    expectEveryAttemptRefused(test, seen);
  });
});

// Issue 21: a worker thread keeps a warm runner for the jobs of one execution run. Tenant code
// then shares a process with the later jobs of its own run (as cucumber-js shares one with every
// scenario), and must see nothing of any other run: not a later run of its own execution, not
// another project's. One worker thread serves all three runs here, so each lands on it.
describe('tenant code from a stranger on a worker thread’s warm runner', () => {
  let test: TestApp;
  let stranger: Member;
  let secondStranger: Member;
  withCanariesInEnvironment();

  beforeAll(async () => {
    let server: string;
    ({ test, server, stranger } = await startAttackedServer({
      WORKER_PROCESSES: '1',
      WARM_RUNNERS: 'false',
      LOCAL_WORKERS: '1',
      LOCAL_WORKER_THREADS: '1',
    }));
    await stranger.api.call(ws.pushFile, {
      body: { projectId: stranger.projectId, directory: 'features', file: { name: 'twice.feature', content: TWICE } },
    });
    secondStranger = await signUpAttacker(test, server, 'second-stranger@elsewhere.test', stranger.projectId);
  }, 120_000);

  afterAll(async () => {
    await test?.close();
  });

  it('serves the jobs of one run in one process, each job with its own key, the earlier job’s key dead', { timeout: 240_000 }, async () => {
    const { runId } = await executeToEnd(test, stranger, '@twice', 2);
    const [first, second] = await attemptsOfEachScenario(stranger, runId, 2);
    expect(first).toMatchObject({ keySource: 'captured', runsInThisProcess: 1, earlierKeys: '' });
    // The second job ran in the same (warm) process, which captured the first job's key too: dead now.
    expect(second).toMatchObject({ keySource: 'captured', runsInThisProcess: 2, earlierKeys: '401' });
    expectEveryAttemptRefused(test, first!);
    expectEveryAttemptRefused(test, second!);
  });

  it('starts a fresh runner for a later run of the same project: nothing the earlier run left is there', { timeout: 240_000 }, async () => {
    const { runId } = await executeToEnd(test, stranger, '@attack', 1);
    const seen = await attempts(stranger, runId);
    expect(seen).toMatchObject({ keySource: 'captured', runsInThisProcess: 1, earlierKeys: '' });
    expectEveryAttemptRefused(test, seen);
  });

  it(
    'starts a fresh runner for another project’s run: its code sees no global, hook or key of the first',
    { timeout: 240_000 },
    async () => {
      const { runId } = await executeToEnd(test, secondStranger, '@attack', 1);
      const seen = await attempts(secondStranger, runId);
      expect(seen).toMatchObject({ keySource: 'captured', runsInThisProcess: 1, earlierKeys: '' });
      expectEveryAttemptRefused(test, seen);
    },
  );
});
