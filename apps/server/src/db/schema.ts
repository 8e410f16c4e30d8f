import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The owning project; rows go when their project goes. */
const projectReference = () =>
  uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored lower-cased: emails compare case-insensitively. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    companyName: text('company_name'),
    country: text('country'),
    phone: text('phone'),
    allowedProjectsCount: integer('allowed_projects_count').notNull(),
    allowDeleteProjects: boolean('allow_delete_projects').notNull().default(true),
    lastActiveProjectId: uuid('last_active_project_id'),
    /** The instance administrator (the first user to sign up): may later manage users and the sign-up policy. */
    instanceAdmin: boolean('instance_admin').notNull().default(false),
    /** Set by an instance administrator: the user cannot sign in, and their sessions and keys stop working. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Two-factor sign-in: the TOTP secret (encrypted with the server's key) once confirmed. */
    totpSecret: text('totp_secret'),
    /** A secret shown for enrolment, not yet confirmed by a code (encrypted). */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last time step a code was accepted for: a code is good once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** SHA-256 digests of the unused recovery codes. */
    totpRecoveryCodes: jsonb('totp_recovery_codes').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('users_email_key').on(table.email)],
);

/**
 * Sign-in failures (DESIGN §9), one row per thing counted: `pair` (an email from one client),
 * `client` (one client, whatever the email) and `account` (an email, from any client). Emails
 * nobody owns are counted exactly like real accounts, so the answers tell nothing about which exist.
 * Rules: `auth/sign-in-throttle.ts`; SQL: `auth/sign-in-throttles.repo.ts`.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    scope: text('scope').$type<'pair' | 'client' | 'account'>().notNull(),
    key: text('key').notNull(),
    /** The lower-cased email a pair or account row counts (what the admin area lists); null on client rows. */
    email: text('email'),
    /** Failures counted since windowStartedAt (counted before the password is checked; a success takes its own back). */
    failures: integer('failures').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    /** Attempts are refused until then. */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** Pair rows: this client's last successful sign-in to this account; it then passes an account-wide guard. */
    signedInAt: timestamp('signed_in_at', { withTimezone: true }),
    /** Account rows: when the owner was last told about repeated failures. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] }), index('sign_in_throttles_email').on(table.email)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the token: a leaked table grants nothing. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  url: text('url'),
  demo: boolean('demo').notNull().default(false),
  description: text('description'),
  privateRepo: boolean('private_repo').notNull().default(false),
  configuredPrivateRepo: boolean('configured_private_repo').notNull().default(false),
  privateRepoUrl: text('private_repo_url'),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  licenceExpiresAt: timestamp('licence_expires_at', { withTimezone: true }).notNull(),
  /** Set once a licence is bought (admin extend-licence); trial projects may not invite outside allowed domains. */
  licensed: boolean('licensed').notNull().default(false),
  maxExecutionThreads: integer('max_execution_threads').notNull().default(2),
  /** Base URL of the project's first environment (default.json), written into the workspace when it is created. */
  defaultEnvironmentUrl: text('default_environment_url'),
  workspaceCreatedAt: timestamp('workspace_created_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: projectReference(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['ADMIN', 'MEMBER'] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.userId] }), index('project_members_user_idx').on(table.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    email: text('email').notNull(),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'accepted', 'declined'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('invitations_pending_email_key')
      .on(table.projectId, table.email)
      .where(sql`${table.status} = 'pending'`),
    index('invitations_project_idx').on(table.projectId),
  ],
);

export const accessKeys = pgTable(
  'access_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Last characters of the token, so a table of keys can tell them apart. */
    tokenHint: text('token_hint').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /**
     * null: a user's key (every project call its creator may make). 'run': a job's key, made for
     * one scenario job and deleted when it ends; it only downloads the workspace, reads the run's
     * test data and uploads the run's artifacts and report (auth/job-keys.ts).
     */
    scope: text('scope'),
    /** The key stops authenticating at this time; null never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Whether the key may read plain secret and totp test data (only keys a project admin or the server creates). */
    readsSecrets: boolean('reads_secrets').notNull().default(false),
  },
  (table) => [uniqueIndex('access_keys_token_hash_key').on(table.tokenHash), index('access_keys_project_idx').on(table.projectId)],
);

