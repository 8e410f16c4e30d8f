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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    passwordEncrypted: text('password_encrypted').notNull(),
    secretKeyEncrypted: text('secret_key_encrypted'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('mail_users_project_username_key').on(table.projectId, table.username)],
);
