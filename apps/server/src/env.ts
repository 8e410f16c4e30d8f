import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isAllowedIssuer, type SignupPolicy } from '@rehearse/contract';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();

/** One proxy address or CIDR range, e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For is believed: absent trusts none (the socket address is the client,
 * so rotating the header cannot dodge the sign-in rate limit); a number trusts that many hops; else a
 * comma list of addresses/CIDRs.
 */
const trustProxySetting = z
  .string()
  .transform((text, context): number | string[] => {
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length === 1 && /^\d{1,2}$/.test(entries[0] ?? '')) return Number(entries[0]);
    if (entries.length > 0 && entries.every(isAddressOrCidr)) return entries;
    context.addIssue({ code: 'custom', message: 'must be a hop count or a comma list of proxy addresses/CIDRs' });
    return z.NEVER;
  })
  .optional();

/** The parts of the server a process can run (REHEARSE_ROLES). */
export const ROLES = ['api', 'scheduler', 'workers'] as const;
export type Role = (typeof ROLES)[number];

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * SIGNUP: absent means `invite` (the first user of an empty instance always signs up and becomes
 * its administrator, except under `closed`).
 */
const signupSetting = z
  .string()
  .transform((text, context): SignupPolicy => {
    const value = text.trim().toLowerCase();
    if (value === 'open' || value === 'invite' || value === 'closed') return { kind: value };
    if (value.startsWith('domains:')) {
      const domains = value
        .slice('domains:'.length)
        .split(',')
        .map((domain) => domain.trim().replace(/^@/, ''))
        .filter(Boolean);
      if (domains.length > 0 && domains.every((domain) => DOMAIN.test(domain))) return { kind: 'domains', domains };
    }
    context.addIssue({ code: 'custom', message: 'must be open, invite, closed or domains:<comma list of email domains>' });
    return z.NEVER;
  })
  .default({ kind: 'invite' });

/**
 * Every setting of the server, read once at start. Each entry is documented here and in the
 * README's settings table; a bad value stops the server with a sentence naming the variable.
 */
