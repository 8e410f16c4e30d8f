import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './database.js';
import { PGliteThread } from './pglite-thread.js';

describe('the embedded database on its own thread', () => {
  // One database for the tests below (starting one costs seconds); each test uses a table of its own.
  let database: PGliteThread;
  beforeAll(async () => {
    database = new PGliteThread(undefined);
    await database.waitReady;
  });
  afterAll(() => database.close());

  it('answers queries with parameters, rows as objects or arrays, and timestamps left as text when asked', async () => {
    await database.exec('CREATE TABLE answers (id int PRIMARY KEY, name text NOT NULL)');
    await database.query('INSERT INTO answers VALUES ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    expect((await database.query('SELECT id, name FROM answers ORDER BY id')).rows).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
    expect((await database.query('SELECT id, name FROM answers WHERE id = $1', [2], { rowMode: 'array' })).rows).toEqual([[2, 'two']]);
    // drizzle parses timestamps itself: it asks for them as PostgreSQL's text (type 1184 is timestamptz).
    const stamp = "SELECT '2026-11-26 10:00:00+00'::timestamptz AS at";
    expect((await database.query<{ at: unknown }>(stamp)).rows[0]?.at).toBeInstanceOf(Date);
    expect((await database.query<{ at: unknown }>(stamp, [], { parsers: { 1184: (value: string) => value } })).rows[0]?.at).toBe(
      '2026-11-26 10:00:00+00',
    );
  });

  it("carries PostgreSQL's error fields across, so a duplicate is still told from other failures", async () => {
    await database.exec('CREATE TABLE duplicates (id int PRIMARY KEY, name text NOT NULL)');
    await database.query('INSERT INTO duplicates VALUES (1, $1)', ['one']);
    const duplicate = await database.query('INSERT INTO duplicates VALUES (1, $1)', ['again']).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'duplicates_pkey', message: expect.stringContaining('duplicate key') });
    expect(isUniqueViolation(duplicate)).toBe(true);
    const missing = await database.query('SELECT nothing FROM duplicates').catch((error: unknown) => error);
    expect(isUniqueViolation(missing)).toBe(false);
  });

  it('holds the only session for a transaction: others wait for it, a failure rolls it back, a swallowed failure fails the commit', async () => {
    await database.exec('CREATE TABLE ledger (id int PRIMARY KEY, name text NOT NULL)');
    let outsideAnswered = false;
    const committed = database.transaction(async (tx) => {
      await tx.query('INSERT INTO ledger VALUES (1, $1)', ['inside']);
      // Asked while the transaction is open: answered only after it committed, never inside it.
      const outside = database.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger').then((result) => {
        outsideAnswered = true;
        return result.rows[0]?.n;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(outsideAnswered).toBe(false);
      await tx.query('INSERT INTO ledger VALUES (2, $1)', ['inside too']);
      return { outside };
    });
    expect(await (await committed).outside).toBe(2);

    await expect(
      database.transaction(async (tx) => {
        await tx.query('INSERT INTO ledger VALUES (3, $1)', ['rolled back']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      database.transaction(async (tx) => {
        await tx.query('INSERT INTO ledger VALUES (4, $1)', ['rolled back too']);
        await tx.query('INSERT INTO ledger VALUES (1, $1)', ['duplicate']).catch(() => undefined);
      }),
    ).rejects.toThrow('The transaction was rolled back');
    expect((await database.query('SELECT id FROM ledger ORDER BY id', [], { rowMode: 'array' })).rows).toEqual([[1], [2]]);
  });

  it('keeps what a data folder holds after a restart, and lets a process that does not close it exit by itself', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rehearse-pglite-thread-'));
    const script = path.join(folder, 'use.mts');
    writeFileSync(
      script,
      `import { PGliteThread } from ${JSON.stringify(fileURLToPath(new URL('./pglite-thread.ts', import.meta.url)))};
      const dataDir = ${JSON.stringify(path.join(folder, 'data'))};
      const first = new PGliteThread(dataDir);
      await first.waitReady;
      await first.exec('CREATE TABLE notes (text text)');
      await first.query('INSERT INTO notes VALUES ($1)', ['kept']);
      await first.close();
      const second = new PGliteThread(dataDir);
      await second.waitReady;
      // No close: an idle database thread must not keep the process alive.
      console.log((await second.query('SELECT text FROM notes')).rows[0].text);`,
    );
    const tsx = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
    try {
      const run = spawnSync(process.execPath, [tsx, script], { encoding: 'utf8', timeout: 100_000 });
      expect(run.stdout.trim()).toBe('kept');
      expect(run.signal).toBeNull();
      expect(run.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
