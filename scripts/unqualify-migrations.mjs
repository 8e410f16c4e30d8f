// drizzle-kit writes foreign keys as REFERENCES "public"."table". Our migrations must run inside
// whatever schema the connection's search_path names (tests use a fresh schema per app), so the
// generated SQL is rewritten to unqualified table names after each `npm run db:generate`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const folder = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '../apps/server/drizzle');
for (const name of readdirSync(folder).filter((file) => file.endsWith('.sql'))) {
  const file = path.join(folder, name);
  const before = readFileSync(file, 'utf8');
  const after = before.replaceAll('"public".', '');
  if (after !== before) {
    writeFileSync(file, after);
    console.log(`unqualified ${name}`);
  }
}
