import { z } from 'zod';
import { defineCall, Ok } from './call.js';
import { Messages } from './messages.js';
import { RetentionCounts } from './runs.calls.js';
import { SsoSettingsChange, SsoSettingsView } from './sso.js';

/** A domain of an email address, as the sign-up policy lists them (`example.com`). */
const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, Messages.adminSignupDomains);

/**
 * Who may sign up after the first user (who always may, except under `closed`, and becomes the
 * instance administrator): anyone, invited people, invited people and those of some domains, nobody.
 */
export const SignupPolicy = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('open') }),
  z.object({ kind: z.literal('invite') }),
  z.object({ kind: z.literal('domains'), domains: z.array(EmailDomain).min(1, Messages.adminSignupDomains).max(100) }),
  z.object({ kind: z.literal('closed') }),
]);
export type SignupPolicy = z.infer<typeof SignupPolicy>;

/** A whole number from `min` to `max`, refused with `message` otherwise (nothing is saved). */
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/**
 * Instance settings an administrator may change while the server runs; a saved value overrides its
 * environment variable (named beside each), and every server of a cluster applies it within seconds.
 */
export const InstanceSettings = z.object({
  /** SIGNUP. */
  signup: SignupPolicy,
  /** DEFAULT_ALLOWED_PROJECTS: how many projects a new user may create. */
  defaultAllowedProjects: wholeNumber(0, 10_000, Messages.adminAllowedProjects),
  /** SESSION_IDLE_HOURS: a session unused for this many hours expires (up to a year). */
  sessionIdleHours: wholeNumber(1, 8760, Messages.adminSessionIdleHours),
  /** JOB_ATTEMPTS: attempts a job gets when its attempts end in infrastructure errors (not failed scenarios). */
  jobAttempts: wholeNumber(1, 10, Messages.adminJobAttempts),
  /** JOB_RETRY_BACKOFF_SECONDS: wait before an errored job is tried again, doubled for each further attempt. */
  jobRetryBackoffSeconds: wholeNumber(0, 600, Messages.adminJobRetryBackoff),
  /** JOB_HISTORY_DAYS: ended jobs and fired schedule slots are deleted this many days after they ended. */
  jobHistoryDays: wholeNumber(1, 3650, Messages.adminJobHistoryDays),
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

/**
 * The instance settings in force: saved values, else the environment's, which may be finer than an
 * administrator may save (JOB_HISTORY_DAYS=0.5, JOB_RETRY_BACKOFF_SECONDS=1.5).
 */
export const InstanceSettingsInForce = z.object({
  signup: SignupPolicy,
  defaultAllowedProjects: z.number().min(0),
  sessionIdleHours: z.number().positive(),
  jobAttempts: z.number().int().min(1),
  jobRetryBackoffSeconds: z.number().min(0),
  jobHistoryDays: z.number().positive(),
});
export type InstanceSettingsInForce = z.infer<typeof InstanceSettingsInForce>;

/**
 * A change of instance settings: the ones named are saved, the others keep their values; `null`
 * deletes a saved value, so its environment variable's value is in force again.
 */
export const InstanceSettingsChange = z
  .object({
    signup: InstanceSettings.shape.signup.nullable().optional(),
    defaultAllowedProjects: InstanceSettings.shape.defaultAllowedProjects.nullable().optional(),
    sessionIdleHours: InstanceSettings.shape.sessionIdleHours.nullable().optional(),
    jobAttempts: InstanceSettings.shape.jobAttempts.nullable().optional(),
    jobRetryBackoffSeconds: InstanceSettings.shape.jobRetryBackoffSeconds.nullable().optional(),
    jobHistoryDays: InstanceSettings.shape.jobHistoryDays.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), Messages.adminNothingToChange);
export type InstanceSettingsChange = z.infer<typeof InstanceSettingsChange>;

/** The name of one instance setting. */
export const InstanceSettingName = InstanceSettingsInForce.keyof();
export type InstanceSettingName = z.infer<typeof InstanceSettingName>;

/**
 * Where a setting's value in force comes from: `saved` by an administrator (a change naming it
 * with `null` deletes it), or the server's `environment` variable.
 */
export const InstanceSettingSource = z.enum(['saved', 'environment']);
export type InstanceSettingSource = z.infer<typeof InstanceSettingSource>;

/** The instance settings as an administrator sees them: in force, where each comes from, and the environment's values. */
export const InstanceSettingsView = z.object({
  /** The values in force. */
  settings: InstanceSettingsInForce,
  /** For each setting, whether its value in force was saved or is the environment's. */
  sources: z.record(InstanceSettingName, InstanceSettingSource),
  /** The environment variables' values, in force for every setting that has no saved value. */
  environment: InstanceSettingsInForce,
});
export type InstanceSettingsView = z.infer<typeof InstanceSettingsView>;

/** A user as the instance administrator sees it. */
export const AdminUser = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  instanceAdmin: z.boolean(),
  /** A disabled user cannot sign in; their sessions and access keys stopped working when disabled. */
  disabled: z.boolean(),
  allowedProjectsCount: z.number().int(),
  allowDeleteProjects: z.boolean(),
  /** Projects the user is a member of. */
  projects: z.number().int(),
  createdAt: z.string(),
  /** Sign-in asks this user for an authenticator code. */
  twoFactor: z.boolean(),
  /**
   * Wrong passwords blocking sign-in to this account now (DESIGN §9): from some clients, or
   * account-wide for clients it does not know. Null when nothing blocks it.
   */
  signInBlock: z
    .object({
      until: z.string(),
      /** Wrong passwords for this account in the last hour, from all clients. */
      failures: z.number().int(),
      /** Clients blocked from this account on their own failures. */
      blockedClients: z.number().int(),
      /** Clients that never signed in to the account are refused until `until`. */
      accountWide: z.boolean(),
    })
    .nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

/** A project as the instance administrator sees it. */
export const AdminProject = z.object({
  id: z.string(),
  name: z.string(),
  /** Email of the project's admin (its creator); null once that user is deleted. */
  adminEmail: z.string().nullable(),
  members: z.number().int(),
  expiresAt: z.string(),
  is_expired: z.boolean(),
  /** Whole days left, 0 once expired. */
  daysLeft: z.number().int(),
  /** A bought licence (extended at least once) rather than the trial. */
  licensed: z.boolean(),
  maxExecutionThreads: z.number().int(),
  /** The private-repository integration (spec: enabled "through support"). */
  privateRepo: z.boolean(),
  configuredPrivateRepo: z.boolean(),
  createdAt: z.string(),
  /** What the project stores: its runs, their scenarios, and its artifacts' bytes (disk use). */
  stored: RetentionCounts,
});
export type AdminProject = z.infer<typeof AdminProject>;

/** A worker token; the token itself is shown once, when made. */
export const AdminWorkerToken = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type AdminWorkerToken = z.infer<typeof AdminWorkerToken>;

/** A connected worker agent: the threads one machine runs with one token. */
export const ConnectedAgent = z.object({
  tokenId: z.string(),
  tokenName: z.string(),
  host: z.string(),
  threads: z.number().int(),
  /** Threads running a scenario now. */
  busyThreads: z.number().int(),
  lastHeartbeatAt: z.string(),
});
export type ConnectedAgent = z.infer<typeof ConnectedAgent>;

/** One audited administration action. */
export const AdminActivity = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Email of the administrator, or null for `npm run admin` on the server. */
  actor: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AdminActivity = z.infer<typeof AdminActivity>;

const UserIdParams = z.object({ userId: z.uuid({ error: Messages.adminUserNotFound }) });
const ProjectIdParams = z.object({ projectId: z.uuid({ error: Messages.adminProjectNotFound }) });
const EXAMPLE_ID = '00000000-0000-4000-8000-0000000000ad';

/**
 * Instance administration (DESIGN §12): users, projects' licences and limits, worker tokens and
 * agents, the sign-up policy. Only instance administrators; every change is audited, and
 * `npm run admin` makes the same changes through the same service.
 */
export const adminCalls = {
  listUsers: defineCall({
    method: 'GET',
    path: '/api/admin/users',
    summary: 'Every user of the instance',
    access: 'instanceAdmin',
    response: Ok.extend({ users: z.array(AdminUser) }),
  }),
  updateUser: defineCall({
    method: 'PATCH',
    path: '/api/admin/users/:userId',
    summary: 'Disable or enable a user, name or unname an administrator, set allowed projects and the delete-projects right',
    access: 'instanceAdmin',
    params: UserIdParams,
    body: z
      .object({
        disabled: z.boolean().optional(),
        instanceAdmin: z.boolean().optional(),
        allowedProjectsCount: z
          .number({ error: Messages.adminAllowedProjects })
          .int(Messages.adminAllowedProjects)
          .min(0, Messages.adminAllowedProjects)
          .max(10_000, Messages.adminAllowedProjects)
          .optional(),
        allowDeleteProjects: z.boolean().optional(),
      })
      .refine((body) => Object.values(body).some((value) => value !== undefined), Messages.adminNothingToChange),
    response: Ok.extend({ user: AdminUser }),
    example: { params: { userId: EXAMPLE_ID }, body: { allowDeleteProjects: true } },
  }),
  clearSignInBlocks: defineCall({
    method: 'DELETE',
    path: '/api/admin/users/:userId/sign-in-blocks',
    summary: "Lift every sign-in block on a user's account and forget its failed sign-ins",
    access: 'instanceAdmin',
    params: UserIdParams,
    response: Ok.extend({ user: AdminUser }),
    example: { params: { userId: EXAMPLE_ID } },
  }),
  resetTwoFactor: defineCall({
    method: 'DELETE',
    path: '/api/admin/users/:userId/two-factor',
    summary: "Turn off a user's two-factor sign-in (they lost their authenticator and recovery codes); their password signs in alone",
    access: 'instanceAdmin',
    params: UserIdParams,
    response: Ok.extend({ user: AdminUser }),
    example: { params: { userId: EXAMPLE_ID } },
  }),
  listProjects: defineCall({
    method: 'GET',
    path: '/api/admin/projects',
    summary: 'Every project of the instance with its licence and limits',
    access: 'instanceAdmin',
    response: Ok.extend({ projects: z.array(AdminProject) }),
  }),
  extendLicence: defineCall({
    method: 'POST',
    path: '/api/admin/projects/:projectId/extend-licence',
    summary: 'Extend a project’s licence by some days from the later of now and its expiry',
    access: 'instanceAdmin',
    params: ProjectIdParams,
    body: z.object({
      days: z
        .number({ error: Messages.adminLicenceDays })
        .int(Messages.adminLicenceDays)
        .min(1, Messages.adminLicenceDays)
        .max(3650, Messages.adminLicenceDays),
    }),
    response: Ok.extend({ project: AdminProject }),
    example: { params: { projectId: EXAMPLE_ID }, body: { days: 30 } },
  }),
  updateProject: defineCall({
    method: 'PATCH',
    path: '/api/admin/projects/:projectId',
    summary: 'Set a project’s execution threads, or enable or disable its private-repository integration',
    access: 'instanceAdmin',
    params: ProjectIdParams,
    body: z
      .object({
        maxExecutionThreads: z
          .number({ error: Messages.adminThreads })
          .int(Messages.adminThreads)
          .min(0, Messages.adminThreads)
          .max(64, Messages.adminThreads)
          .optional(),
        privateRepo: z.boolean().optional(),
      })
      .refine((body) => Object.values(body).some((value) => value !== undefined), Messages.adminNothingToChange),
    response: Ok.extend({ project: AdminProject }),
    example: { params: { projectId: EXAMPLE_ID }, body: { maxExecutionThreads: 4 } },
  }),
  listWorkers: defineCall({
    method: 'GET',
    path: '/api/admin/workers',
    summary: 'Worker tokens and the agents connected with them (threads, last heartbeat)',
    access: 'instanceAdmin',
    response: Ok.extend({ tokens: z.array(AdminWorkerToken), agents: z.array(ConnectedAgent) }),
  }),
  createWorkerToken: defineCall({
    method: 'POST',
    path: '/api/admin/workers/tokens',
    summary: 'Make a worker token for `rehearse worker --token` (the token is shown once)',
    access: 'instanceAdmin',
    body: z.object({
      name: z
        .string({ error: Messages.adminWorkerTokenName })
        .trim()
        .min(1, Messages.adminWorkerTokenName)
        .max(100, Messages.adminWorkerTokenName),
    }),
    response: Ok.extend({ workerToken: AdminWorkerToken, token: z.string() }),
    example: { body: { name: 'ci-runner-1' } },
  }),
  deleteWorkerToken: defineCall({
    method: 'DELETE',
    path: '/api/admin/workers/tokens/:tokenId',
    summary: 'Revoke a worker token: its agents are refused from their next call',
    access: 'instanceAdmin',
    params: z.object({ tokenId: z.uuid({ error: Messages.adminWorkerTokenNotFound }) }),
    response: Ok,
    example: { params: { tokenId: EXAMPLE_ID } },
  }),
  getSettings: defineCall({
    method: 'GET',
    path: '/api/admin/settings',
    summary: 'The sign-up policy, session, job and job-history settings that may change while the server runs',
    access: 'instanceAdmin',
    response: Ok.extend(InstanceSettingsView.shape),
  }),
  updateSettings: defineCall({
    method: 'PUT',
    path: '/api/admin/settings',
    summary:
      "Change some instance settings (those named; null goes back to the environment's value); every server applies them within seconds, without a restart",
    access: 'instanceAdmin',
    body: InstanceSettingsChange,
    response: Ok.extend(InstanceSettingsView.shape),
    example: { body: { signup: { kind: 'open' }, defaultAllowedProjects: 10 } },
  }),
  getSingleSignOn: defineCall({
    method: 'GET',
    path: '/api/admin/sso',
    summary: 'Single sign-on as configured (saved here, or the OIDC_* variables), never its secret',
    access: 'instanceAdmin',
    response: Ok.extend({ sso: SsoSettingsView }),
  }),
  updateSingleSignOn: defineCall({
    method: 'PUT',
    path: '/api/admin/sso',
    summary: "Save single sign-on (checked against the provider's discovery document first); every server applies it within seconds",
    access: 'instanceAdmin',
    body: SsoSettingsChange,
    response: Ok.extend({ sso: SsoSettingsView }),
    example: { body: { issuer: 'https://id.example.com', clientId: 'rehearse', clientSecret: 'secret', name: 'Example ID' } },
  }),
  clearSingleSignOn: defineCall({
    method: 'DELETE',
    path: '/api/admin/sso',
    summary: 'Forget the saved single sign-on: the OIDC_* variables apply again (off without them)',
    access: 'instanceAdmin',
    response: Ok.extend({ sso: SsoSettingsView }),
  }),
  listActivity: defineCall({
    method: 'GET',
    path: '/api/admin/activity',
    summary: 'The latest administration actions, newest first',
    access: 'instanceAdmin',
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
    response: Ok.extend({ activity: z.array(AdminActivity) }),
  }),
} as const;
