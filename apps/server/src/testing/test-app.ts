import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, createApiClient, type ApiClient } from '@rehearse/api-client';
import { authCalls } from '@rehearse/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp, type RegisteredRoute, type Services } from '../app.js';
import { openDatabase, type Database } from '../db/database.js';
import { bossSchemaOf } from '../jobs/job-queue.js';
import { loadSettings, type Settings } from '../env.js';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export function testBackends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Whether a long test whose subject is not the database (the permission matrix, soaks) runs on
 * this backend: once per suite, on PostgreSQL when the suite has it (faster), else on PGlite.
 */
export function onceAcrossBackends(backend: Backend): boolean {
  return backend === testBackends().at(-1);
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  routes: RegisteredRoute[];
  database: Database;
  settings: Settings;
  /** The PostgreSQL schema of a 'postgres' app (so a test can start real server processes on it). */
  schemaName: string | undefined;
  /** An api-client whose calls go through app.inject; pass a token to act as someone. */
  client(token?: string | null): ApiClient;
  close(): Promise<void>;
}

/** Starts the whole server on a fresh database (a new PGlite, or a new PostgreSQL schema) and a temp folder. */
export async function startTestApp(
  backend: Backend,
  env: Record<string, string> = {},
  /** A second API server on another app's PostgreSQL schema (several-servers tests); it leaves the schema alone on close. */
  shared?: { schemaName: string; dataDir: string; secretKeyHex: string },
): Promise<TestApp> {
  const dataDir = shared?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'rehearse-test-'));
  const settings = loadSettings({
    DATA_DIR: dataDir,
    REHEARSE_SECRET_KEY: shared?.secretKeyHex ?? randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://rehearse.test',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // Tests that run scenarios start workers themselves; the rest only queue.
    WORKER_PROCESSES: '0',
    LOCAL_WORKERS: '0',
    // Tests sign up many users freely; a test of the sign-up policy passes its own SIGNUP. The
    // product default (invitation or allowed domain after the first user) stays the secure one.
    SIGNUP: 'open',
    // OWASP's scrypt cost (2^17, 128 MiB) on hundreds of sign-ups would slow every suite; the
    // password tests pass TEST_ONLY_SCRYPT_LOG_N: '' to hash at the real cost. The floor the setting
    // allows (2^10): at 2^15 the suite's sign-ups still cost ~70 s of CPU (scrypt was a seventh of
    // the busiest test workers' time), which only the tests of hashing itself need to pay.
    TEST_ONLY_SCRYPT_LOG_N: '10',
    ...env,
  });
  const schemaName = backend === 'postgres' ? (shared?.schemaName ?? `t_${randomBytes(6).toString('hex')}`) : undefined;
  const database = await openDatabase({
    url: backend === 'postgres' ? process.env.DATABASE_URL : undefined,
    pgliteDir: 'memory',
    ...(schemaName ? { schemaName } : {}),
  });
  const { app, services, routes } = await buildApp({ settings, database, logger: false, demoShopDelayMs: 0 });
  await app.ready();
  return {
    app,
    services,
    routes,
    // A test's own SQL changes rows behind the server's back, which no running server's caller can
    // do on PGlite (one process only): the access cache forgets all, as a restart would.
    database: {
      ...database,
      execute: async (sqlText) => {
        await database.execute(sqlText);
        services.accessCache.clear();
      },
    },
    settings,
    schemaName,
    client: (token) => createApiClient({ fetch: injectFetch(app), getToken: () => token }),
    async close() {
      await app.close();
      if (schemaName && !shared) {
        await database.execute(`DROP SCHEMA "${schemaName}" CASCADE`);
        await database.execute(`DROP SCHEMA IF EXISTS "${bossSchemaOf(schemaName)}" CASCADE`);
      }
      await database.close();
      if (!shared) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fetch that never opens a socket: it hands the request to Fastify's inject. */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://app.test');
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(init?.body !== undefined && init.body !== null ? { payload: init.body as string } : {}),
    });
    return new Response(response.body, {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
    });
  };
}

let userCounter = 0;
export const TEST_PASSWORD = 'correct horse battery';

/** Signs up a new user with a unique email; returns its token and Default project id. */
export async function signUp(test: TestApp, overrides: { email?: string; firstname?: string } = {}) {
  userCounter += 1;
  const email = overrides.email ?? `user${userCounter}-${randomBytes(3).toString('hex')}@acme.test`;
  const answer = await test.client().call(authCalls.signup, {
    body: { email, password: TEST_PASSWORD, firstname: overrides.firstname ?? `User${userCounter}`, lastname: 'Tester' },
  });
  const user = await test.services.users.findByEmail(email);
  if (!user) throw new Error('signed-up user not found');
  return { token: answer.token, projectId: answer.project._id, email, user, api: test.client(answer.token) };
}

type SignedUp = Awaited<ReturnType<typeof signUp>>;

/** `admin` invites `member` to `projectId` and `member` accepts: the usual way to get a plain member. */
export async function joinAsMember(admin: SignedUp, member: SignedUp, projectId: string): Promise<void> {
  const { invitations } = await admin.api.call(authCalls.createInvitation, {
    body: { project_id: projectId, sent_to_email_list: [member.email] },
  });
  await member.api.call(authCalls.addMember, { body: { id: invitations[0]!.id } });
}

/** Runs a call that must fail and returns its ApiError (anything else fails the test). */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
