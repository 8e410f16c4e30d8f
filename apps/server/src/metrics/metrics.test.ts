import type { AddressInfo } from 'node:net';
import { executionCalls, scenarioJobCalls, systemCalls, workerCalls, workspaceCalls as ws } from '@rehearse/contract';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApp, testBackends, type TestApp } from '../testing/test-app.js';
import { parsePrometheusText, type Family } from './prometheus-text.js';

const TOKEN = 'metrics-token-0123456789';

const FEATURE = `Feature: Plan

  @a
  Scenario: Alpha one
    Given I open "/"

  @a
  Scenario: Alpha two
    Given I open "/"
`;

/** Scrapes /metrics through the app as Prometheus would. */
async function scrape(test: TestApp, authorization?: string) {
  return test.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
}

/** Parses exposition text strictly (it throws on any line Prometheus would refuse). */
const families = parsePrometheusText;

/** The value of one gauge or counter series (labels matched exactly). */
function sample(parsed: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  return parsed.get(name)?.samples.find((found) => JSON.stringify(found.labels) === JSON.stringify(labels))?.value;
}

/** The observation count of one histogram series (its `_count` sample). */
function histogramCount(parsed: Map<string, Family>, name: string, labels: Record<string, string>): number {
  const found = parsed
    .get(name)
    ?.samples.find(
      (candidate) => candidate.name === `${name}_count` && Object.entries(labels).every(([key, value]) => candidate.labels[key] === value),
    );
  return found?.value ?? 0;
}

describe('the strict exposition reader the tests use', () => {
  const good =
    '# HELP a_seconds A.\n# TYPE a_seconds histogram\na_seconds_bucket{le="1",k="x"} 1\na_seconds_bucket{le="+Inf",k="x"} 2\na_seconds_sum{k="x"} 3.5\na_seconds_count{k="x"} 2\n';

  it('reads families, label escapes and histogram series', () => {
    const parsed = parsePrometheusText(`${good}# TYPE g gauge\ng{path="C:\\\\x",q="say \\"hi\\""} -1.5e3\n`);
    expect(parsed.get('a_seconds')).toMatchObject({ type: 'histogram', help: 'A.' });
    expect(parsed.get('g')?.samples).toEqual([{ name: 'g', labels: { path: 'C:\\x', q: 'say "hi"' }, value: -1500 }]);
  });

  it('refuses what Prometheus would refuse', () => {
    for (const bad of [
      'a b c d\n',
      '# TYPE g gauge\ng{l=x} 1\n',
      '# TYPE g gauge\ng 1\ng 2\n',
      '# TYPE g gauge\ng 1\n# TYPE h gauge\nh 1\ng 2\n',
      good.replace('a_seconds_count{k="x"} 2', 'a_seconds_count{k="x"} 3'),
      good.replace('a_seconds_bucket{le="1",k="x"} 1', 'a_seconds_bucket{le="1",k="x"} 5'),
      '# TYPE g gauge\ng one\n',
    ]) {
      expect(() => parsePrometheusText(bad), bad).toThrow();
    }
  });
});

describe('/metrics without METRICS_TOKEN or METRICS_PORT', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  it('answers 404, with or without a token, and exposes nothing', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const answer = await scrape(test, authorization);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain('rehearse_');
      expect(answer.body).not.toContain('process_cpu');
    }
  });
});