export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * `client`: what the web app sends (POST /log, anyone's own words); `admin`: an instance
     * administration action written by the server, which no client can forge.
     */
    kind: text('kind', { enum: ['client', 'admin'] })
      .notNull()
      .default('client'),
    entry: jsonb('entry').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('activity_log_user_idx').on(table.userId), index('activity_log_admin_idx').on(table.kind, table.id)],
);

/** Instance settings an administrator changed at run time; each overrides its environment variable. */
export const instanceSettings = pgTable('instance_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const productEvents = pgTable('product_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
  event: text('event').notNull(),
  createdAt: createdAt(),
});

/** Where each member left off in a project: environment, branch, feature and scenario. */
export const workspaceState = pgTable(
  'workspace_state',
  {
    projectId: projectReference(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastEnv: text('last_env'),
    lastBranch: text('last_branch'),
    lastFeatureIndex: integer('last_feature_index'),
    lastScenarioIndex: integer('last_scenario_index'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.userId] })],
);

/** Per-project secrets: the data key (wrapped by the server key) and private repository credentials. */
export const projectSecrets = pgTable('project_secrets', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** AES-256-GCM data key that encrypts test-data secrets, itself encrypted with REHEARSE_SECRET_KEY. */
  wrappedDataKey: text('wrapped_data_key'),
  repoUsername: text('repo_username'),
  /** Encrypted with REHEARSE_SECRET_KEY; never logged, never written into a git URL on disk. */
  repoTokenEncrypted: text('repo_token_encrypted'),
  repoUrl: text('repo_url'),
  repoConfiguredBy: uuid('repo_configured_by').references(() => users.id, { onDelete: 'set null' }),
  repoConfiguredAt: timestamp('repo_configured_at', { withTimezone: true }),
});

/** Mail / authenticator users a scenario can sign in as (spec 02 §3 "Mail/authenticator user"). */
export const mailUsers = pgTable(
  'mail_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    username: text('username').notNull(),
    passwordEncrypted: text('password_encrypted').notNull(),
    secretKeyEncrypted: text('secret_key_encrypted'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('mail_users_project_username_key').on(table.projectId, table.username)],
);

/** Content-addressed artifacts a project uploaded (the bytes live under DATA_DIR/artifacts). */
export const artifacts = pgTable(
  'artifacts',
  {
    projectId: projectReference(),
    /** sha256 of the bytes, hex. */
    id: text('id').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.id] })],
);

/**
 * Which artifacts each run names (screenshots, healing pictures, JUnit/HTML files, traces), kept at
 * upload so retention finds the artifacts no kept run refers to without reading every report.
 */
export const runArtifacts = pgTable(
  'run_artifacts',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    projectId: projectReference(),
    artifactId: text('artifact_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.artifactId] }),
    index('run_artifacts_artifact_idx').on(table.projectId, table.artifactId),
  ],
);

