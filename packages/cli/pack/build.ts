import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runnerTarballName } from '@rehearse/contract';
import { build, type Plugin } from 'esbuild';

const run = promisify(execFile);

const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_DIR = path.resolve(CLI_DIR, '..', '..');
const RUNNER_DIR = path.join(REPO_DIR, 'packages', 'runner');
/** Where the built tarball and its stamp (build.json) land, not committed: the server serves them from here by default. */
export const PACK_DIR = path.join(CLI_DIR, 'dist-pack');
/** The one source of the version: the server's, so a server serves exactly the runner it speaks. */
const VERSION_SOURCE = path.join(REPO_DIR, 'apps', 'server', 'package.json');
/** The repository's licence (Apache-2.0), shipped in the package as npm expects: a LICENSE file beside package.json. */
const LICENSE_FILE = path.join(REPO_DIR, 'LICENSE');
/** Our private packages: bundled into the output, never dependencies of it. */
const BUNDLED = ['cli', 'runner', 'recorder', 'codegen', 'processes', 'contract', 'api-client', 'egress'].map((name) =>
  path.join(REPO_DIR, 'packages', name),
);
/** The published package's name; its file names use the unscoped part. */
export const PACKAGE_NAME = '@rehearse/runner';

/** The version the build stamps into the package: the server's. */
export function runnerVersion(): string {
  return (JSON.parse(readFileSync(VERSION_SOURCE, 'utf8')) as { version: string }).version;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}
const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (!entry.name.endsWith('.test.ts')) yield full;
  }
}

