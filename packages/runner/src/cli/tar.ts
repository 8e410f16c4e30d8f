import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Parser, x as extractArchive, type ReadEntry } from 'tar';

// The workspace download is what `git archive` produces: ustar with pax headers for long names.
// node-tar reads it; we only decide what may be written: regular files and folders, at paths that
// stay inside the target folder. Anything else refuses the whole archive before a byte is written.

/** A tar archive this reader will not extract (unsafe path, link, truncated). */
export class TarError extends Error {
  override readonly name = 'TarError';
}

export interface TarListing {
  path: string;
  type: 'file' | 'directory';
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** A relative path that stays inside the target folder, or a TarError. */
export function safeEntryPath(name: string): string {
  const normalized = name.replace(/\\/g, '/').replace(/^\.\//, '');
  const parts = normalized.split('/').filter((part) => part !== '' && part !== '.');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized) || parts.includes('..')) {
    throw new TarError(`Refusing the archive: the entry "${name}" would be written outside the target folder`);
  }
  return parts.join('/');
}

function listed(entry: ReadEntry): TarListing {
  const entryPath = safeEntryPath(entry.path);
  if (FILE_TYPES.has(entry.type)) return { path: entryPath, type: 'file' };
  if (entry.type === 'Directory') return { path: entryPath, type: 'directory' };
  throw new TarError(`Refusing the archive: "${entry.path}" is a link or device (${entry.type}), not a file`);
}

/** Reads every entry of an uncompressed tar archive, checking each; throws (a TarError) on the first it would not write. */
export async function listTar(archive: Buffer): Promise<TarListing[]> {
  // An archive of nothing is its end-of-archive blocks alone, which node-tar calls unrecognized.
  if (archive.every((byte) => byte === 0)) return [];
  const entries: TarListing[] = [];
  let refused: Error | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      try {
        if (refused === undefined) entries.push(listed(entry));
      } catch (error) {
        refused = error instanceof Error ? error : new TarError(String(error));
      }
      entry.resume();
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', resolve);
    parser.end(archive);
  }).catch((error: unknown) => {
    refused ??= new TarError(`The archive is truncated or damaged: ${(error as Error).message}`);
  });
  if (refused !== undefined) throw refused;
  return entries;
}

/** Extracts `archive` into `dir` (created if needed) once every entry passed; answers how many files were written. */
export async function extractTar(archive: Buffer, dir: string): Promise<number> {
  const entries = await listTar(archive);
  await mkdir(dir, { recursive: true });
  if (entries.length === 0) return 0;
  const extractor = extractArchive({
    cwd: path.resolve(dir),
    strict: true,
    // The owner is whoever pulls; modes keep an archive's executable bits under the process umask.
    preserveOwner: false,
  });
  await new Promise<void>((resolve, reject) => {
    extractor.on('error', reject);
    extractor.on('finish', resolve);
    extractor.end(archive);
  });
  return entries.filter((entry) => entry.type === 'file').length;
}