/** How long a project keeps its runs (with their artifacts and traces); no row, or nulls, keeps everything. */
export const projectRetention = pgTable('project_retention', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** Runs whose last activity (the run or its newest rerun) is older than this many days go. */
  keepDays: integer('keep_days'),
  /** Only this many newest runs (each with its reruns) stay. */
  keepRuns: integer('keep_runs'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each project's all-time run counts for the dashboard, kept by statement triggers on `runs`
 * (migration 0019): exact under every write (upload, append, stop, retention, project deletion)
 * without counting a year of runs on every dashboard load.
 */
export const projectRunTotals = pgTable('project_run_totals', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  runs: integer('runs').notNull().default(0),
  scenarios: bigint('scenarios', { mode: 'number' }).notNull().default(0),
  passed: integer('passed').notNull().default(0),
  failed: integer('failed').notNull().default(0),
});

/** One uploaded run: a `rehearse run` (local or cloud) with its scenarios. */
export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    uploadKey: text('upload_key').notNull(),
    /** SHA-256 of the upload's body: a retry with the same key must carry the same body. */
    uploadDigest: text('upload_digest'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    name: text('name').notNull(),
    /** 'scenario' for a single-scenario execution ("Run scenario"), 'run' otherwise. */
    kind: text('kind', { enum: ['run', 'scenario'] })
      .notNull()
      .default('run'),
    mode: text('mode', { enum: ['local', 'cloud'] }).notNull(),
    branch: text('branch').notNull().default('main'),
    envName: text('env_name').notNull(),
    envBaseUrl: text('env_base_url').notNull(),
    browser: text('browser').notNull(),
    status: text('status', { enum: ['PASSED', 'FAILED'] }).notNull(),
    totalScenarios: integer('total_scenarios').notNull(),
    passedScenarios: integer('passed_scenarios').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    publishTime: timestamp('publish_time', { withTimezone: true }).notNull().defaultNow(),
    /** Set when this run re-ran another one (nested under it in the reports list). */
    rerunOf: uuid('rerun_of'),
  },
  (table) => [
    uniqueIndex('runs_project_upload_key').on(table.projectId, table.uploadKey),
    // Also carries what the dashboard counts, so its counts read the index alone (an index-only scan).
    index('runs_project_publish_idx').on(table.projectId, table.publishTime, table.status, table.totalScenarios),
    // The reports list shows top-level runs newest first, optionally by status.
    index('runs_list_idx')
      .on(table.projectId, table.publishTime)
      .where(sql`${table.rerunOf} is null`),
    index('runs_list_status_idx')
      .on(table.projectId, table.status, table.publishTime)
      .where(sql`${table.rerunOf} is null`),
    // The list sorted by another column reads its page from an index, not by sorting every run.
    index('runs_list_name_idx')
      .on(table.projectId, table.name, table.id)
      .where(sql`${table.rerunOf} is null`),
    index('runs_list_duration_idx')
      .on(table.projectId, sql`((extract(epoch from ("end_time" - "start_time")) * 1000)::float8)`, table.id)
      .where(sql`${table.rerunOf} is null`),
    // A list page fetches its rows' reruns by rerun_of; without this, every page read the project's runs.
    index('runs_rerun_of_idx')
      .on(table.rerunOf)
      .where(sql`${table.rerunOf} is not null`),
  ],
);

/** One scenario of a run, with its whole report (steps, commands, logs) as JSON. */
export const testCases = pgTable(
  'test_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    projectId: projectReference(),
    position: integer('position').notNull(),
    scenarioName: text('scenario_name').notNull(),
    featureName: text('feature_name').notNull(),
    status: text('status').notNull(),
    failedStepText: text('failed_step_text'),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    report: jsonb('report').notNull(),
    /** Set when a worker appended this scenario to an execution's run: a retried job stores it once. */
    appendKey: text('append_key'),
  },
  (table) => [
    index('test_cases_run_idx').on(table.runId, table.position),
    index('test_cases_project_idx').on(table.projectId, table.startTime),
    uniqueIndex('test_cases_run_append_key').on(table.runId, table.appendKey),
  ],
);

/** Comments on a scenario of a run (spec 02 §3 "Comment"). */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    testCaseId: uuid('test_case_id')
      .notNull()
      .references(() => testCases.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('comments_test_case_idx').on(table.testCaseId)],
);