/** A hash of everything the tarball is made of: rebuilding is skipped while it is unchanged. */
export function sourceHash(): string {
  const hash = createHash('sha256');
  const files = [
    VERSION_SOURCE,
    LICENSE_FILE,
    path.join(REPO_DIR, 'package-lock.json'),
    ...BUNDLED.flatMap((dir) => [path.join(dir, 'package.json'), ...sourceFiles(path.join(dir, 'src'))]),
    ...sourceFiles(path.join(CLI_DIR, 'pack')),
    ...sourceFiles(path.join(CLI_DIR, 'bin')),
  ];
  for (const file of files) hash.update(path.relative(REPO_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The package a bare import names: `@scope/name` or `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Bundles `@rehearse/*` imports (resolved to their TypeScript source through the workspace links)
 * and leaves every other package as an import the installed package's dependencies answer.
 */
function externalsPlugin(externals: Set<string>): Plugin {
  return {
    name: 'rehearse-externals',
    setup(pluginBuild) {
      // Only the TypeScript source registers tsx (src/cli/loaders.ts, guarded by BUILT).
      pluginBuild.onResolve({ filter: /^tsx\/esm\/api$/ }, () => ({ path: 'tsx', namespace: 'rehearse-no-tsx' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'rehearse-no-tsx' }, () => ({
        contents: "export function register() { throw new Error('The built runner runs no TypeScript'); }",
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || args.path.startsWith('@rehearse/')) return undefined;
        externals.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
}

/** The exact installed version of a dependency: the one the runner was tested with. */
function installedVersion(name: string): string {
  for (const dir of [...BUNDLED, REPO_DIR]) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return readJson<PackageJson>(file).version;
  }
  throw new Error(`The runner imports ${name}, which is not installed: add it to the package.json of the package that imports it`);
}

/** Declared dependencies of the bundled packages: anything imported must be declared by one of them. */
function declaredDependencies(): Set<string> {
  const names = new Set<string>();
  for (const dir of BUNDLED)
    for (const name of Object.keys(readJson<PackageJson>(path.join(dir, 'package.json')).dependencies ?? {})) names.add(name);
  return names;
}

/** The installed package's README: how to use what it installs. */
function readme(version: string): string {
  return `# @rehearse/runner ${version}

The \`rehearse\` command line and the cucumber-js runtime of a Rehearse server, installed from that
server (\`npm install <server>/downloads/rehearse-runner-${version}.tgz\`). It speaks exactly the
calls of Rehearse server ${version}; \`rehearse\` warns when the server answers another version.

- \`npx rehearse pull --server URL --token T [--project id] [--branch b] [--dir d]\` downloads a
  project's workspace (the access key names its project).
- \`npx rehearse run --env environments/<name>.json [--token T --server URL]\` runs it and uploads the report.
- \`npx rehearse record --server URL --token T --env <name>\` records a scenario in a local Chromium
  (in a pulled folder the server and project come from its \`.rehearse/project.json\`).

Browsers: \`npx playwright-core install chromium\` (this package pins playwright-core), or set
\`CHROMIUM_PATH\`.

## Plain cucumber-js

In a pulled workspace, \`REHEARSE_ENV=environments/<name>.json npx cucumber-js\` runs it: its
\`cucumber.mjs\` exports this package's profile (\`@rehearse/runner/profile\`: the World, hooks,
built-in steps and \`context.web\`, the workspace's step definitions, the report in
\`rehearse-report/\`). Add profiles of your own there, starting from it, and pick one with
\`--profile\` (plain cucumber-js or \`rehearse run\`):

    export const smoke = { ...rehearse, tags: '@smoke' };

In a cucumber-js project of your own, name the support file: cucumber-js's \`--import\` takes file
paths and globs, not package names, so \`--import @rehearse/runner/support\` matches no file and
loads nothing. From the folder you installed this package in (where \`node_modules\` is):

    npx cucumber-js --import node_modules/@rehearse/runner/dist/support.js --import 'features/**/*.mjs'

or, in a \`cucumber.mjs\`, \`import: [fileURLToPath(import.meta.resolve('@rehearse/runner/support')), 'features/**/*.mjs']\`.
Rehearse's support file first, then your step definitions. Settings come from
\`environments/default.json\` (or \`REHEARSE_ENV\`) and \`rehearse.config.json\`.

## Licence

Apache License 2.0: see \`LICENSE\`.
`;
}

export interface BuiltPackage {
  tarball: string;
  version: string;
  bytes: number;
  /** False when an up-to-date tarball was already there. */
  built: boolean;
}

/**
 * Builds `dist-pack/rehearse-runner-<version>.tgz`: the composed CLI, the runner, the recorder and what they
 * use of the contract and api-client bundled to plain ES modules (esbuild, code splitting so the
 * CLI, `@rehearse/runner` and `@rehearse/runner/support` share one instance of every module), the
 * recorder's injected scripts and the loader hooks as files beside them, and a package.json whose
 * dependencies are the public packages imported, pinned to the versions installed here. Skips the
 * work while the sources hash the same; safe to call from processes building at once (each builds
 * in its own folder and renames into place).
 */
export async function buildRunnerPackage(options: { force?: boolean } = {}): Promise<BuiltPackage> {
  const version = runnerVersion();
  const hash = sourceHash();
  const tarball = path.join(PACK_DIR, runnerTarballName(version));
  const stampFile = path.join(PACK_DIR, 'build.json');
  if (!options.force && existsSync(tarball) && existsSync(stampFile) && readJson<{ hash: string }>(stampFile).hash === hash) {
    return { tarball, version, bytes: statSync(tarball).size, built: false };
  }
  mkdirSync(PACK_DIR, { recursive: true });
  const work = mkdtempSync(path.join(PACK_DIR, '.build-'));
  try {
    const staging = path.join(work, 'package');
    const dist = path.join(staging, 'dist');
    const externals = new Set<string>();
    await build({
      absWorkingDir: RUNNER_DIR,
      entryPoints: {
        cli: path.join(CLI_DIR, 'src', 'index.ts'),
        index: 'src/index.ts',
        support: 'src/support/register.ts',
        profile: 'src/profile.ts',
        formatter: 'src/report/formatter.ts',
        browser: 'src/browser.ts',
        loaders: 'src/cli/loaders.ts',
      },
      outdir: dist,
      // Every file directly in dist/: the runner reaches files by URLs relative to its modules
      // (src/cli/package-files.ts), which must mean the same from every chunk.
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      legalComments: 'none',
      logLevel: 'error',
      plugins: [externalsPlugin(externals)],
    });
    cpSync(path.join(RUNNER_DIR, 'src', 'cli', 'loader-hooks.mjs'), path.join(dist, 'loader-hooks.mjs'));
    for (const script of ['capture.js', 'panel.js'])
      cpSync(path.join(REPO_DIR, 'packages', 'recorder', 'src', 'inject', script), path.join(dist, script));
    mkdirSync(path.join(staging, 'bin'));
    cpSync(path.join(CLI_DIR, 'pack', 'rehearse.mjs'), path.join(staging, 'bin', 'rehearse.mjs'));

    const declared = declaredDependencies();
    const undeclared = [...externals].filter((name) => !declared.has(name));
    if (undeclared.length > 0) throw new Error(`The runner imports undeclared packages: ${undeclared.join(', ')}`);
    const runner = readJson<PackageJson & { description: string; license: string }>(path.join(RUNNER_DIR, 'package.json'));
    const manifest = {
      name: PACKAGE_NAME,
      version,
      description: runner.description,
      type: 'module',
      license: runner.license,
      engines: { node: '>=20.19.0' },
      bin: { rehearse: './bin/rehearse.mjs' },
      exports: {
        '.': './dist/index.js',
        './support': './dist/support.js',
        './profile': './dist/profile.js',
        './formatter': './dist/formatter.js',
        './browser': './dist/browser.js',
        './cli': './dist/cli.js',
        './package.json': './package.json',
      },
      dependencies: Object.fromEntries([...externals].sort().map((name) => [name, installedVersion(name)])),
      rehearse: { sourceHash: hash },
    };
    writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(path.join(staging, 'README.md'), readme(version));
    cpSync(LICENSE_FILE, path.join(staging, 'LICENSE'));
    // npm pack of a folder outside any workspace: the monorepo's settings do not apply to it.
    const { stdout } = await run('npm', ['pack', staging, '--pack-destination', work, '--json', '--ignore-scripts'], { cwd: work });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
    if (!packed) throw new Error('npm pack wrote no tarball');
    renameSync(path.join(work, packed.filename), tarball);
    writeFileSync(
      stampFile,
      `${JSON.stringify({ hash, version, dependencies: manifest.dependencies, builtAt: new Date().toISOString() })}\n`,
    );
    return { tarball, version, bytes: statSync(tarball).size, built: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
