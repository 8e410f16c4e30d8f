import { randomUUID } from 'node:crypto';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { Headers, Messages, systemCalls, type CallDefinition } from '@rehearse/contract';
import { DEMO_SHOP_PATH, demoShopPlugin } from '@rehearse/demo-shop';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AccessKeysRepo } from './auth/access-keys.repo.js';
import { AccessKeysService } from './auth/access-keys.service.js';
import { AccessService } from './auth/access.service.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { MembersRepo } from './auth/members.repo.js';
import { MembersService } from './auth/members.service.js';
import { ProjectsRepo } from './auth/projects.repo.js';
import { ProjectsService } from './auth/projects.service.js';
import { SessionService } from './auth/session.service.js';
import { SessionsRepo } from './auth/sessions.repo.js';
import { UsersRepo } from './auth/users.repo.js';
import type { Database } from './db/database.js';
import type { Settings } from './env.js';
import { createCallRouter } from './http/call-router.js';
import { installErrorHandler, installStrictJsonParser } from './http/error-handler.js';
import { createMailer } from './mail/mailer.js';
import { ActivityRepo } from './storage/activity.repo.js';
import { ActivityService } from './storage/activity.service.js';
import { attachSockets, type SocketHub } from './storage/sockets.js';
import { registerStorageRoutes } from './storage/storage.routes.js';
import { registerWebApp } from './web/static.js';
import { RunsRepo } from './runs/runs.repo.js';
import { registerRunsRoutes } from './runs/runs.routes.js';
import { RunsService } from './runs/runs.service.js';
import { ScenarioJobs } from './runs/scenario-jobs.js';
import { ExecutionsService } from './executions/executions.service.js';
import { registerExecutionRoutes } from './executions/executions.routes.js';
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
import { registerWorkspaceRoutes } from './workspace/workspace.routes.js';
import { WorkspaceService } from './workspace/workspace.service.js';
import { WorkspaceStore } from './workspace/workspace.store.js';

export const VERSION = '0.1.0';

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
  sessions: SessionService;
  projects: ProjectsService;
  members: MembersService;
  accessKeys: AccessKeysService;
  access: AccessService;
  activity: ActivityService;
  sockets: SocketHub;
  users: UsersRepo;
  workspaces: WorkspaceService;
  features: FeaturesService;
  testData: TestDataService;
  privateRepos: PrivateRepoService;
  projectSecrets: ProjectSecretsRepo;
  runs: RunsService;
  jobs?: ScenarioJobs;
}