/** "Run scenario" requests: queued, run by a worker process, finished with a run or an error. */
export const scenarioJobs = pgTable(
  'scenario_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    branch: text('branch').notNull(),
    featureName: text('feature_name').notNull(),
    scenarioName: text('scenario_name').notNull(),
    environment: text('environment').notNull(),
    /** Run with AI recovery (`rehearse run --heal`). */
    heal: boolean('heal').notNull().default(false),
    state: text('state', { enum: ['queued', 'running', 'passed', 'failed', 'error'] })
      .notNull()
      .default('queued'),
    runId: uuid('run_id').references(() => runs.id, { onDelete: 'set null' }),
    message: text('message'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The server instance running the job (REHEARSE_ROLES workers), for the logs and its own restart. */
    owner: text('owner'),
    /** Renewed by the owner while the job runs; a running job whose lease lapsed was orphaned by a dead server. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** Claims so far; an attempt that ended in an infrastructure error is retried up to JOB_ATTEMPTS. */
    attempts: integer('attempts').notNull().default(0),
    /** A retried job is not claimed before this (the backoff). */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** The server instance whose attempt errored: another one takes the retry while one claims. */
    erroredOwner: text('errored_owner'),
  },
  (table) => [index('scenario_jobs_state_idx').on(table.state, table.createdAt)],
);

/** A planned execution: flows of tag-selected scenario groups, optionally on a schedule (spec 02 §3). */
export const executions = pgTable(
  'executions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    env: text('env').notNull(),
    branch: text('branch').notNull().default('main'),
    flows: jsonb('flows').notNull(),
    schedule: jsonb('schedule'),
    /** When the schedule was last set: biweekly schedules count weeks from here. */
    scheduleSetAt: timestamp('schedule_set_at', { withTimezone: true }),
    isSingleThreaded: boolean('is_single_threaded').notNull().default(false),
    enabled: boolean('enabled').notNull().default(false),
    running: boolean('running').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('executions_project_idx').on(table.projectId, table.createdAt)],
);

/** Tokens of worker agents (`npm run admin -- create-worker-token`); only the SHA-256 digest is kept. */
export const workerTokens = pgTable(
  'worker_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('worker_tokens_token_hash_key').on(table.tokenHash)],
);

/** Worker threads seen lately (one row per worker id, i.e. per thread of an agent), for the admin's Workers tab. */
export const workerPresence = pgTable('worker_presence', {
  workerId: text('worker_id').primaryKey(),
  tokenId: uuid('token_id')
    .notNull()
    .references(() => workerTokens.id, { onDelete: 'cascade' }),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  /** Running a job at its last call (a heartbeat with jobs, or a claim that got one). */
  busy: boolean('busy').notNull().default(false),
});

