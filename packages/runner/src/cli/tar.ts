import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// A tar reader for what `git archive` (the workspace download) produces: ustar headers, pax
// extended headers for long names, GNU long names for good measure. Regular files and folders
// only; links are refused along with any path that could leave the target folder.

const BLOCK = 512;

export interface TarEntry {
  path: string;
  type: 'file' | 'directory';
  mode: number;
  data: Buffer;
}

/** A tar archive this reader will not extract (unsafe path, link, truncated). */
export class TarError extends Error {
  override readonly name = 'TarError';
}

function text(block: Buffer, offset: number, length: number): string {
  const slice = block.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end === -1 ? slice.length : end).toString('utf8');
}

function octal(block: Buffer, offset: number, length: number): number {
  // Sizes past 8 GB use base-256: the high bit of the first byte is set.
  if (block[offset]! & 0x80) {
    let value = 0;
    for (let i = offset + 1; i < offset + length; i++) value = value * 256 + block[i]!;
    return value;
  }
  const digits = text(block, offset, length).trim();
  return digits ? parseInt(digits, 8) : 0;
}

function paxRecords(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(data.subarray(offset, space).toString('utf8'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

/** A relative path that stays inside the target folder, or a TarError. */
export function safeEntryPath(name: string): string {
  const normalized = name.replace(/\\/g, '/').replace(/^\.\//, '');
  const parts = normalized.split('/').filter((part) => part !== '' && part !== '.');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized) || parts.includes('..')) {
    throw new TarError(`Refusing the archive: the entry "${name}" would be written outside the target folder`);
  }
  return parts.join('/');
}

/** Reads every entry of an uncompressed tar archive; throws before anything is written. */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let nextPath: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const dataStart = offset + BLOCK;
    if (dataStart + size > archive.length) throw new TarError('The archive is truncated');
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    const prefix = text(header, 345, 155);
    const name = nextPath ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    switch (type) {
      case 'x':
        nextPath = paxRecords(data).path ?? nextPath;
        continue;
      case 'L':
        nextPath = text(data, 0, data.length);
        continue;
      case 'g':
        // git archive's global header holds the commit id; nothing to extract.
        continue;
      case '0':
      case '7':
        entries.push({ path: safeEntryPath(name), type: 'file', mode: octal(header, 100, 8), data: Buffer.from(data) });
        break;
      case '5': {
        const dir = safeEntryPath(name);
        if (dir) entries.push({ path: dir, type: 'directory', mode: octal(header, 100, 8), data: Buffer.alloc(0) });
        break;
      }
      default:
        throw new TarError(`Refusing the archive: "${name}" is a link or device (tar type ${type}), not a file`);
    }
    nextPath = undefined;
  }
  return entries;
}

/** Extracts `archive` into `dir` (created if needed); answers how many files were written. */
export function extractTar(archive: Buffer, dir: string): number {
  const entries = readTar(archive);
  const root = path.resolve(dir);
  let files = 0;
  for (const entry of entries) {
    const target = path.join(root, entry.path);
    if (entry.type === 'directory') {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    // Keep the executable bit a script had; nothing else of the archive's modes matters here.
    writeFileSync(target, entry.data, { mode: entry.mode & 0o111 ? 0o755 : 0o644 });
    files += 1;
  }
  return files;
}
