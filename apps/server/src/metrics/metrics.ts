import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Messages } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobKind, JobOutcome } from '../events/domain-events.js';
import type { MetricsRepo } from './metrics.repo.js';

/** Route label of requests no route matched (kept as one value so a URL scan cannot grow the series). */
const UNMATCHED_ROUTE = 'unmatched';

/** Seconds, from a scenario's few hundred milliseconds to a long run's quarter of an hour. */
const JOB_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900];
const CLAIM_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's Prometheus metrics (their own registry, so several apps in one test process stay
 * apart): queue depth and running jobs read from the database at each scrape, job durations,
 * outcomes and claim latency as the queues report them (their `jobClaimed` and `jobEnded` domain
 * events, wired in app.ts), HTTP latency by route pattern, socket clients, and Node's process metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly jobDuration: Histogram<'kind' | 'outcome'>;
  private readonly jobsFinished: Counter<'kind' | 'outcome'>;
  private readonly claimLatency: Histogram<'kind'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly queueDepth: Gauge<'kind'>;
  private readonly jobsRunning: Gauge<'kind'>;

  constructor(
    private readonly repo: MetricsRepo,
    socketClients: () => number,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Both set from one query at each scrape (see render).
    this.queueDepth = new Gauge({
      name: 'rehearse_queue_depth',
      help: 'Jobs waiting for a worker, by kind (execution: worker threads; scenario: Run scenario). Shared by all servers: take the max.',
      labelNames: ['kind'],
      registers,
    });
    this.jobsRunning = new Gauge({
      name: 'rehearse_jobs_running',
      help: 'Jobs a worker is running now, by kind. Shared by all servers: take the max.',
      labelNames: ['kind'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'rehearse_job_duration_seconds',
      help: 'From claim to end of the jobs this server saw end, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobsFinished = new Counter({
      name: 'rehearse_jobs_finished_total',
      help: 'Jobs this server saw end, by kind and outcome (passed, failed, error, skipped, cancelled).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.claimLatency = new Histogram({
      name: 'rehearse_job_claim_latency_seconds',
      help: 'From a job being queued to a worker claiming it, by kind.',
      labelNames: ['kind'],
      buckets: CLAIM_BUCKETS,
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'rehearse_http_request_duration_seconds',
      help: 'HTTP answers by method, route pattern (not the raw URL) and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'rehearse_socket_clients',
      help: 'socket.io clients connected to this server.',
      registers,
      collect() {
        this.set(socketClients());
      },
    });
  }

  claimed(kind: JobKind, queuedAt: Date, claimedAt: Date): void {
    this.claimLatency.observe({ kind }, Math.max(0, (claimedAt.getTime() - queuedAt.getTime()) / 1000));
  }

  finished(kind: JobKind, outcome: JobOutcome, startedAt: Date | null, finishedAt: Date): void {
    this.jobsFinished.inc({ kind, outcome });
    if (startedAt) this.jobDuration.observe({ kind, outcome }, Math.max(0, (finishedAt.getTime() - startedAt.getTime()) / 1000));
  }

  /** Times every answer of `app` by its registered route pattern. */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      this.httpDuration.observe(
        { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  /** The exposition text and its content type, with queue depth and running jobs read now. */
  async render(): Promise<{ contentType: string; body: string }> {
    for (const row of await this.repo.queueCounts()) {
      this.queueDepth.set({ kind: row.kind }, row.queued);
      this.jobsRunning.set({ kind: row.kind }, row.running);
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Where and how /metrics is served (METRICS_TOKEN, METRICS_PORT). */
export interface MetricsExposure {
  /** A bearer token every scrape must carry; absent: no token asked. */
  token: string | undefined;
  /** An admin port of its own (0: any free port, tests); absent: served on the main port, if a token is set. */
  port: number | undefined;
  host: string;
}

/** Whether /metrics is served at all: only when protected by a token or kept to an admin port. */
export function metricsEnabled(exposure: Pick<MetricsExposure, 'token' | 'port'>): boolean {
  return exposure.token !== undefined || exposure.port !== undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `token` as a bearer (compared in constant time). */
function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * Serves /metrics as the settings say: on the main port behind the bearer token when only
 * METRICS_TOKEN is set; on its own admin port (token too, when set) when METRICS_PORT is set; and
 * a 404 on the main port in every other case, so an unprotected install exposes nothing. Answers
 * the admin server (listening once the app is ready) or undefined.
 */
export function exposeMetrics(
  app: FastifyInstance,
  metrics: Metrics | undefined,
  exposure: MetricsExposure,
): { admin: () => Server | undefined } {
  const notFound = { status: false, error: Messages.notFound };
  const onMainPort = metrics !== undefined && exposure.token !== undefined && exposure.port === undefined;
  app.get('/metrics', async (request, reply) => {
    if (!onMainPort || !metrics) return reply.status(404).send(notFound);
    if (!authorized(request.headers.authorization, exposure.token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ status: false, error: Messages.unauthenticated });
    }
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
  if (!metrics || exposure.port === undefined) return { admin: () => undefined };

  const admin = createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || pathname !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(notFound));
      return;
    }
    if (!authorized(request.headers.authorization, exposure.token)) {
      response
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="metrics"' })
        .end(JSON.stringify({ status: false, error: Messages.unauthenticated }));
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        app.log.error({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, error: Messages.internal }));
      },
    );
  });
  // onReady, not onListen: Fastify does not wait for onListen hooks, and the port must answer once the app does.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      admin.once('error', reject);
      admin.listen(exposure.port, exposure.host, () => {
        admin.off('error', reject);
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    if (admin.listening) await new Promise<void>((resolve) => admin.close(() => resolve()));
  });
  return { admin: () => admin };
}
