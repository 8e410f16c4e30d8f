import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { DAY_MS, environmentDisplayName, Headers, Limits, Messages, systemCalls, type CallDefinition } from '@rehearse/contract';
import { requireSandbox, UNSANDBOXED_VARIABLE, type SandboxMode } from '@rehearse/processes';
import { DEMO_SHOP_PATH, demoShopPlugin } from '@rehearse/demo-shop';
import { TODO_APP_PATH, TODO_APP_V2_PATH, todoAppPlugin, todoAppV2Plugin } from '@rehearse/todo-app';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { InstanceAdminService } from './admin/instance-admin.service.js';
import { registerInstanceAdminRoutes } from './admin/instance-admin.routes.js';
import { registerAiRoutes } from './ai/ai.routes.js';
import { AiService } from './ai/ai.service.js';
import { createLlm } from './ai/llm.js';
import { OversightRepo } from './ai/oversight.repo.js';
import { OversightService } from './ai/oversight.service.js';
import { AccessCache } from './auth/access-cache.js';
import { AccessKeysRepo } from './auth/access-keys.repo.js';
import { AccessKeysService } from './auth/access-keys.service.js';
import { AccessService } from './auth/access.service.js';
import { authTransactions } from './auth/auth-repos.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { MembersRepo } from './auth/members.repo.js';
import { MembersService } from './auth/members.service.js';
import { ProjectsRepo } from './auth/projects.repo.js';
import { ProjectsService } from './auth/projects.service.js';
import { InstanceSettingsRepo } from './auth/instance-settings.repo.js';
import { instanceSettingsFromEnvironment, InstanceSettingsService } from './auth/instance-settings.js';
import { RetryPolicy } from './jobs/retry-policy.js';
import { SessionService } from './auth/session.service.js';
import { SessionsRepo } from './auth/sessions.repo.js';
import { UsersRepo } from './auth/users.repo.js';
import type { Database } from './db/database.js';
import { registerDownloadRoutes } from './downloads/downloads.routes.js';
import { DownloadsService } from './downloads/downloads.service.js';
import type { Caller, ProjectAccess } from './http/caller.js';
import type { Settings } from './env.js';
import { createCallRouter } from './http/call-router.js';
import { installErrorHandler, installStrictJsonParser } from './http/error-handler.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { ServerEgress } from './security/egress.js';
import { createMailer } from './mail/mailer.js';
import { jobKeyMayCall } from './auth/job-keys.js';
import { signInWarning } from './auth/sign-in-warning.js';
import { SignInThrottle } from './auth/sign-in-throttle.js';
import { SingleSignOn } from './auth/single-sign-on.js';
import { SsoSettings } from './auth/sso-settings.js';
import { TwoFactorService } from './auth/two-factor.service.js';
import { PasswordPool } from './crypto/password-pool.js';
import { clientOf } from './http/client-identity.js';
import { exposeMetrics, Metrics, metricsEnabled } from './metrics/metrics.js';
import { MetricsRepo } from './metrics/metrics.repo.js';
import { ActivityRepo } from './storage/activity.repo.js';
import { ActivityService } from './storage/activity.service.js';
import { attachSockets, type SocketHub } from './storage/sockets.js';
import { registerStorageRoutes } from './storage/storage.routes.js';
import { registerWebApp } from './web/static.js';
import { registerTraceViewer } from './web/trace-viewer.js';
import { SignedLinks } from './crypto/signed-links.js';
import { RecorderService } from './recorder/recorder.service.js';
import { RecordingChecks } from './recorder/recording-check.js';
import { LocalLaunchService } from './recorder/local-launch.service.js';
import { registerRecorderRoutes } from './recorder/recorder.routes.js';
import { attachRecorderSockets } from './recorder/recorder.sockets.js';
import { RecordingPublisher } from './recorder/recording-publisher.js';
import { RecordedPagesRepo } from './recorder/recorded-pages.repo.js';
import { RunsRepo } from './runs/runs.repo.js';
import { RetentionRepo } from './runs/retention.repo.js';
import { RetentionService } from './runs/retention.service.js';
import { registerRetentionRoutes, registerRunsRoutes } from './runs/runs.routes.js';
import { RunArtifactsService } from './runs/run-artifacts.service.js';
import { RunReportsService } from './runs/run-reports.service.js';
import { runReportLink, RunUploadsService } from './runs/run-uploads.service.js';
import { ScenarioJobs } from './runs/scenario-jobs.js';
import { WARM_UP_KEY_NAME, WarmRunners } from './runs/warm-runners.js';
import { RUNNER_BIN } from './processes/programs.js';
import { ScenarioJobsRepo } from './runs/scenario-jobs.repo.js';
import { SCENARIO_QUEUE, ScenarioQueue } from './runs/scenario-queue.js';
import { JobQueue } from './jobs/job-queue.js';
import { ExecutionsService } from './executions/executions.service.js';
import { registerExecutionRoutes } from './executions/executions.routes.js';
import { ExecutionEngine, type EngineSettings } from './executions/execution-engine.js';
import { ExecutionJobsRepo } from './executions/execution-jobs.repo.js';
import { EXECUTION_QUEUE, ExecutionQueue } from './executions/execution-queue.js';
import { executionTransactions } from './executions/execution-repos.js';
import { ExecutionsRepo } from './executions/executions.repo.js';
import { SCHEDULE_LOOKBACK_MS, SCHEDULE_QUEUE, Scheduler, schedulerClock } from './executions/scheduler.js';
import { Housekeeping } from './housekeeping/housekeeping.js';
import { LocalWorkers } from './workers/local-workers.js';
import { WorkerTokens } from './workers/worker-tokens.js';
import { WorkerPresenceRepo } from './workers/worker-presence.repo.js';
import { WorkerTokensRepo } from './workers/worker-tokens.repo.js';
import { registerWorkerRoutes } from './workers/workers.routes.js';
import { registerScenarioJobRoutes } from './runs/runs.routes.js';
import { ArtifactStore } from './storage/artifacts.js';
import { ProjectSecretsRepo } from './crypto/project-secrets.repo.js';
import { registerMailRoutes } from './mail/mail.routes.js';
import { MailUsersRepo } from './mail/mail-users.repo.js';
import { MailUsersService } from './mail/mail-users.service.js';
import { BranchesService } from './workspace/branches.service.js';
import { EnvironmentsService } from './workspace/environments.service.js';
import { FeaturesService } from './workspace/features.service.js';
import { FilesService } from './workspace/files.service.js';
import { PrivateRepoService } from './workspace/private-repo.service.js';
import { StepsService } from './workspace/steps/steps.service.js';
import { TestDataService } from './workspace/test-data.service.js';
import { WorkspaceStateRepo } from './workspace/workspace-state.repo.js';
import { registerWorkspaceRoutes, workspaceErrorToHttp } from './workspace/workspace.routes.js';
import { mappingDomainErrors } from './http/domain-errors.js';
import { WorkspaceService } from './workspace/workspace.service.js';
import { WorkspaceStore } from './workspace/workspace.store.js';
import { DomainEventBus } from './events/domain-events.js';

