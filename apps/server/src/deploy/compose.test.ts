import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '@rehearse/api-client';
import { adminCalls, authCalls, executionCalls, runsCalls, workspaceCalls as ws, type RunExecution } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage, buildPostgresImage, canRunContainers, podman, podmanEnv, waitForHealthy } from '../testing/containers.js';
import { freePort } from '../testing/ports.js';

// Issue 42, "Must show": the team install in one file (deploy/compose.yaml) run with podman-compose:
// PostgreSQL, one API, one scheduler and two worker containers. An execution of 2 flows × 3 threads
// over 12 scenarios runs to the end while one worker container is killed mid-run: the killed
// worker's scenarios go back to the queue when their lease lapses and run on the other worker,
// every scenario exactly once, and the one scenario the shop cannot satisfy fails.

const COMPOSE_FILE = fileURLToPath(new URL('../../../../deploy/compose.yaml', import.meta.url));
const PROJECT = `rehearse-compose-${process.pid}`;

/** Six scenarios per flow; "Golden Teapot" is not in the shop, so exactly one fails. */
function feature(tag: string, count: number, failing: boolean): string {
  const scenarios = Array.from({ length: count }, (_, index) => {
    const last = index === count - 1 && failing;
    return `  Scenario: ${tag} shopper ${index + 1}
    Given I open "/"
    Then I should see "${last ? 'Golden Teapot of Nowhere' : 'Enamel Camp Mug'}"
    When I click "Add Enamel Camp Mug to cart"
    Then I should see "Added Enamel Camp Mug"
`;
  });
  return `@${tag}\nFeature: Shoppers ${tag}\n\n${scenarios.join('\n')}`;
}

function compose(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'podman-compose',
      ['-p', PROJECT, '-f', COMPOSE_FILE, ...args],
      { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`podman-compose ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

const container = (service: string) => `${PROJECT}_${service}_1`;

describe.skipIf(!canRunContainers() && !process.env.CI)('the compose install: PostgreSQL, API, scheduler, two workers', () => {
  let env: NodeJS.ProcessEnv;
  let base: string;
  let api: ApiClient;

  beforeAll(async () => {
    const [image, postgres] = await Promise.all([buildImage(), buildPostgresImage()]);
    const port = await freePort();
    env = {
      ...podmanEnv(),
      REHEARSE_IMAGE: image,
      POSTGRES_IMAGE: postgres,
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      REHEARSE_SECRET_KEY: randomBytes(32).toString('hex'),
      REHEARSE_WORKER_TOKEN: `rhw_${randomBytes(16).toString('hex')}`,
      REHEARSE_PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Podman's narrower form of the one privilege the sandbox needs.
      REHEARSE_PROC_OPTION: 'unmask=/proc/*',
      // A killed worker's scenarios come back after 10 s instead of 30.
      WORKER_LEASE_SECONDS: '10',
    };
    await compose(['up', '-d'], env);
    base = `http://127.0.0.1:${port}`;
    // The API may start before PostgreSQL accepts connections; its restart policy brings it back.
    await waitForHealthy(`${base}/api/health`, 120_000, () => podman(['logs', '--tail', '60', container('api')]));
  }, 20 * 60_000);

  afterAll(async () => {
    if (env) await compose(['down', '--volumes', '--timeout', '2'], env).catch(() => undefined);
    await podman(['network', 'rm', '--force', `${PROJECT}_default`]).catch(() => undefined);
  });

  it('runs 2 flows × 3 threads over 12 scenarios to the end while one worker container is killed', { timeout: 600_000 }, async () => {
    const health = (await (await fetch(`${base}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: true, database: 'postgres' });
    const signedUp = await createApiClient({ baseUrl: base }).call(authCalls.signup, {
      body: { email: 'lead@team.test', password: 'correct horse battery staple', firstname: 'Lee', lastname: 'Lead' },
    });
    api = createApiClient({ baseUrl: base, getToken: () => signedUp.token });
    const projectId = signedUp.project._id;
    // The first user administers the instance: six threads for 2 flows × 3 (a project starts with 2).
    await api.call(adminCalls.updateProject, { params: { projectId }, body: { maxExecutionThreads: 6 } });
    // The shop as the workers reach it: the API container on the compose network.
    await api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: 'http://api:4000/demo-shop/' } } });
    await api.call(ws.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'a.feature', content: feature('a', 6, false) } },
    });
    await api.call(ws.pushFile, {
      body: { projectId, directory: 'features', file: { name: 'b.feature', content: feature('b', 6, true) } },
    });

    const { execution } = await api.call(executionCalls.create, {
      body: {
        projectId,
        name: 'Nightly on the team install',
        env: 'local',
        flows: [
          { scenarioGroups: [{ name: 'Flow A', threadCount: 3, tags: ['@a'] }] },
          { scenarioGroups: [{ name: 'Flow B', threadCount: 3, tags: ['@b'] }] },
        ],
      },
    });
    const { runId } = await api.call(executionCalls.run, { params: { id: execution.id } });
    const progress = async (): Promise<RunExecution | null> =>
      (await api.call(runsCalls.getRun, { query: { runId } })).run.execution ?? null;

    // Kill worker 1 while it holds scenarios: the agents list shows its threads busy.
    const workerOneHost = await podman(['inspect', '--format', '{{.Config.Hostname}}', container('worker-1')]);
    const deadline = Date.now() + 300_000;
    let busyThreads = 0;
    while (busyThreads === 0) {
      if (Date.now() > deadline) throw new Error(`worker 1 never took a scenario: ${JSON.stringify(await progress())}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { agents } = await api.call(adminCalls.listWorkers);
      busyThreads = agents.find((agent) => agent.host === workerOneHost)?.busyThreads ?? 0;
    }
    let status = await progress();
    expect(status?.running).toBe(true);
    await podman(['kill', '--signal', 'KILL', container('worker-1')]);
    // Stopped by hand, so the restart policy leaves it down.
    await podman(['stop', '--time', '0', container('worker-1')]).catch(() => undefined);

    while (status?.running !== false) {
      if (Date.now() > deadline) throw new Error(`the execution did not finish: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await progress();
    }
    expect(status).toMatchObject({ totalScenarios: 12, scenariosPassed: 11, scenariosFailed: 1, scenariosErrored: 0 });

    const { run } = await api.call(runsCalls.getRun, { query: { runId } });
    const names = run.report.testCases.map((testCase) => testCase.scenarioName).sort();
    // Every scenario exactly once: none lost with the killed worker, none reported twice.
    expect(names).toEqual(['a', 'b'].flatMap((tag) => Array.from({ length: 6 }, (_, index) => `${tag} shopper ${index + 1}`)).sort());
    const failed = run.report.testCases.filter((testCase) => testCase.result.status === 'FAILED');
    expect(failed.map((testCase) => testCase.scenarioName)).toEqual(['b shopper 6']);
    // The killed worker is gone; the other one finished the run.
    expect(await podman(['inspect', '--format', '{{.State.Running}}', container('worker-1')])).toBe('false');
    expect(await podman(['inspect', '--format', '{{.State.Running}}', container('worker-2')])).toBe('true');
  });
});
