import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
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
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('users_email_key').on(table.email)],
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
  },
  (table) => [uniqueIndex('access_keys_token_hash_key').on(table.tokenHash), index('access_keys_project_idx').on(table.projectId)],
);

export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    entry: jsonb('entry').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('activity_log_user_idx').on(table.userId)],
);

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

/** One uploaded run: a `rehearse run` (local or cloud) with its scenarios. */
export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: projectReference(),
    uploadKey: text('upload_key').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    name: text('name').notNull(),
    /** 'scenario' for a single-scenario execution ("Run scenario"), 'run' otherwise. */
    kind: text('kind', { enum: ['run', 'scenario'] }).notNull().default('run'),
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
    index('runs_project_publish_idx').on(table.projectId, table.publishTime),
    // The reports list shows top-level runs newest first, optionally by status.
    index('runs_list_idx').on(table.projectId, table.publishTime).where(sql`${table.rerunOf} is null`),
    index('runs_list_status_idx').on(table.projectId, table.status, table.publishTime).where(sql`${table.rerunOf} is null`),
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
  },
  (table) => [index('test_cases_run_idx').on(table.runId, table.position), index('test_cases_project_idx').on(table.projectId, table.startTime)],
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
    state: text('state', { enum: ['queued', 'running', 'passed', 'failed', 'error'] })
      .notNull()
      .default('queued'),
    runId: uuid('run_id').references(() => runs.id, { onDelete: 'set null' }),
    message: text('message'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
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