/** A registered route as the permission-matrix test sees it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  call: CallDefinition | undefined;
}

const SAFE_TRACE_ID = /^[\w.:-]{1,128}$/;

/** Builds the whole server from its services; used by main.ts and by every integration test. */
export async function buildApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; services: Services; routes: RegisteredRoute[] }> {
  const { settings, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: settings.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    // The web app's trace header becomes the request id, so a user's report finds the log lines.
    genReqId: (request) => {
      const trace = request.headers[Headers.trace];
      return typeof trace === 'string' && SAFE_TRACE_ID.test(trace) ? trace : randomUUID();
    },
    trustProxy: true,
  });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, call: route.config?.call });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installStrictJsonParser(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header(Headers.requestId, request.id);
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      status: false,
      error: Messages.tooManyRequests,
      retryAfterSeconds: Math.ceil(context.ttl / 1000),
    }),
  });

  const demoShopUrl = `${settings.publicUrl}${DEMO_SHOP_PATH}/`;
  const db = database.db;
  const users = new UsersRepo(db);
  const projectsRepo = new ProjectsRepo(db);
  const accessKeysRepo = new AccessKeysRepo(db);
  const sessions = new SessionService(
    database,
    { ...settings, demoShopUrl },
    users,
    new SessionsRepo(db),
    projectsRepo,
    accessKeysRepo,
  );
  const access = new AccessService(projectsRepo, accessKeysRepo);
  const projectSecrets = new ProjectSecretsRepo(db, settings.secretKey);
  const store = new WorkspaceStore(path.join(settings.dataDir, 'workspaces'));
  const workspaces = new WorkspaceService(store, new WorkspaceStateRepo(db));
  const features = new FeaturesService(workspaces);
  const sockets = attachSockets(app, sessions, access);
  const runsRepo = new RunsRepo(db);
  access.registerResource('run', (id) => runsRepo.projectOfRun(id));
  access.registerResource('testCase', (id) => runsRepo.projectOfTestCase(id));
  access.registerResource('comment', (id) => runsRepo.projectOfComment(id));
  const mailer = createMailer(settings.SMTP_URL, settings.MAIL_FROM);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  const services: Services = {
    sessions,
    access,
    users,
    projects: new ProjectsService(database, projectsRepo, users, demoShopUrl),
    members: new MembersService(new MembersRepo(db), settings, mailer, app.log),
    accessKeys: new AccessKeysService(accessKeysRepo),
    activity: new ActivityService(new ActivityRepo(db), projectsRepo),
    sockets,
    workspaces,
    features,
    testData: new TestDataService(workspaces, projectSecrets),
    privateRepos: new PrivateRepoService(projectsRepo, projectSecrets, app.log),
    projectSecrets,
    runs: new RunsService(runsRepo, new ArtifactStore(path.join(settings.dataDir, 'artifacts')), sockets, settings.publicUrl),
  };
  store.remote = services.privateRepos;

  const route = createCallRouter(app, {
    sessions,
    access,
    authRateLimitPerMinute: settings.AUTH_RATE_LIMIT_PER_MINUTE,
  });
  const startedAt = Date.now();
  route(systemCalls.health, async () => {
    await database.execute('select 1');
    return { status: true, version: VERSION, database: database.kind, uptimeSeconds: (Date.now() - startedAt) / 1000 };
  });
  registerAuthRoutes(route, services);
  registerStorageRoutes(route, services.activity);
  registerWorkspaceRoutes(route, {
    workspaces,
    environments: new EnvironmentsService(workspaces),
    branches: new BranchesService(workspaces),
    files: new FilesService(workspaces),
    testData: services.testData,
    features,
    steps: new StepsService(workspaces, features),
    privateRepos: services.privateRepos,
    projectsRepo,
  });
  registerMailRoutes(route, new MailUsersService(new MailUsersRepo(db), projectSecrets));
  registerRunsRoutes(route, { runs: services.runs, testData: services.testData, workspaces });
  const jobs = new ScenarioJobs(
    db,
    workspaces,
    features,
    services.accessKeys,
    accessKeysRepo,
    sockets,
    {
      workerProcesses: settings.WORKER_PROCESSES,
      runTimeoutMs: settings.RUN_TIMEOUT_MINUTES * 60_000,
      dataDir: settings.dataDir,
      serverUrl: () => {
        const address = app.server.address();
        return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : settings.publicUrl;
      },
      reportLink: (projectId, runId) => services.runs.reportLink(projectId, runId),
    },
    app.log,
  );
  access.registerResource('job', (id) => jobs.projectOf(id));
  registerScenarioJobRoutes(route, jobs);
  // Workers start once the server listens: they reach it over HTTP like any runner.
  app.addHook('onListen', async () => jobs.recover());
  app.addHook('onClose', async () => jobs.close());
  services.jobs = jobs;
  const executionsService = new ExecutionsService(db, workspaces, features);
  access.registerResource('execution', (id) => executionsService.projectOf(id));
  registerExecutionRoutes(route, executionsService);

  await app.register(demoShopPlugin, {
    prefix: DEMO_SHOP_PATH,
    ...(options.demoShopDelayMs === undefined ? {} : { productDelayMs: options.demoShopDelayMs }),
  });
  await registerWebApp(app, settings.webDistDir);
  return { app, services, routes };
}