/** One start of an execution (by hand or by its schedule) and the one run report it fills. */
export const executionRuns = pgTable(
  'execution_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    executionId: uuid('execution_id')
      .notNull()
      .references(() => executions.id, { onDelete: 'cascade' }),
    projectId: projectReference(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    branch: text('branch').notNull(),
    /** The branch's commit when the run started: its workers run exactly this (null for older runs). */
    commit: text('commit'),
    env: text('env').notNull(),
    trigger: text('trigger', { enum: ['manual', 'schedule'] }).notNull(),
    state: text('state', { enum: ['running', 'passed', 'failed', 'halted'] })
      .notNull()
      .default('running'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The run's job counts, kept when it ends: its jobs are job history, deleted after
     * JOB_HISTORY_DAYS, while the execution still shows how its run went. Null while running.
     */
    totalJobs: integer('total_jobs'),
    passedJobs: integer('passed_jobs'),
    failedJobs: integer('failed_jobs'),
    /** Jobs that ended in an infrastructure error after their last attempt (never counted as failed scenarios). */
    erroredJobs: integer('errored_jobs'),
  },
  (table) => [
    index('execution_runs_execution_idx').on(table.executionId, table.createdAt),
    // The run report asks which execution (if any) is appending to a run.
    index('execution_runs_run_idx').on(table.runId),
  ],
);

/**
 * One scenario of an execution run, pulled by a worker thread. A job is claimable when no earlier
 * group of its flow is unfinished and its group runs fewer than threadCount jobs.
 */
export const executionJobs = pgTable(
  'execution_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    executionRunId: uuid('execution_run_id')
      .notNull()
      .references(() => executionRuns.id, { onDelete: 'cascade' }),
    projectId: projectReference(),
    flowIndex: integer('flow_index').notNull(),
    groupIndex: integer('group_index').notNull(),
    threadCount: integer('thread_count').notNull(),
    position: integer('position').notNull(),
    featurePath: text('feature_path').notNull(),
    scenarioName: text('scenario_name').notNull(),
    browser: text('browser').notNull(),
    viewport: text('viewport').notNull(),
    /** `error`: an infrastructure error on its last attempt (issue 21), not a failed scenario. */
    state: text('state', { enum: ['queued', 'running', 'passed', 'failed', 'error', 'skipped', 'cancelled'] })
      .notNull()
      .default('queued'),
    /** Claims so far; a job whose worker errored or stopped heartbeating is retried up to the engine's attempts. */
    attempts: integer('attempts').notNull().default(0),
    /** A retried job is not claimed before this (the backoff after an infrastructure error). */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** The worker thread whose attempt last errored: the retry goes to another one while one claims. */
    erroredWorkerId: text('errored_worker_id'),
    workerId: text('worker_id'),
    accessKeyId: uuid('access_key_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /**
     * When the job was handed to the job queue (pg-boss), where workers claim it: a flow's group is
     * released once its earlier groups ended, at most its threadCount jobs at a time, so the queue
     * never holds a job its flow's order or thread limit would not let run. Null while it waits.
     */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    message: text('message'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('execution_jobs_state_idx').on(table.state, table.createdAt),
    index('execution_jobs_run_idx').on(table.executionRunId, table.flowIndex, table.groupIndex),
  ],
);

/**
 * Code Review items (spec 01 §4, DESIGN §8): a locator fix self-healing found in one scenario run,
 * as the new contents of one locator file. Nothing changes in the workspace until it is accepted.
 */
export const oversightItems = pgTable(
  'oversight_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    testCaseId: uuid('test_case_id')
      .notNull()
      .references(() => testCases.id, { onDelete: 'cascade' }),
    branch: text('branch').notNull().default('main'),
    featureName: text('feature_name').notNull(),
    scenarioName: text('scenario_name').notNull(),
    classification: text('classification').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    /** Workspace path of the locator file and its contents before and after the fix. */
    file: text('file').notNull(),
    before: text('before').notNull(),
    after: text('after').notNull(),
    /**
     * The healed entries, `{ key, locators, fingerprint }[]` as JSON text (jsonb would reorder their
     * keys), re-applied to the file as it is when accepted.
     */
    changes: text('changes').notNull(),
    beforeScreenshotId: text('before_screenshot_id'),
    afterScreenshotId: text('after_screenshot_id'),
    /** pending, accepted or archived (Discard). */
    state: text('state').notNull().default('pending'),
    createdAt: createdAt(),
  },
  (table) => [index('oversight_items_project_idx').on(table.projectId, table.state, table.createdAt)],
);

/**
 * Pages the recorder saw (DESIGN §7 application memory): per project and route, the latest ARIA
 * snapshot and the recorded steps, merged into the memory map with what runs saw.
 */
export const recordedPages = pgTable(
  'recorded_pages',
  {
    projectId: projectReference(),
    route: text('route').notNull(),
    snapshot: text('snapshot').notNull(),
    /** Step title → the commands recorded for it, the same shape as the memory's pathsmap entries. */
    steps: jsonb('steps').notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.route] })],
);

/** Which recorded page led to which (issue 23): the application map's edges from recordings. */
export const recordedNavigations = pgTable(
  'recorded_navigations',
  {
    projectId: projectReference(),
    fromRoute: text('from_route').notNull(),
    toRoute: text('to_route').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.fromRoute, table.toRoute] })],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * The socket.io PostgreSQL adapter's table (its documented layout) for broadcasts over NOTIFY's
 * 8,000-byte limit, such as a long execution list; the adapter deletes old rows itself.
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  payload: bytea('payload'),
});
