import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Where the product's words live: the web app, the server and the packages they share. */
const SOURCES = ['apps/web/src', 'apps/server/src', 'packages/contract/src', 'packages/runner/src', 'packages/recorder/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'spec-conformance' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

let text: string | undefined;

/**
 * Every word the product can show or log: its non-test source, with string escapes undone (`\'`)
 * and typographic apostrophes read as plain ones, the way the spec writes them.
 */
export function productText(): string {
  text ??= SOURCES.flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
    .replaceAll("\\'", "'")
    .replaceAll('’', "'");
  return text;
}

/**
 * The spec's words the product lacks. A placeholder such as `{n}` matches itself (a catalogue
 * entry filled in later) or any template expression.
 */
export function missingFromProduct(words: readonly string[]): string[] {
  const all = productText();
  return words.filter((words) => {
    if (all.includes(words)) return false;
    if (!/\{\w+\}/.test(words)) return true;
    const pattern = words
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\$\\{[^}]+\\}');
    return !new RegExp(pattern).test(all);
  });
}
