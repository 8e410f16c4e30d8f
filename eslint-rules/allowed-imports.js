// Fences that allow rather than forbid (issue 46, DESIGN §3): each room of the code lists what it MAY
// import, and anything else is an error naming the file, the import and the list to edit.
//
// A room is a folder holding a `DEPS.jsonc`; a file belongs to the room of the nearest list above it.
// Imports inside a file's own room are free. A list is a JSON object (comments allowed): each key is a
// glob of the files it speaks for, relative to the room ("*" is every file; a key without "/" matches a
// file's name at any depth, e.g. "*.repo.ts", "*.test.ts"; one with "/" matches the path from the room,
// e.g. "testing/**"), and its value lists what those files may import. A file gets every key it matches.
// An entry is one of:
//   "../db", "./src/lib"   a folder or file of ours, relative to the list (its subfolders included)
//   "node:fs", "node:*"    a Node built-in ("fs" is read as "node:fs"; "node:fs" covers "node:fs/promises")
//   "fastify", "@rehearse/runner", "@rehearse/runner/cli", "@codemirror/*"
//                          an npm package or one of ours (with its subpaths), one subpath, or a whole scope
//   "type <entry>"         the entry for type-only imports (`import type`, `export type`, `typeof import()`):
//                          they are erased at compile time and load nothing (DESIGN §3)
//   "executeSql()"         may call `<database>.executeSql(…)`, raw SQL outside the query builder (repositories,
//                          db/ and the job queue's pg-boss hook)
// Checked: static imports, `export … from`, `import()` and `require()` with a string literal, and
// `<x>.executeSql(…)` calls.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const LIST_NAME = 'DEPS.jsonc';
const EXECUTE_SQL = 'executeSql()';
const CODE_EXTENSION = /\.(?:[cm]?[jt]sx?|d\.ts)$/;

/** @type {Map<string, string | null>} folder → the folder of its nearest list, or null */
const roomOfFolder = new Map();
/** @type {Map<string, { sections: { match: RegExp, entries: string[] }[] }>} room folder → its parsed list */
const lists = new Map();

function roomOf(folder) {
  if (roomOfFolder.has(folder)) return roomOfFolder.get(folder);
  const parent = path.dirname(folder);
  const room = existsSync(path.join(folder, LIST_NAME)) ? folder : parent === folder ? null : roomOf(parent);
  roomOfFolder.set(folder, room);
  return room;
}

/** "**" any folders, "*" any name part, "{a,b}" either. */
function globToRegExp(glob) {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{') source += '(?:';
    else if (c === '}') source += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) source += '|';
    else source += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(glob.includes('/') ? `^${source}$` : `(?:^|/)${source}$`);
}

function listOf(room) {
  let list = lists.get(room);
  if (list) return list;
  const file = path.join(room, LIST_NAME);
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  if (error || typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error(
      `${file}: not a JSON object of glob → entries (${error ? ts.flattenDiagnosticMessageText(error.messageText, ' ') : 'wrong shape'})`,
    );
  }
  const sections = Object.entries(config).map(([glob, entries]) => {
    if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'string')) {
      throw new Error(`${file}: "${glob}" must list strings`);
    }
    return { match: glob === '*' ? /./ : globToRegExp(glob), entries };
  });
  list = { sections };
  lists.set(room, list);
  return list;
}

const withoutExtension = (file) => file.replace(CODE_EXTENSION, '');

/** Whether a package-like specifier is the entry or one of its subpaths ("@scope/*" for a scope). */
function packageMatches(entry, specifier) {
  if (entry.endsWith('/*')) return specifier.startsWith(entry.slice(0, -1));
  if (entry === 'node:*') return specifier.startsWith('node:');
  return specifier === entry || specifier.startsWith(`${entry}/`);
}

function pathMatches(entryPath, target) {
  const entry = withoutExtension(entryPath);
  const bare = withoutExtension(target);
  return target === entryPath || bare === entry || bare.startsWith(`${entry}/`) || target.startsWith(`${entryPath}/`);
}

