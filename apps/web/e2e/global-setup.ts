import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Builds the web app once when no build exists, so `npm test` works on a fresh clone. */
export default async function buildWebAppIfMissing(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (existsSync(path.join(root, 'dist', 'index.html'))) return;
  await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