/** The server's version, from its package.json: the one source the runner package is stamped with too. */
export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Largest JSON body the API accepts; uploads of reports and files come through their own limits. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AppOptions {
  settings: Settings;
  database: Database;
  /** Pass `false` to silence request logs (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Demo shop product list delay; tests shorten it. */
  demoShopDelayMs?: number;
}

export interface Services {
  /** Sessions and project access kept in memory (on for PGlite only). */
  accessCache: AccessCache;
  sessions: SessionService;
  /** Single sign-on through the team's OIDC provider (off unless OIDC_ISSUER is set). */
  sso: SingleSignOn;
  /** TOTP two-factor sign-in for password accounts. */
  twoFactor: TwoFactorService;
  projects: ProjectsService;
  members: MembersService;
  accessKeys: AccessKeysService;
  access: AccessService;
  activity: ActivityService;
  instanceAdmin: InstanceAdminService;
  sockets: SocketHub;
  users: UsersRepo;
  workspaces: WorkspaceService;
  features: FeaturesService;
  testData: TestDataService;
  privateRepos: PrivateRepoService;
  projectSecrets: ProjectSecretsRepo;
  runUploads: RunUploadsService;
  runReports: RunReportsService;
  runArtifacts: RunArtifactsService;
  jobs: ScenarioJobs;
  /** The one door to pg-boss, whose queues "Run scenario" jobs wait in. */
  jobQueue: JobQueue;
  /** "Run scenario"'s warm runners (null with WARM_RUNNERS off). */
  warmRunners: WarmRunners | null;
  engine: ExecutionEngine;
  workerTokens: WorkerTokens;
  scheduler: Scheduler;
  housekeeping: Housekeeping;
  retention: RetentionService;
  recorder: RecorderService;
  metrics?: Metrics;
  /** This process's id among the servers sharing the database (owner of its jobs, name of its schedule fires). */
  instanceId: string;
  /** The admin server of METRICS_PORT, once the app listens. */
  metricsAdmin: () => HttpServer | undefined;
}