/** The entries that speak for a file (relative to its room). */
function entriesFor(room, relative) {
  return listOf(room)
    .sections.filter(({ match }) => match.test(relative))
    .flatMap(({ entries }) => entries);
}

function allowed(entries, room, { specifier, target, typeOnly }) {
  return entries.some((raw) => {
    const typeEntry = raw.startsWith('type ');
    if (typeEntry && !typeOnly) return false;
    const entry = typeEntry ? raw.slice(5) : raw;
    if (entry === EXECUTE_SQL) return false;
    if (entry.startsWith('.')) return target !== null && pathMatches(path.resolve(room, entry), target);
    return target === null && packageMatches(entry, specifier);
  });
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: `Each room imports only what its ${LIST_NAME} allows.` },
    schema: [],
    messages: {
      notAllowed:
        "{{file}} may not import '{{specifier}}'{{how}}: {{list}} does not list it for this file. Edit that list if this room should use it.",
      executeSql:
        '{{file}} runs raw SQL ({{call}}(…)): {{list}} does not allow executeSql() for this file. SQL lives in *.repo.ts, db/ and the job queue.',
      noRoom: '{{file}} is in no room: add a ' + LIST_NAME + ' to its folder (or one above) listing what it may import.',
    },
  },
  create(context) {
    const file = context.filename;
    const cwd = context.cwd;
    const shown = (absolute) => path.relative(cwd, absolute).split(path.sep).join('/');
    const room = roomOf(path.dirname(file));
    if (room === null) {
      return {
        Program(node) {
          context.report({ node, messageId: 'noRoom', data: { file: shown(file) } });
        },
      };
    }
    const relative = path.relative(room, file).split(path.sep).join('/');
    const entries = entriesFor(room, relative);
    const list = shown(path.join(room, LIST_NAME));

    function check(node, source, typeOnly, how) {
      if (!source || typeof source.value !== 'string') return;
      const specifier = source.value;
      let target = null;
      let normalized = specifier;
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        target = path.resolve(path.dirname(file), specifier.replace(/\?.*$/, ''));
        const isFolder = existsSync(target) && statSync(target).isDirectory();
        if (roomOf(isFolder ? target : path.dirname(target)) === room) return;
      } else if (isBuiltin(specifier)) {
        normalized = specifier.startsWith('node:') ? specifier : `node:${specifier}`;
      }
      if (allowed(entries, room, { specifier: normalized, target, typeOnly })) return;
      context.report({ node, messageId: 'notAllowed', data: { file: shown(file), specifier, how, list } });
    }

    const allTypes = (specifiers, kind) => specifiers.length > 0 && specifiers.every((s) => s[kind] === 'type');
    return {
      ImportDeclaration(node) {
        check(node, node.source, node.importKind === 'type' || allTypes(node.specifiers, 'importKind'), '');
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source, node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind'), '');
      },
      ExportAllDeclaration(node) {
        check(node, node.source, node.exportKind === 'type', '');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source, false, ' (dynamic import)');
      },
      TSImportType(node) {
        const literal = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.source;
        if (literal?.type === 'Literal') check(node, literal, true, '');
      },
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type === 'TSExternalModuleReference') {
          check(node, node.moduleReference.expression, node.importKind === 'type', ' (require)');
        }
      },
      CallExpression(node) {
        const { callee } = node;
        const argument = node.arguments[0];
        const isRequire =
          (callee.type === 'Identifier' && callee.name === 'require') ||
          (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'require');
        if (isRequire && argument?.type === 'Literal') check(node, argument, false, ' (require)');
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          callee.property.type === 'Identifier' &&
          callee.property.name === 'executeSql' &&
          !entries.includes(EXECUTE_SQL)
        ) {
          context.report({ node, messageId: 'executeSql', data: { file: shown(file), call: context.sourceCode.getText(callee), list } });
        }
      },
    };
  },
};

export default { rules: { 'allowed-imports': rule } };
