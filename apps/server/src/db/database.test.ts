import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

const TEMPLATES = path.join(tmpdir(), 'rehearse-pglite-templates');

/** Every table and column with its type, and the migrations recorded as applied. */
async function shape(database: Database) {
  const columns = await database.rows<{ t: string; c: string; ty: string }>(
    "SELECT table_name AS t, column_name AS c, data_type AS ty FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
  );
  const indexes = await database.rows<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");
  const triggers = await database.rows<{ tgname: string }>('SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1');
  const migrations = await database.rows<{ hash: string }>('SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id');
  return { columns, indexes, triggers, migrations };
}

describe('in-memory databases', () => {
  it('start from a migrated copy that matches a database migrated from scratch, each with rows of its own', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rehearse-database-'));
    // A database in a folder never uses the copy: it is the reference.
    const fromScratch = await openDatabase({ pgliteDir: path.join(folder, 'data') });
    const first = await openDatabase({ pgliteDir: 'memory' });
    const second = await openDatabase({ pgliteDir: 'memory' });
    try {
      expect(readdirSync(TEMPLATES).filter((name) => name.endsWith('.tar')).length).toBeGreaterThan(0);
      const reference = await shape(fromScratch);
      expect(reference.migrations.length).toBeGreaterThanOrEqual(20);
      expect(await shape(first)).toEqual(reference);
      expect(await shape(second)).toEqual(reference);
      await first.execute("INSERT INTO instance_settings (key, value) VALUES ('only-in-first', '1'::jsonb)");
      expect(await second.rows("SELECT key FROM instance_settings WHERE key = 'only-in-first'")).toEqual([]);
    } finally {
      await Promise.all([fromScratch.close(), first.close(), second.close()]);
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('remove copies for other migrations untouched for a day when they make a new one', async () => {
    mkdirSync(TEMPLATES, { recursive: true });
    const stale = path.join(TEMPLATES, `stale-${process.pid}.tar`);
    const recent = path.join(TEMPLATES, `recent-${process.pid}.tar`);
    writeFileSync(stale, 'a copy for migrations long gone');
    writeFileSync(recent, 'a copy another checkout made today');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    // Without the current copy the next database migrates from scratch and keeps a new one.
    const current = () => readdirSync(TEMPLATES).filter((name) => /^[0-9a-f]{32}\.tar$/.test(name));
    for (const name of current()) rmSync(path.join(TEMPLATES, name), { force: true });
    const database = await openDatabase({ pgliteDir: 'memory' });
    try {
      expect(current().length).toBeGreaterThanOrEqual(1);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(recent)).toBe(true);
    } finally {
      await database.close();
      rmSync(recent, { force: true });
    }
  }, 120_000);
});