const SettingsSchema = z
  .object({
    /** Port the web app, API, sockets and demo shop are served on. */
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    /** Interface to listen on. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Where the embedded database, workspaces, artifacts and the generated secret key live. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** PostgreSQL connection string; when absent the embedded PGlite database under DATA_DIR is used. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    /** PostgreSQL schema the server's tables live in (several installs or tests can share one database). */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
    /** 32-byte key (64 hex characters or base64) that encrypts stored secrets; generated into DATA_DIR when absent. */
    REHEARSE_SECRET_KEY: z.string().optional(),
    /** Address users reach the server at; used in invitation links and the demo environment. */
    PUBLIC_URL: z.url().optional(),
    /** pino log level. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** SMTP server for invitation mail, e.g. smtp://user:pass@mail.example.com:587; without it invites are links only. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    /** Sender of invitation mail. */
    MAIL_FROM: z.string().min(3).default('Rehearse <no-reply@rehearse.local>'),
    /** A session unused for this many hours expires. */
    SESSION_IDLE_HOURS: positiveInt.default(72),
    /** A session expires this many days after sign-in, used or not. */
    SESSION_MAX_DAYS: positiveInt.default(30),
    /** Proxies whose X-Forwarded-For names the client: a hop count or addresses/CIDRs; absent trusts none. */
    TRUST_PROXY: trustProxySetting,
    /** Sign-in and sign-up attempts allowed per client address per minute. */
    AUTH_RATE_LIMIT_PER_MINUTE: positiveInt.default(20),
    /** Who may sign up: open, invite (default), domains:<list> (invitation or an allowed email domain), closed. */
    SIGNUP: signupSetting,
    /** Wrong passwords for one account from one client (an hour's count) after which that client waits for that account. */
    SIGNIN_LOCKOUT_AFTER: positiveInt.default(5),
    /** Wrong passwords from one client, whatever the accounts (an hour's count), after which that client waits. */
    SIGNIN_CLIENT_LOCKOUT_AFTER: positiveInt.default(20),
    /** Wrong passwords for one account from all clients (an hour's count) after which only clients that signed in to it before may try. */
    SIGNIN_ACCOUNT_GUARD_AFTER: positiveInt.default(50),
    /** First wait in seconds; each further failure doubles it, up to SIGNIN_LOCKOUT_MAX_SECONDS. */
    SIGNIN_LOCKOUT_SECONDS: positiveInt.default(30),
    /** Longest wait in seconds. */
    SIGNIN_LOCKOUT_MAX_SECONDS: positiveInt.default(3600),
    /** Password hashes computed at once (scrypt: a core and 128 MiB each); default one fewer than the cores, at least one. */
    PASSWORD_HASH_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /** Sign-ins and sign-ups waiting for a hash, all clients together, before more are answered 429 at once. */
    PASSWORD_HASH_QUEUE: positiveInt.default(32),
    /** Sign-ins and sign-ups waiting for a hash from one client before its next is answered 429 at once. */
    PASSWORD_HASH_PER_CLIENT: positiveInt.default(4),
    /** Tests only: log2 of the scrypt cost for new password hashes, below OWASP's 17, so suites that sign up hundreds of users stay fast. Never set it in production. */
    TEST_ONLY_SCRYPT_LOG_N: z.coerce.number().int().min(10).max(16).optional(),
    /** Projects a new user may create (the spec's allowedProjectsCount). */
    DEFAULT_ALLOWED_PROJECTS: z.coerce.number().int().min(0).default(10),
    /** Comma-separated email domains a trial project may invite besides the inviter's own domain. */
    TRIAL_INVITE_DOMAINS: z.string().default(''),
    /** Let recorder and runner browsers reach private network addresses (cloud metadata stays refused). */
    REHEARSE_ALLOW_PRIVATE_TARGETS: booleanFlag.default(true),
    /** How many scenario runs this server executes at once, each in its own worker process; 0 only queues. */
    WORKER_PROCESSES: z.coerce.number().int().min(0).max(64).default(2),
    /**
     * "Run scenario" on warm runners (issue 21): a sandboxed runner per project, branch and commit
     * keeps its workspace, support code and browser between clicks. Off, each click starts
     * `rehearse pull` and `rehearse run` afresh (seconds more per click).
     */
    WARM_RUNNERS: booleanFlag.default(true),
    /**
     * Run jobs (Run scenario, local workers' executions) without the bubblewrap sandbox: only for a
     * trusted single-user install on a machine that cannot sandbox (docs/security.md). Without it a
     * server whose jobs cannot be sandboxed refuses to start, naming what is missing.
     */
    REHEARSE_UNSANDBOXED_WORKERS: booleanFlag.default(false),
    /**
     * Every job's deadline in minutes (fractions allowed: 0.1 is 6 seconds): a "Run scenario" job,
     * and each execution scenario of this server's local workers (at most the contract's 15). Past
     * it the job's process tree is killed and the job ends as an infrastructure error.
     */
    RUN_TIMEOUT_MINUTES: z.coerce
      .number()
      .min(0.02)
      .max(24 * 60)
      .default(15),
    /** Attempts an execution scenario or "Run scenario" job gets when its attempts end in infrastructure errors (not failed scenarios). */
    JOB_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /** Seconds before an errored job is tried again, doubled for each further attempt. */
    JOB_RETRY_BACKOFF_SECONDS: z.coerce.number().min(0).max(600).default(5),
    /** Worker child processes this server starts for executions (each a `rehearse worker`); 0 leaves executions to remote workers. */
    LOCAL_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
    /** Scenarios each local worker runs at once. */
    LOCAL_WORKER_THREADS: z.coerce.number().int().min(1).max(64).default(2),
    /**
     * Each execution scenario in a fresh sandboxed process, workspace copy and browser (the worker's
     * `--process-per-scenario`) instead of the thread's warm runner for the execution run.
     */
    LOCAL_WORKER_PROCESS_PER_SCENARIO: booleanFlag.default(false),
    /** A job whose worker has not heartbeaten for this many seconds is retried once on another worker. */
    WORKER_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
    /** How often each server looks for due schedules. */
    /** Ended execution jobs, "Run scenario" jobs (pg-boss's copies too) and fired schedule slots are deleted this many days after they ended. */
    JOB_HISTORY_DAYS: z.coerce.number().min(0.001).max(3650).default(14),
    SCHEDULER_TICK_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
    /** Tests only: the scheduler's clock starts at this ISO time instead of now... */
    SCHEDULER_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
    /** ...and runs this many times faster than real time. */
    SCHEDULER_CLOCK_SPEED: z.coerce.number().min(1).max(10_000).default(1),
    /** OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp server) that improves the built-in AI engine, e.g. http://127.0.0.1:11434/v1; without it the built-in engine answers alone. */
    AI_BASE_URL: z.url().optional(),
    /** Bearer key sent to AI_BASE_URL, when the endpoint wants one. */
    AI_API_KEY: z.string().optional(),
    /** Model name asked of AI_BASE_URL. */
    AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    /** An AI provider answer that takes longer than this many seconds is abandoned for the built-in engine. */
    AI_TIMEOUT_SECONDS: positiveInt.default(30),
    /** Cloud recorder sessions (each a Chromium) this server runs at once for all users; more answer 503. */
    RECORDER_CAPACITY: z.coerce.number().int().min(0).max(256).default(6),
    /** Cloud recorder sessions one project may hold at once, so one project cannot take the whole capacity. */
    RECORDER_PROJECT_CAPACITY: z.coerce.number().int().min(1).max(256).default(3),
    /** Length of a cloud recorder session in seconds (spec 02 §9: 30 minutes). */
    RECORDER_SESSION_SECONDS: positiveInt.default(1800),
    /** A cloud recorder session that is not streaming after this many seconds fails (spec: 45). */
    RECORDER_CREATION_TIMEOUT_SECONDS: positiveInt.default(45),
    /**
     * Which parts this process runs, a comma list of api (HTTP and sockets for users), scheduler (the
     * schedule ticker) and workers (LOCAL_WORKERS and the WORKER_PROCESSES "Run scenario" slots).
     * Without api the process listens on 127.0.0.1 only, for its own workers.
     */
    REHEARSE_ROLES: z
      .string()
      .transform((text, context): Role[] => {
        const roles = [
          ...new Set(
            text
              .split(',')
              .map((role) => role.trim())
              .filter(Boolean),
          ),
        ];
        const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
        if (roles.length === 0 || unknown.length > 0) {
          context.addIssue({
            code: 'custom',
            message: `must be a comma list of ${ROLES.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}`,
          });
          return z.NEVER;
        }
        return roles as Role[];
      })
      .default([...ROLES]),
    /**
     * A worker token the API accepts without an administrator making one: compose files and
     * Kubernetes hand the same secret to the API and to `rehearse worker`, so a fresh install's
     * workers connect at once. Kept as a digest like any other token (Administration → Workers).
     */
    REHEARSE_WORKER_TOKEN: z
      .string()
      .regex(/^rhw_[A-Za-z0-9_-]{32,200}$/, 'must be rhw_ followed by at least 32 letters, digits, - or _ (rhw_$(openssl rand -hex 16))')
      .optional(),
    /** Bearer token a Prometheus scrape of /metrics must carry; without it and METRICS_PORT, /metrics is 404. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Serve /metrics on this admin port instead of the main one (bind it to a network only scrapers reach). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Built web app to serve; defaults to apps/web/dist in this repository. */
    WEB_DIST_DIR: z.string().optional(),
    /** Folder of built runner packages served at /downloads; defaults to packages/cli/dist-pack (npm start builds it). */
    RUNNER_PACKAGE_DIR: z.string().optional(),
    /**
     * How many megabytes of artifacts (screenshots, traces, reports) one project may keep; 0 means
     * no limit. An upload that would pass it is refused (413) and the runner keeps what it could not send.
     */
    ARTIFACT_QUOTA_MB: z.coerce.number().int().min(0).default(5120),
    /**
     * Single sign-on (OIDC authorization code with PKCE): the identity provider's issuer URL
     * (https, or http on loopback only). With OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; the provider
     * sends users back to PUBLIC_URL/api/auth/sso/callback.
     */
    OIDC_ISSUER: z.url().refine(isAllowedIssuer, 'must be an https:// URL (http:// only on loopback)').optional(),
    OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
    /** What the sign-in page's button says after "Sign in with". */
    OIDC_NAME: z.string().min(1).max(60).default('single sign-on'),
  })
  .superRefine((settings, context) => {
    const given = (['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const).filter((name) => settings[name] !== undefined);
    if (given.length > 0 && given.length < 3) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together',
      });
    }
  });

