import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A stdout/stderr pair that keeps what the CLI writes. */
export function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** Every file below `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Files below `dir` whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle);
  return filesUnder(dir).filter((file) => readFileSync(file).includes(bytes));
}
