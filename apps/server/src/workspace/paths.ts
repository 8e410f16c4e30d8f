import { Messages } from '@rehearse/contract';
import { badRequest } from '../http/errors.js';

// Control characters, and characters git or shells treat specially in paths.
const UNSAFE_PATH_CHARACTERS = /[\p{Cc}\\:*?"<>|]/u;

/**
 * Joins and checks a workspace path: relative, no `..` or `.` segments, no empty segments, nothing
 * inside `.git`, no segment starting with `-` (a path handed to git or a shell without `--` would
 * be read as an option: `--upload-pack=…`). Paths are repository paths, never file-system paths,
 * so this is the whole guard.
 */
export function workspacePath(...parts: string[]): string {
  const joined = parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/');
  if (!joined || joined.startsWith('/') || UNSAFE_PATH_CHARACTERS.test(joined) || joined.length > 800) {
    throw badRequest(Messages.pathInvalid);
  }
  const segments = joined.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment === '.git' || segment.startsWith('-'))) {
    throw badRequest(Messages.pathInvalid);
  }
  return segments.join('/');
}

/** A directory prefix for listings: '' for the whole workspace. */
export function workspaceDirectory(directory: string): string {
  const trimmed = directory.trim().replace(/\/+$/, '');
  return trimmed === '' || trimmed === '.' ? '' : workspacePath(trimmed);
}