type RawSettings = z.infer<typeof SettingsSchema>;

export interface Settings extends Omit<RawSettings, 'REHEARSE_SECRET_KEY' | 'PUBLIC_URL' | 'TRIAL_INVITE_DOMAINS'> {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  publicUrl: string;
  secretKey: Buffer;
  trialInviteDomains: string[];
  webDistDir: string;
  runnerPackageDir: string;
  /**
   * Started where jobs cannot be sandboxed and nobody asked to listen beyond this machine
   * (`start-mode.ts`): 127.0.0.1 only, one user, jobs unsandboxed.
   */
  localSingleUser: boolean;
}

/** Parses the environment; throws with one line per bad variable. Does not touch the disk. */
export function parseSettings(source: NodeJS.ProcessEnv): RawSettings {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = SettingsSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `Setting ${issue.path.join('.')} is invalid: ${issue.message}.`);
    throw new Error(lines.join('\n'));
  }
  return result.data;
}

/** Decodes a 32-byte key given as hex or base64. */
export function decodeSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new Error('Setting REHEARSE_SECRET_KEY is invalid: it must be 32 bytes, as 64 hex characters or base64.');
  }
  return key;
}

/** The key from the environment, else the one kept in DATA_DIR, else a new one written there (mode 600). */
function loadOrCreateSecretKey(raw: RawSettings, dataDir: string): Buffer {
  if (raw.REHEARSE_SECRET_KEY) return decodeSecretKey(raw.REHEARSE_SECRET_KEY);
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return decodeSecretKey(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/**
 * Where the process listens: HOST when it serves users (role api); otherwise loopback only, where
 * its own local workers and "Run scenario" processes reach it and nobody else does.
 */
export function listenHost(settings: Pick<Settings, 'HOST' | 'REHEARSE_ROLES'>): string {
  return settings.REHEARSE_ROLES.includes('api') ? settings.HOST : '127.0.0.1';
}

/** Reads every setting once; creates DATA_DIR and the secret key on first start. */
export function loadSettings(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const raw = parseSettings(source);
  const dataDir = path.resolve(cwd, raw.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const { REHEARSE_SECRET_KEY: _key, PUBLIC_URL, TRIAL_INVITE_DOMAINS, WEB_DIST_DIR, RUNNER_PACKAGE_DIR, ...rest } = raw;
  return {
    ...rest,
    dataDir,
    publicUrl: (PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    secretKey: loadOrCreateSecretKey(raw, dataDir),
    trialInviteDomains: TRIAL_INVITE_DOMAINS.split(',')
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean),
    webDistDir: WEB_DIST_DIR ? path.resolve(cwd, WEB_DIST_DIR) : fileURLToPath(new URL('../../web/dist', import.meta.url)),
    runnerPackageDir: RUNNER_PACKAGE_DIR
      ? path.resolve(cwd, RUNNER_PACKAGE_DIR)
      : fileURLToPath(new URL('../../../packages/cli/dist-pack', import.meta.url)),
    localSingleUser: false,
  };
}