describe.each(testBackends())('/metrics behind METRICS_TOKEN (%s)', (backend) => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    test = await startTestApp(backend, { METRICS_TOKEN: TOKEN });
    user = await signUp(test);
    await user.api.call(ws.pushFile, {
      body: { projectId: user.projectId, directory: 'features', file: { name: 'plan.feature', content: FEATURE } },
    });
  });
  afterAll(async () => test?.close());

  it('refuses a scrape without the bearer token, or with another one, with 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Basic ${TOKEN}`]) {
      const answer = await scrape(test, authorization);
      expect(answer.statusCode).toBe(401);
      expect(answer.body).not.toContain('rehearse_');
    }
  });

  it('answers the Prometheus text format with every family, parsed by a Prometheus parser', async () => {
    await test.client().call(systemCalls.health);
    const answer = await scrape(test, `Bearer ${TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const parsed = families(answer.body);
    expect(
      Object.fromEntries(
        [...parsed.values()].filter((family) => family.name.startsWith('rehearse_')).map((family) => [family.name, family.type]),
      ),
    ).toEqual({
      rehearse_queue_depth: 'gauge',
      rehearse_jobs_running: 'gauge',
      rehearse_job_duration_seconds: 'histogram',
      rehearse_jobs_finished_total: 'counter',
      rehearse_job_claim_latency_seconds: 'histogram',
      rehearse_http_request_duration_seconds: 'histogram',
      rehearse_socket_clients: 'gauge',
    });
    // Node's process metrics.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(parsed.has(name), name).toBe(true);
    }
    expect(sample(parsed, 'rehearse_queue_depth', { kind: 'execution' })).toBe(0);
    expect(sample(parsed, 'rehearse_queue_depth', { kind: 'scenario' })).toBe(0);
    expect(sample(parsed, 'rehearse_socket_clients')).toBe(0);
    expect(
      histogramCount(parsed, 'rehearse_http_request_duration_seconds', { method: 'GET', route: '/api/health', status_code: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('labels HTTP latency with the registered route pattern, never the raw URL', async () => {
    const jobId = '6f1c1c7e-0000-4000-8000-000000000abc';
    await test.app.inject({
      method: 'GET',
      url: test.routes.find((route) => route.call === scenarioJobCalls.scenarioJob)!.url.replace(/:\w+/, jobId),
      headers: { authorization: `Bearer ${user.token}` },
    });
    await test.app.inject({ method: 'GET', url: `/no/such/page/${jobId}`, headers: { accept: 'application/json' } });
    const parsed = families((await scrape(test, `Bearer ${TOKEN}`)).body);
    const routes = parsed.get('rehearse_http_request_duration_seconds')!.samples.map((found) => found.labels.route ?? '');
    const pattern = test.routes.find((route) => route.call === scenarioJobCalls.scenarioJob)!.url;
    expect(pattern).toContain(':');
    expect(routes).toContain(pattern);
    expect(routes).toContain('unmatched');
    expect(routes.filter((route) => route.includes(jobId))).toEqual([]);
  });

  it('follows queue depth, running jobs, claim latency and job outcomes as jobs are queued, claimed and finished', async () => {
    const read = async () => families((await scrape(test, `Bearer ${TOKEN}`)).body);
    const before = await read();
    const finishedBefore = sample(before, 'rehearse_jobs_finished_total', { kind: 'execution', outcome: 'passed' }) ?? 0;

    // A "Run scenario" request (no worker slots here, so it stays queued).
    await user.api.call(scenarioJobCalls.runScenario, {
      body: { projectId: user.projectId, featureName: 'plan', scenarioName: 'Alpha one', environment: 'default.json' },
    });
    expect(sample(await read(), 'rehearse_queue_depth', { kind: 'scenario' })).toBe(1);

    // An execution of two scenarios on one thread: two execution jobs queued.
    const { execution } = await user.api.call(executionCalls.create, {
      body: {
        projectId: user.projectId,
        name: 'Metrics',
        env: 'default',
        flows: [{ scenarioGroups: [{ name: 'Scenario Group 1', threadCount: 1, tags: ['@a'] }] }],
      },
    });
    await user.api.call(executionCalls.run, { params: { id: execution.id } });
    let parsed = await read();
    expect(sample(parsed, 'rehearse_queue_depth', { kind: 'execution' })).toBe(2);
    expect(sample(parsed, 'rehearse_jobs_running', { kind: 'execution' })).toBe(0);

    const worker = test.client((await test.services.workerTokens.create('metrics test')).token);
    const { job } = await worker.call(workerCalls.claim, { body: { workerId: 'metrics-worker', waitMs: 0 } });
    expect(job).not.toBeNull();
    parsed = await read();
    expect(sample(parsed, 'rehearse_queue_depth', { kind: 'execution' })).toBe(1);
    expect(sample(parsed, 'rehearse_jobs_running', { kind: 'execution' })).toBe(1);
    expect(histogramCount(parsed, 'rehearse_job_claim_latency_seconds', { kind: 'execution' })).toBe(1);

    await worker.call(workerCalls.finish, { body: { workerId: 'metrics-worker', jobId: job!.jobId, outcome: 'passed' } });
    parsed = await read();
    expect(sample(parsed, 'rehearse_jobs_running', { kind: 'execution' })).toBe(0);
    expect(sample(parsed, 'rehearse_jobs_finished_total', { kind: 'execution', outcome: 'passed' })).toBe(finishedBefore + 1);
    expect(histogramCount(parsed, 'rehearse_job_duration_seconds', { kind: 'execution', outcome: 'passed' })).toBe(1);
    await user.api.call(executionCalls.halt, { params: { id: execution.id } });
    expect(sample(await read(), 'rehearse_queue_depth', { kind: 'execution' })).toBe(0);
  });
});

describe('/metrics on METRICS_PORT', () => {
  let test: TestApp;
  let adminUrl: string;
  let mainUrl: string;

  beforeAll(async () => {
    test = await startTestApp('pglite', { METRICS_PORT: '0', METRICS_TOKEN: TOKEN, HOST: '127.0.0.1' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    mainUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    adminUrl = `http://127.0.0.1:${(test.services.metricsAdmin()!.address() as AddressInfo).port}`;
    expect(adminUrl).not.toBe(mainUrl);
  });
  afterAll(async () => test?.close());

  it('serves the metrics on the admin port only, still behind the token, and counts socket clients', async () => {
    expect((await fetch(`${mainUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await fetch(`${adminUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${adminUrl}/api/health`)).status).toBe(404);

    const user = await signUp(test);
    const socket = connectSocket(mainUrl, { path: '/ws', auth: { token: user.token }, transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    try {
      const answer = await fetch(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.status).toBe(200);
      const parsed = families(await answer.text());
      expect(sample(parsed, 'rehearse_socket_clients')).toBe(1);
      expect(sample(parsed, 'rehearse_queue_depth', { kind: 'scenario' })).toBe(0);
    } finally {
      socket.disconnect();
    }
  });
});
