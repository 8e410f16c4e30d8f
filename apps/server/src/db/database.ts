import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PGliteThread } from './pglite-thread.js';
import { DAY_MS } from '@rehearse/contract';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL pool (absent on PGlite), for the socket.io adapter's LISTEN/NOTIFY. */
  pool?: pg.Pool;
  /** The schema the tables live in; cross-process channels are named after it. */
  schemaName: string;
  /** Runs one statement without parameters (admin and test housekeeping). */
  execute(sqlText: string): Promise<void>;
  /** Runs one query without parameters and returns its rows (tests and benchmarks). */
  rows<T = Record<string, unknown>>(sqlText: string): Promise<T[]>;
  /**
   * The job queue's hook (pg-boss's `db.executeSql`): one statement with `values`, or SQL without
   * values that may hold several statements (pg-boss's own schema migrations). Answers the rows of
   * the last statement.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; PGlite is used when absent. */
  url?: string | undefined;
  /** Folder of the embedded database; the word `memory` keeps it in memory (tests). */
  pgliteDir?: string;
  /** PostgreSQL schema to live in; tests use a fresh one per app so runs never collide. */
  schemaName?: string;
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

const SAFE_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens the database (the only place a connection is built) and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const schemaName = options.schemaName ?? 'public';
  if (!SAFE_SCHEMA.test(schemaName)) throw new Error(`Invalid database schema name "${schemaName}"`);
  const migrationOptions = { migrationsFolder, migrationsSchema: schemaName === 'public' ? 'drizzle' : schemaName };

  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      options: schemaName === 'public' ? undefined : `-c search_path=${schemaName}`,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    try {
      if (schemaName !== 'public') await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`);
      const db = drizzlePostgres(pool, { schema });
      await migratePostgres(db, migrationOptions);
      return {
        db: db as unknown as Db,
        kind: 'postgres',
        pool,
        schemaName,
        execute: async (text) => void (await pool.query(text)),
        rows: async <T>(text: string) => (await pool.query(text)).rows as T[],
        executeSql: (text, values) => postgresExecuteSql(pool, text, values),
        close: () => pool.end(),
      };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  const dir = options.pgliteDir ?? 'memory';
  if (dir !== 'memory') mkdirSync(path.dirname(dir), { recursive: true });
  const template = dir === 'memory' && schemaName === 'public' ? await memoryTemplate() : undefined;
  const client = new PGliteThread(dir === 'memory' ? undefined : dir, template?.contents);
  try {
    await client.waitReady;
    if (schemaName !== 'public') {
      await client.exec(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"; SET search_path TO "${schemaName}"`);
    }
    const db = drizzlePglite(client.asPGlite(), { schema });
    await migratePglite(db, migrationOptions);
    if (!template?.contents) {
      // PGlite has no autovacuum worker: without statistics its planner scans whole tables.
      await client.exec('ANALYZE');
      if (template) await template.keep(await client.dump());
    }
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      schemaName,
      execute: async (text) => void (await client.exec(text)),
      rows: async <T>(text: string) => (await client.query<T>(text)).rows,
      executeSql: (text, values) => pgliteExecuteSql(client, text, values),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * In-memory databases (every test's and benchmark's server) start from a copy of one that was
 * initialised and migrated once per set of migrations, kept as a tarball in the temp folder:
 * PostgreSQL's initdb and nineteen migrations cost seconds of CPU per database, a copy a tenth of
 * that. The copy's name is a digest of the migrations and the PGlite version, so a new migration
 * makes a new copy; migrations still run after loading one (they find nothing to do).
 */
let templateName: string | undefined;

async function memoryTemplate(): Promise<{ contents?: ArrayBuffer; keep(contents: ArrayBuffer): Promise<void> }> {
  templateName ??= (() => {
    const pglitePackage = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
    const digest = createHash('sha256').update(readFileSync(pglitePackage));
    for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
      const file = path.join(migrationsFolder, name);
      if (statSync(file).isFile()) digest.update(name).update(readFileSync(file));
    }
    return `${digest.digest('hex').slice(0, 32)}.tar`;
  })();
  const file = path.join(tmpdir(), 'rehearse-pglite-templates', templateName);
  const contents = await readFile(file).catch(() => undefined);
  return {
    ...(contents ? { contents: contents.buffer.slice(contents.byteOffset, contents.byteOffset + contents.byteLength) } : {}),
    async keep(dump) {
      // Written aside and renamed into place: a reader never sees half a copy, two writers race harmlessly.
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${process.pid}.${Date.now()}.partial`;
      await writeFile(partial, Buffer.from(dump));
      await rename(partial, file);
      await forgetOtherTemplates(path.dirname(file), templateName!);
    },
  };
}

/**
 * Copies for older migrations (or another PGlite) are never read again: a new copy removes those
 * not touched for a day, so a checkout that moves through many migrations does not fill the temp
 * folder, while another checkout's copy in use the same day stays.
 */
async function forgetOtherTemplates(folder: string, keep: string): Promise<void> {
  const dayAgo = Date.now() - DAY_MS;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (name === keep) continue;
    const file = path.join(folder, name);
    const modified = await stat(file).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    if (modified < dayAgo) await rm(file, { force: true }).catch(() => undefined);
  }
}

/**
 * Several statements without values go through one client that is rolled back should they fail:
 * a failed text that opened a transaction would otherwise go back to the pool still in it.
 */
async function postgresExecuteSql(pool: pg.Pool, text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
  if (values && values.length > 0) return pool.query(text, values);
  const client = await pool.connect();
  try {
    const result = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
    return { rows: (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [] };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * PGlite's `query` takes one statement with parameters; `exec` takes several without. A failed
 * multi-statement text that opened a transaction (pg-boss wraps its migrations in BEGIN … COMMIT)
 * leaves it aborted on PGlite's single connection, so it is rolled back before the error goes on.
 */
async function pgliteExecuteSql(client: PGliteThread, text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
  if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
  try {
    const results = await client.exec(text);
    return { rows: results.at(-1)?.rows ?? [] };
  } catch (error) {
    await client.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** True for a unique-constraint violation, so services can answer 409 instead of 500. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export { schema };