/** A registered route as the permission-matrix test sees it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  call: CallDefinition | undefined;
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the first N hops" (Fastify's types lack the number form). */
function trustedProxies(setting: number | string[] | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === undefined) return false;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting;
}

const SAFE_TRACE_ID = /^[\w.:-]{1,128}$/;
/** How often a scheduler does housekeeping: what it keeps is counted in days, so hourly is exact enough. */
const HOUSEKEEPING_EVERY_MS = 3_600_000;

/** Builds the whole server from its services; used by main.ts and by every integration test. */
export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services; routes: RegisteredRoute[] }> {
  const { settings, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: settings.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    // The web app's trace header becomes the request id, so a user's report finds the log lines.
    genReqId: (request) => {
      const trace = request.headers[Headers.trace];
      return typeof trace === 'string' && SAFE_TRACE_ID.test(trace) ? trace : randomUUID();
    },
    // Off unless TRUST_PROXY names the proxies: otherwise any client could pick its own address.
    trustProxy: trustedProxies(settings.TRUST_PROXY),
  });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, call: route.config?.call });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installStrictJsonParser(app);
  // Built first so its timing hook sees every route; the socket count is read at scrape time.
  let socketClients = () => 0;
  const metrics = metricsEnabled({ token: settings.METRICS_TOKEN, port: settings.METRICS_PORT })
    ? new Metrics(new MetricsRepo(database.db), () => socketClients())
    : undefined;
  metrics?.instrument(app);
  // REHEARSE_ROLES: which parts start here (api is where main.ts listens; see docs/deploy.md).
  const roles = new Set(settings.REHEARSE_ROLES);
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  installSecurityHeaders(app);
  // Set once close() begins: answers from then on end their connection, so a keep-alive socket
  // (a worker agent's, between long-polls) cannot hold the server's close open.
  let closing = false;
  app.addHook('onSend', async (request, reply) => {
    reply.header(Headers.requestId, request.id);
    if (closing) reply.header('connection', 'close');
  });

  await app.register(rateLimit, {
    global: false,
    // Job traffic is counted as its proxy, not as the address its X-Forwarded-For claims.
    keyGenerator: clientOf,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      status: false,
      error: Messages.tooManyRequests,
      retryAfterSeconds: Math.ceil(context.ttl / 1000),
    }),
  });

  const demoShopUrl = `${settings.publicUrl}${DEMO_SHOP_PATH}/`;
  const db = database.db;
  // pg-boss forgets finished jobs over the job history's period too: the first part (at most an
  // hour) in its job table, the rest in its archive.
  const historySeconds = settings.JOB_HISTORY_DAYS * 86_400;
  const archiveAfterSeconds = Math.max(1, Math.round(Math.min(3600, historySeconds / 2)));
  const jobQueue = await JobQueue.start(database, {
    archiveAfterSeconds,
    deleteAfterSeconds: Math.max(1, Math.round(historySeconds - archiveAfterSeconds)),
    maintenanceIntervalSeconds: Math.max(1, Math.round(Math.min(120, historySeconds / 4))),
  });
  await jobQueue.define(SCENARIO_QUEUE, { policy: 'short' });
  await jobQueue.define(EXECUTION_QUEUE, { policy: 'standard' });
  await jobQueue.define(SCHEDULE_QUEUE, { policy: 'standard' });
  // Built in dependency order: each service gets what it needs when it is made, and what one
  // domain does that others react to travels as a domain event (events/domain-events.ts).
  const events = new DomainEventBus(app.log);
  // Sessions and project access read from memory where that is exact (PGlite: see forDatabase);
  // every repository that writes the rows behind them forgets what it changed.
  const accessCache = AccessCache.forDatabase(database);
  const users = new UsersRepo(db, accessCache);
  const projectsRepo = new ProjectsRepo(db, accessCache);
  const accessKeysRepo = new AccessKeysRepo(db, accessCache);
  const membersRepo = new MembersRepo(db, accessCache);
  const authTx = authTransactions(db, accessCache);
  const instanceSettings = new InstanceSettingsService(new InstanceSettingsRepo(db), instanceSettingsFromEnvironment(settings));
  // Read once now, so the job engines' first decisions already follow what an administrator saved.
  await instanceSettings.current();
  // One retry rule for every kind of job, following the saved settings (JOB_ATTEMPTS, JOB_RETRY_BACKOFF_SECONDS).
  const retries = RetryPolicy.following(instanceSettings);
  const mailer = createMailer(settings.SMTP_URL, settings.MAIL_FROM);
  const signInThrottle = SignInThrottle.forDatabase(db, settings);
  const passwordPool = new PasswordPool({
    concurrency: settings.PASSWORD_HASH_CONCURRENCY,
    queue: settings.PASSWORD_HASH_QUEUE,
    perClient: settings.PASSWORD_HASH_PER_CLIENT,
  });
  const twoFactor = new TwoFactorService(users, settings.secretKey);
  const sessions = new SessionService(
    events,
    authTx,
    { ...settings, demoShopUrl },
    users,
    new SessionsRepo(db, accessCache),
    projectsRepo,
    accessKeysRepo,
    membersRepo,
    instanceSettings,
    signInThrottle,
    passwordPool,
    twoFactor,
    signInWarning(mailer, settings.publicUrl, app.log),
  );
  const ssoSettings = new SsoSettings(new InstanceSettingsRepo(db), settings);
  const sso = new SingleSignOn(settings, ssoSettings, sessions, app.log);
  const access = new AccessService(projectsRepo, accessKeysRepo);
  const accessKeys = new AccessKeysService(accessKeysRepo, events);
  const projectSecrets = new ProjectSecretsRepo(db, settings.secretKey);
  // Where worker processes on this machine reach this server (known only once it listens).
  const localUrl = () => {
    const address = app.server.address();
    return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : settings.publicUrl;
  };
  // What users' browsers, fetches and git remotes may reach (docs/security.md, egress rules).
  const egress = new ServerEgress(settings.REHEARSE_ALLOW_PRIVATE_TARGETS, localUrl);
  const privateRepos = new PrivateRepoService(projectsRepo, projectSecrets, app.log, () => egress.proxyUrl());
  const store = new WorkspaceStore(path.join(settings.dataDir, 'workspaces'), privateRepos);
  const workspaces = new WorkspaceService(store, new WorkspaceStateRepo(db, { cached: accessCache.enabled }), events);
  const features = new FeaturesService(workspaces);
  const activity = new ActivityService(new ActivityRepo(db), projectsRepo);
  const testData = new TestDataService(workspaces, projectSecrets, activity);
  const environments = new EnvironmentsService(workspaces);
  const sockets = attachSockets(
    app,
    sessions,
    access,
    database.pool ? { pool: database.pool, schemaName: database.schemaName } : undefined,
  );
  socketClients = () => sockets.clientCount();
  const runsRepo = new RunsRepo(db);
  const artifactStore = new ArtifactStore(path.join(settings.dataDir, 'artifacts'));
  const recordedPages = new RecordedPagesRepo(db);
  const reportLink = (projectId: string, runId: string) => runReportLink(settings.publicUrl, projectId, runId);

  const executionsRepo = new ExecutionsRepo(db);
  const executionJobsRepo = new ExecutionJobsRepo(db);
  const executionsService = new ExecutionsService(executionsRepo, workspaces, features, executionJobsRepo);
  const engineSettings: EngineSettings = {
    retries,
    leaseMs: settings.WORKER_LEASE_SECONDS * 1000,
    claimPollMs: database.kind === 'pglite' ? 2_000 : 500,
    reportLink,
  };
  const engine = new ExecutionEngine(
    events,
    executionTransactions(db),
    executionsRepo,
    executionJobsRepo,
    new ExecutionQueue(executionJobsRepo, jobQueue, engineSettings),
    executionsService,
    workspaces,
    features,
    access,
    users,
    accessKeys,
    accessKeysRepo,
    sockets,
    engineSettings,
    app.log,
  );
  const runUploads = new RunUploadsService(
    {
      events,
      // Uploaded reports are masked with the secret values of the branch they ran on (main when that is no branch of the project).
      secretValues: async (caller, projectAccess, branch) => {
        const ws = await workspaces.open(caller, projectAccess, branch).catch(async () => workspaces.open(caller, projectAccess));
        return testData.secretValues(ws);
      },
    },
    runsRepo,
    artifactStore,
    sockets,
    settings.publicUrl,
    settings.ARTIFACT_QUOTA_MB * 1024 * 1024,
  );
  const runReports = new RunReportsService(
    {
      executionOfRun: (runId) => engine.statusOfRun(runId),
      recordedMemory: (projectId) => recordedPages.memory(projectId),
    },
    runsRepo,
  );
  const runArtifacts = new RunArtifactsService(runsRepo, artifactStore, new SignedLinks(settings.secretKey, 'trace'));
  // Tenant code runs only in the runner's sandbox; where it cannot be set up every job fails with
  // the reason (and main.ts refuses to start), unless the operator allowed it.
  // "Run scenario" on warm runners: the same sandbox door as every job, one runner per project,
  // branch and commit; a background warm-up after a save pulls with a key of the runner's last
  // user, deleted once the pull is done.
  const warmRunners = settings.WARM_RUNNERS
    ? new WarmRunners(
        {
          dataDir: settings.dataDir,
          sandbox: () => jobSandbox(settings),
          serverUrl: localUrl,
          egress: () => egress.policy(),
          runnerBin: RUNNER_BIN,
        },
        async (projectId, userId) => {
          const key = await accessKeys.createJobKey(
            projectId,
            userId,
            `${WARM_UP_KEY_NAME}${projectId.slice(0, 8)}`,
            new Date(Date.now() + 5 * 60_000),
          );
          return { token: key.token, release: () => accessKeysRepo.delete(key.id) };
        },
        app.log,
      )
    : null;
  if (warmRunners) events.on('workspaceCommitted', ({ projectId, branch, commit }) => warmRunners.committed(projectId, branch, commit));
  const jobs = new ScenarioJobs(
    events,
    new ScenarioQueue(new ScenarioJobsRepo(db), jobQueue, {
      retries,
      // Past the job's deadline and a lease: by then its server would have ended or retried it.
      expireMs: settings.RUN_TIMEOUT_MINUTES * 60_000 + settings.WORKER_LEASE_SECONDS * 1000 + 60_000,
    }),
    runsRepo,
    workspaces,
    features,
    accessKeys,
    accessKeysRepo,
    sockets,
    {
      retries,
      workerProcesses: roles.has('workers') ? settings.WORKER_PROCESSES : 0,
      runTimeoutMs: settings.RUN_TIMEOUT_MINUTES * 60_000,
      dataDir: settings.dataDir,
      sandbox: () => jobSandbox(settings),
      serverUrl: localUrl,
      egress: () => egress.policy(),
      reportLink,
      instanceId,
      leaseMs: settings.WORKER_LEASE_SECONDS * 1000,
      warmRunners,
      branchHead: (projectId, branch) => workspaces.head(projectId, branch),
    },
    app.log,
  );
  const workerTokens = new WorkerTokens(new WorkerTokensRepo(db), new WorkerPresenceRepo(db));
  if (settings.REHEARSE_WORKER_TOKEN) await workerTokens.register('REHEARSE_WORKER_TOKEN', settings.REHEARSE_WORKER_TOKEN);
  const clock = schedulerClock(
    settings.SCHEDULER_CLOCK_START ? new Date(settings.SCHEDULER_CLOCK_START) : undefined,
    settings.SCHEDULER_CLOCK_SPEED,
  );
  const scheduler = new Scheduler(
    executionsRepo,
    jobQueue,
    engine,
    clock,
    { tickMs: settings.SCHEDULER_TICK_SECONDS * 1000, serverId: instanceId, retries },
    app.log,
  );
  const retention = new RetentionService(new RetentionRepo(db), artifactStore);
  const housekeeping = new Housekeeping(
    {
      // The kept days an administrator saved, read at each sweep. pg-boss's own retention above
      // keeps the period the server started with, so its finished jobs are forgotten here too,
      // by the saved period, when that is shorter.
      jobHistory: async () => {
        const keepJobsMs = (await instanceSettings.current()).jobHistoryDays * DAY_MS;
        return {
          executionJobs: await engine.forgetJobsOlderThan(keepJobsMs),
          scenarioJobs: await jobs.forgetJobsOlderThan(keepJobsMs),
          // A fired slot's job is what refuses a second fire of it while the slot is still due.
          queuedJobs: await jobQueue.forgetFinishedOlderThan(Math.max(keepJobsMs, SCHEDULE_LOOKBACK_MS)),
        };
      },
      signInThrottles: async () => ({ signInThrottles: await signInThrottle.forgetStale() }),
      runRetention: async () => {
        const swept = await retention.sweep();
        return { runs: swept.runs, artifacts: swept.artifacts, artifactBytes: swept.bytes };
      },
    },
    app.log,
  );
  const localWorkers = new LocalWorkers(
    workerTokens,
    {
      processes: settings.LOCAL_WORKERS,
      threads: settings.LOCAL_WORKER_THREADS,
      jobTimeoutMs: Math.min(settings.RUN_TIMEOUT_MINUTES * 60_000, Limits.executionScenarioTimeoutMs),
      serverUrl: localUrl,
      unsandboxed: settings.REHEARSE_UNSANDBOXED_WORKERS,
      allowPrivateTargets: settings.REHEARSE_ALLOW_PRIVATE_TARGETS,
      processPerScenario: settings.LOCAL_WORKER_PROCESS_PER_SCENARIO,
    },
    app.log,
  );
  // The AI engine: built-in always, the OpenAI-compatible provider only when AI_BASE_URL is set.
  const oversight = new OversightService(new OversightRepo(db), runsRepo, workspaces);
  const recorder = new RecorderService(
    {
      capacity: settings.RECORDER_CAPACITY,
      projectCapacity: settings.RECORDER_PROJECT_CAPACITY,
      sessionMs: settings.RECORDER_SESSION_SECONDS * 1000,
      warningMs: Math.min(60_000, settings.RECORDER_SESSION_SECONDS * 500),
      creationTimeoutMs: settings.RECORDER_CREATION_TIMEOUT_SECONDS * 1000,
      allowPrivateTargets: settings.REHEARSE_ALLOW_PRIVATE_TARGETS,
      egressProxyUrl: () => egress.proxyUrl(),
    },
    workspaces,
    environments,
    testData,
    new RecordingPublisher(workspaces, features, testData),
    app.log,
    events,
    new RecordingChecks(
      jobs,
      runsRepo,
      // The job's own deadline, and a minute more for its queueing.
      { pollMs: 500, timeoutMs: settings.RUN_TIMEOUT_MINUTES * 60_000 + 60_000 },
      app.log,
    ),
  );
  const projects = new ProjectsService(authTx, projectsRepo, users, demoShopUrl);
  const services: Services = {
    accessCache,
    sessions,
    access,
    users,
    projects,
    members: new MembersService(membersRepo, settings, mailer, app.log, events),
    accessKeys,
    activity,
    instanceAdmin: new InstanceAdminService(
      users,
      projectsRepo,
      projects,
      sessions,
      instanceSettings,
      workerTokens,
      activity,
      retention,
      signInThrottle,
      { settings: ssoSettings, provider: sso },
    ),
    sockets,
    sso,
    twoFactor,
    workspaces,
    features,
    testData,
    privateRepos,
    projectSecrets,
    runUploads,
    runReports,
    runArtifacts,
    jobs,
    jobQueue,
    warmRunners,
    engine,
    workerTokens,
    scheduler,
    housekeeping,
    retention,
    recorder,
    instanceId,
    ...(metrics ? { metrics } : {}),
    metricsAdmin: exposeMetrics(app, metrics, { token: settings.METRICS_TOKEN, port: settings.METRICS_PORT, host: settings.HOST }).admin,
  };

  // Who hears what. Live updates end with the right to them: at logout, when a key is revoked, when a member goes.
  events.on('sessionEnded', ({ tokenHash }) => sockets.endSession(tokenHash));
  events.on('accessKeyRevoked', ({ accessKeyId }) => sockets.endAccessKey(accessKeyId));
  events.on('memberRemoved', ({ projectId, userId }) => sockets.leaveProject(userId, projectId));
  // Who joined the instance, and how, is part of its audit trail (Administration → Activity).
  events.on('accountCreated', async ({ userId, email, instanceAdmin, via }) => {
    await activity.audit(userId, 'user.signup', email, { through: via, ...(instanceAdmin ? { became: 'instance administrator' } : {}) });
  });
  // Healed runs file Code Review items; a failure there is logged, the run stays stored.
  events.on('runUploaded', async (event) => {
    await oversight.fileFromRun(event);
  });
  // The memory is a by-product of publishing: a failure there is logged, the scenario stays published.
  events.on('recordingPublished', async ({ projectId, pages, commands }) => {
    await recordedPages.remember(projectId, pages, commands);
  });
  // Open screens of the project count features again (spec 01 §4 publish_scenario).
  events.on('recordingPublished', ({ projectId, featureName, scenarioName }) => {
    sockets.emitToProject(projectId, 'publish_scenario', { projectId, featureName, scenarioName });
  });
  if (metrics) {
    events.on('jobClaimed', ({ kind, queuedAt, claimedAt }) => metrics.claimed(kind, queuedAt, claimedAt));
    events.on('jobEnded', ({ kind, outcome, startedAt, finishedAt }) => metrics.finished(kind, outcome, startedAt, finishedAt));
  }
  access.registerResource('run', (id) => runsRepo.projectOfRun(id));
  access.registerResource('testCase', (id) => runsRepo.projectOfTestCase(id));
  access.registerResource('comment', (id) => runsRepo.projectOfComment(id));
  access.registerResource('job', (id) => jobs.projectOf(id));
  access.registerResource('execution', (id) => executionsService.projectOf(id));
  access.registerResource('recorderSession', (id) => recorder.projectOf(id));

  // Every call maps the workspace store's refusals (any route may read or write a workspace).
  const route = mappingDomainErrors(
    createCallRouter(app, { sessions, access, jobKeyMayCall, authRateLimitPerMinute: settings.AUTH_RATE_LIMIT_PER_MINUTE }),
    workspaceErrorToHttp,
  );
  const startedAt = Date.now();
  route(systemCalls.health, async () => {
    await database.execute('select 1');
    return {
      status: true,
      version: VERSION,
      database: database.kind,
      uptimeSeconds: (Date.now() - startedAt) / 1000,
      install: settings.localSingleUser ? 'local-single-user' : 'server',
    };
  });
  registerAuthRoutes(route, services);
  registerStorageRoutes(route, services.activity);
  registerWorkspaceRoutes(route, {
    workspaces,
    environments,
    branches: new BranchesService(workspaces),
    files: new FilesService(workspaces),
    testData,
    features,
    steps: new StepsService(workspaces, features),
    privateRepos,
    projects,
    projectsRepo,
  });
  registerMailRoutes(route, new MailUsersService(new MailUsersRepo(db), projectSecrets));
  registerRunsRoutes(route, { uploads: runUploads, reports: runReports, artifacts: runArtifacts, testData, workspaces });
  registerRetentionRoutes(route, retention);
  const downloads = new DownloadsService(settings.runnerPackageDir, VERSION, settings.publicUrl);
  registerDownloadRoutes(route, downloads);
  registerAiRoutes(route, {
    ai: new AiService(createLlm(settings), workspaces, features, app.log),
    oversight,
    runReports,
    workspaces,
    environments,
    jobs,
  });
  registerScenarioJobRoutes(route, jobs);
  const environmentNames = async (caller: Caller, projectAccess: ProjectAccess, branch: string) =>
    (await environments.list(await workspaces.open(caller, projectAccess, branch))).allEnv.map((entry) =>
      environmentDisplayName(entry.name),
    );
  registerExecutionRoutes(route, executionsService, engine, {
    accessKeys,
    publicUrl: settings.publicUrl,
    environmentNames,
    playwrightVersion: () => downloads.playwrightVersion(),
  });
  registerWorkerRoutes(route, workerTokens, engine);
  registerInstanceAdminRoutes(route, services.instanceAdmin);
  registerRecorderRoutes(
    route,
    recorder,
    new LocalLaunchService({
      accessKeys,
      publicUrl: settings.publicUrl,
      version: VERSION,
      secretKey: settings.secretKey,
      environmentNames,
    }),
  );
  attachRecorderSockets(app, sessions, recorder);

  // Workers start once the server listens: they reach it over HTTP like any runner.
  // PGlite has only this process: whatever it finds running, a previous process left. On PostgreSQL
  // other servers queue (api-only replicas) and run jobs too: leases decide, and this one polls.
  // Schedules and local workers start once the server listens too (tests that only inject start neither).
  // Lost workers are noticed even when no worker is polling this server.
  const sweep = setInterval(
    () => {
      engine.recoverLostJobs().catch((error: unknown) => app.log.warn({ err: error }, 'recovering lost jobs failed'));
      jobs.recover().catch((error: unknown) => app.log.warn({ err: error }, 'recovering orphaned scenario jobs failed'));
    },
    Math.max(1000, (settings.WORKER_LEASE_SECONDS * 1000) / 2),
  );
  sweep.unref();
  app.addHook('onListen', async () => {
    await jobs.recover(database.kind === 'pglite');
    if (database.kind !== 'pglite') jobs.startPolling(500);
    if (roles.has('scheduler')) {
      scheduler.start();
      housekeeping.start(HOUSEKEEPING_EVERY_MS);
    }
    if (roles.has('workers')) await localWorkers.start();
  });
  // Before in-flight requests are waited for: workers' long-poll claims answer "no job" now
  // instead of holding the close for their whole wait.
  app.addHook('preClose', async () => {
    closing = true;
    engine.close();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    scheduler.stop();
    housekeeping.stop();
    engine.close();
    await localWorkers.stop();
    jobs.close();
    await warmRunners?.close();
    await jobQueue.stop();
    await store.close();
    await egress.close();
    mailer?.close();
  });

  await app.register(demoShopPlugin, {
    prefix: DEMO_SHOP_PATH,
    ...(options.demoShopDelayMs === undefined ? {} : { productDelayMs: options.demoShopDelayMs }),
  });
  await app.register(todoAppPlugin, { prefix: TODO_APP_PATH });
  await app.register(todoAppV2Plugin, { prefix: TODO_APP_V2_PATH });
  await registerTraceViewer(app);
  await registerWebApp(app, settings.webDistDir);
  return { app, services, routes };
}

/**
 * How this server's jobs run: in the sandbox, or unsandboxed when REHEARSE_UNSANDBOXED_WORKERS is
 * set; throws a sentence naming the missing piece when neither (main.ts refuses to start on it).
 */
export function jobSandbox(settings: Pick<Settings, 'REHEARSE_UNSANDBOXED_WORKERS'>): Promise<SandboxMode> {
  return requireSandbox({ [UNSANDBOXED_VARIABLE]: settings.REHEARSE_UNSANDBOXED_WORKERS ? '1' : '' });
}
