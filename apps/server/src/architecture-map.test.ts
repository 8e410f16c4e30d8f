import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The map (`docs/architecture.md`) and the folder READMEs it links to stay true and short enough to
 * scan (issue 46): every repository path they name exists, every link to a file lands (from the
 * document's folder), every table cell is a sentence and every line is under 300 characters.
 *
 * What counts as a path: a backticked span of letters, digits and `_ . - /` only, not starting with
 * `/` (a URL path), that contains a `/` or ends in `.ts`, `.tsx`, `.js`, `.mjs` or `.md`. A span whose
 * first part is an upper-case name (`DATA_DIR/artifacts`) is a setting's folder, a MIME type
 * (`application/xml`) is not a file, and the few files of a project's workspace are listed below.
 * How a path resolves: from the repository root, from the document's own folder, from one of the
 * source roots `apps/server/src`, `apps/web/src`, `apps/web` and `packages`, or from a folder named
 * earlier in the same block (a table row, a list item or a paragraph), so a row about `auth/` may
 * name `access.service.ts`.
 */

const REPO = path.resolve(import.meta.dirname, '../../..');
const MAP = 'docs/architecture.md';
const SOURCE_ROOTS = ['apps/server/src', 'apps/web/src', 'apps/web', 'packages'];
/** Files of a project's git workspace (DESIGN §4), not of this repository. */
const WORKSPACE_FILES = new Set(['cucumber.mjs', 'data/data.json', 'environments/default.json']);
const MIME_TYPE = /^(?:application|text|image|x-scheme-handler)\//;
const CELL_LIMIT = 300;
const LINE_LIMIT = 300;
const MAP_LIMIT_BYTES = 25 * 1024;
/** Linked from the map but written for users (served in the app's Documentation), in their workspace's terms. */
const USER_DOCS = new Set(['packages/runner/README.md']);

/** The map and every README it links to, as paths from the repository root. */
function documents(): string[] {
  const readmes = linksOf(readFileSync(path.join(REPO, MAP), 'utf8'))
    .filter((target) => path.basename(target) === 'README.md')
    .map((target) => path.relative(REPO, path.resolve(REPO, path.dirname(MAP), target)));
  return [MAP, ...new Set(readmes)].filter((doc) => !USER_DOCS.has(doc));
}

/** Relative link targets of a Markdown text (no URLs, no in-page anchors), without their anchor. */
function linksOf(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

/** The backticked spans of a text that name a repository path by the rule above. */
function pathsOf(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return spans.filter(
    (span) =>
      /^[\w.][\w./-]*$/.test(span) &&
      (span.includes('/') || /\.(?:ts|tsx|js|mjs|md)$/.test(span)) &&
      !/^[A-Z][A-Z0-9_]*\//.test(span) &&
      !MIME_TYPE.test(span) &&
      !WORKSPACE_FILES.has(span),
  );
}

/** The folder `target` names from the repository root, if it resolves by the rule above. */
function resolve(doc: string, target: string, blockFolders: string[]): string | undefined {
  const bases = ['.', path.dirname(doc), ...SOURCE_ROOTS, ...blockFolders];
  return bases.map((base) => path.join(base, target)).find((candidate) => existsSync(path.join(REPO, candidate)));
}

/** A document's blocks: table rows, list items, headings and paragraphs. */
function blocksOf(text: string): string[] {
  const blocks: string[] = [];
  for (const line of text.split('\n')) {
    const starts = /^\s*(?:\||#|[-*] |\d+\. )/.test(line) || line.trim() === '' || blocks.length === 0;
    if (starts) blocks.push(line);
    else blocks[blocks.length - 1] += `\n${line}`;
  }
  return blocks;
}

/** The paths and link targets of a document that do not resolve. */
function missingIn(doc: string): string[] {
  const text = readFileSync(path.join(REPO, doc), 'utf8');
  // A link resolves as a Markdown viewer resolves it: from the document's folder.
  const missing = linksOf(text).filter((target) => !existsSync(path.join(REPO, path.dirname(doc), target)));
  for (const block of blocksOf(text)) {
    const folders: string[] = [];
    for (const target of pathsOf(block)) {
      const found = resolve(doc, target, folders);
      if (!found) missing.push(target);
      else if (statSync(path.join(REPO, found)).isDirectory()) folders.push(found);
    }
  }
  return [...new Set(missing)];
}

/** The cells of a Markdown table row (`| a | b |`), trimmed. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

describe('the map and its READMEs', () => {
  const docs = documents();

  it('reads the map and at least one folder README', () => {
    expect(docs[0]).toBe(MAP);
    expect(docs.length).toBeGreaterThan(1);
  });

  it.each(docs)('%s names only paths that exist', (doc) => {
    expect(
      missingIn(doc),
      `${doc} names paths that do not exist (from the root, ${path.dirname(doc)}/, ${SOURCE_ROOTS.join(', ')} or a folder named before in the block)`,
    ).toEqual([]);
  });

  it.each(docs)('%s keeps every table cell and line short', (doc) => {
    const lines = readFileSync(path.join(REPO, doc), 'utf8').split('\n');
    const long = lines.flatMap((line, index) => {
      const where = `${doc}:${index + 1}`;
      if (line.trimStart().startsWith('|')) {
        return cellsOf(line)
          .filter((cell) => cell.length > CELL_LIMIT)
          .map(
            (cell) =>
              `${where}: a ${cell.length}-character cell (“${cell.slice(0, 50)}…”); say it in a sentence, details go to the folder's README`,
          );
      }
      return line.length > LINE_LIMIT ? [`${where}: a ${line.length}-character line`] : [];
    });
    expect(long).toEqual([]);
  });

  it('keeps the map under 25 KB', () => {
    const bytes = readFileSync(path.join(REPO, MAP)).length;
    expect(bytes, `${MAP} is ${bytes} bytes: move the detail into the README of the folder that owns it`).toBeLessThan(MAP_LIMIT_BYTES);
  });
});
