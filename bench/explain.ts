import { performance } from 'node:perf_hooks';
import { authCalls } from '@rehearse/contract';
import { drizzle as drizzleProxy } from 'drizzle-orm/pg-proxy';
import type { Services } from '../apps/server/src/app.js';
import { MembersRepo } from '../apps/server/src/auth/members.repo.js';
import { ProjectsRepo } from '../apps/server/src/auth/projects.repo.js';
import { SessionsRepo } from '../apps/server/src/auth/sessions.repo.js';
import { digestToken } from '../apps/server/src/crypto/tokens.js';
import { schema, type Database, type Db } from '../apps/server/src/db/database.js';

export interface QueryPlan {
  name: string;
  sql: string;
  planningMs: number | null;
  executionMs: number | null;
  plan: string[];
}

export interface StageTiming {
  name: string;
  medianMs: number;
}

export interface Diagnosis {
  queries: QueryPlan[];
  /** Where one getProjects answer spends its time, measured in-process without HTTP. */
  getProjectsStages: StageTiming[];
}

export interface Captured {
  text: string;
  params: unknown[];
}

/**
 * The exact SQL the server's repos send, obtained by running the repo methods against a drizzle
 * proxy that records instead of executing; rebuilding the queries here by hand could drift from them.
 */
export async function captureSql(run: (db: Db) => Promise<unknown>): Promise<Captured> {
  const last = (await captureStatements(run)).at(-1);
  if (!last) throw new Error('the repo sent no SQL');
  return last;
}

/** Every statement a repo method sends, in order (a proxy answers each with no rows). */
export async function captureStatements(run: (db: Db) => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const recorder = drizzleProxy(
    async (text, params) => {
      captured.push({ text, params });
      return { rows: [] };
    },
    { schema },
  );
  try {
    await run(recorder);
  } catch (error) {
    // Code that reads the proxy's empty answer may throw after the SQL was sent; the SQL is what counts.
    if (captured.length === 0) throw error;
  }
  return captured;
}

function literal(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (value === null) return 'null';
  if (value instanceof Date) return `'${value.toISOString()}'`;
  throw new Error(`cannot inline parameter ${JSON.stringify(value)}`);
}

/** Parameters are inlined: for the first executions PostgreSQL plans with the values anyway (custom plans). */
function inline({ text, params }: Captured): string {
  return text.replace(/\$(\d+)/g, (_match, index: string) => literal(params[Number(index) - 1]));
}

export async function explain(database: Database, name: string, captured: Captured): Promise<QueryPlan> {
  const text = inline(captured);
  const lines = async (options: string) =>
    (await database.rows(`explain (${options}) ${text}`)).map((row) => String(Object.values(row)[0]));
  const number = (plan: string[], label: string) => {
    const line = plan.find((l) => l.trim().startsWith(label));
    const match = line && /([\d.]+) ms/.exec(line);
    return match ? Number(match[1]) : null;
  };
  // Per-node timing costs a clock read per row, which inflates the total (badly under PGlite), so the
  // execution time comes from runs without it: the median of 5 after 2 that warm caches and catalogs.
  const executions: number[] = [];
  for (let run = 0; run < 7; run++) {
    const ms = number(await lines('analyze, timing off'), 'Execution Time');
    if (run >= 2 && ms !== null) executions.push(ms);
  }
  executions.sort((a, b) => a - b);
  const plan = await lines('analyze, buffers');
  return {
    name,
    sql: text,
    planningMs: number(plan, 'Planning Time'),
    executionMs: executions[Math.floor(executions.length / 2)] ?? null,
    plan,
  };
}

async function median(samples: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** EXPLAIN ANALYZE of every query a getProjects or getMembers request runs, plus a time breakdown. */
export async function diagnose(
  database: Database,
  services: Services,
  ids: { userId: string; token: string; projectId: string },
): Promise<Diagnosis> {
  const { userId, token, projectId } = ids;
  const queries: Array<[string, (db: Db) => Promise<unknown>]> = [
    ['auth: session with its user by token hash', (db) => new SessionsRepo(db).findWithUser(digestToken(token))],
    ['getProjects: projects.listForUser', (db) => new ProjectsRepo(db).listForUser(userId)],
    ["getMembers: project with the caller's role", (db) => new ProjectsRepo(db).findWithRole(projectId, userId)],
    ['getMembers: members.listMembers', (db) => new MembersRepo(db).listMembers(projectId)],
    ['getMembers: members.listPendingInvitations', (db) => new MembersRepo(db).listPendingInvitations(projectId)],
  ];
  const plans: QueryPlan[] = [];
  for (const [name, run] of queries) plans.push(await explain(database, name, await captureSql(run)));

  const repo = new ProjectsRepo(database.db);
  const user = await services.users.findById(userId);
  if (!user) throw new Error('bench user vanished');
  const answer = { status: true as const, projects: await services.projects.listForUser(user) };
  const responseSchema = authCalls.getProjects.response;
  const samples = 15;
  const getProjectsStages: StageTiming[] = [
    { name: 'SQL execution in the database', medianMs: plans.find((p) => p.name.startsWith('getProjects'))?.executionMs ?? Number.NaN },
    { name: 'repo.listForUser (SQL + driver + row mapping)', medianMs: await median(samples, () => repo.listForUser(userId)) },
    { name: 'service.listForUser (repo + DTOs)', medianMs: await median(samples, () => services.projects.listForUser(user)) },
    { name: 'response schema parse (zod)', medianMs: await median(samples, async () => responseSchema.parse(answer)) },
    { name: 'JSON.stringify of the answer', medianMs: await median(samples, async () => JSON.stringify(answer)) },
  ];
  return { queries: plans, getProjectsStages };
}
