import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');
const FENCE = 'rehearse/allowed-imports';

/**
 * The repository's own lint config, applied to a probe file the way `npm run check` applies it
 * (type-aware rules off: the probes are not part of any tsconfig, and the boundaries are import rules).
 * With `fence: false` the allow-lists are off, to show that nothing else would catch the probe.
 */
async function lintProbe(code: string, file: string, { fence = true } = {}): Promise<{ ruleId: string | null; message: string }[]> {
  const overrideConfig = [tseslint.configs.disableTypeChecked, ...(fence ? [] : [{ rules: { [FENCE]: 'off' as const } }])];
  const eslint = new ESLint({ cwd: REPO, overrideConfig });
  const [result] = await eslint.lintText(code, { filePath: path.isAbsolute(file) ? file : path.join(REPO, file) });
  return (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message }));
}

/** What the allow-lists refuse in a probe. */
async function fenced(code: string, file: string): Promise<string[]> {
  return (await lintProbe(code, file)).filter((problem) => problem.ruleId === FENCE).map((problem) => problem.message);
}

/** Every problem any rule finds in the probe once the allow-lists are off. */
async function unfenced(code: string, file: string): Promise<string[]> {
  return (await lintProbe(code, file, { fence: false })).map((problem) => `${problem.ruleId}: ${problem.message}`);
}

describe('allow-lists: each room imports only what its DEPS.jsonc lists', () => {
  // The holes of issue 46: each probe is refused by the list, and by nothing else.
  const holes = [
    {
      hole: 'raw SQL through database.executeSql in a service',
      file: 'apps/server/src/runs/probe.service.ts',
      code: "export const count = (database: { executeSql(text: string): Promise<unknown> }) => database.executeSql('SELECT count(*) FROM runs');\n",
      refusal: 'runs raw SQL (database.executeSql(…)): apps/server/src/runs/DEPS.jsonc does not allow executeSql() for this file',
    },
    {
      hole: 'a dynamic import of the recorder in the API process',
      file: 'apps/server/src/recorder/probe.ts',
      code: "export const load = () => import('@rehearse/recorder');\n",
      refusal: "may not import '@rehearse/recorder' (dynamic import): apps/server/src/recorder/DEPS.jsonc does not list it",
    },
    {
      hole: 'a require of the runner in the API process',
      file: 'apps/server/src/runs/probe.ts',
      code: "declare const require: (name: string) => unknown;\nexport const runner = require('@rehearse/runner');\n",
      refusal: "may not import '@rehearse/runner' (require): apps/server/src/runs/DEPS.jsonc does not list it",
    },
    {
      hole: 'a server service that spawns a process itself',
      file: 'apps/server/src/workspace/probe.service.ts',
      code: "import { spawn } from 'node:child_process';\nexport const start = () => spawn('ls');\n",
      refusal: "may not import 'node:child_process': apps/server/src/workspace/DEPS.jsonc does not list it",
    },
    {
      hole: 'Playwright in codegen, which the API process loads',
      file: 'packages/codegen/src/probe.ts',
      code: "import { chromium } from 'playwright-core';\nexport const browser = chromium;\n",
      refusal: "may not import 'playwright-core': packages/codegen/DEPS.jsonc does not list it",
    },
    {
      hole: 'the shared UI kit importing a feature (upward)',
      file: 'apps/web/src/components/Probe.tsx',
      code: "export { FeatureStrings } from '../features/scenarios/strings';\n",
      refusal: "may not import '../features/scenarios/strings': apps/web/src/components/DEPS.jsonc does not list it",
    },
  ];

  it.each(holes)('refuses $hole, naming the list to edit; without the list nothing refuses it', async ({ file, code, refusal }) => {
    const refused = await fenced(code, file);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(refusal);
    expect(await unfenced(code, file)).toEqual([]);
  });

  it('lets each room use what its list allows', async () => {
    const allowed: [file: string, code: string][] = [
      ['apps/web/src/components/Probe.tsx', "export { Strings } from '../lib/strings';\n"],
      [
        'apps/server/src/runs/probe.repo.ts',
        'export const count = (database: { executeSql(text: string): Promise<unknown> }) => database.executeSql("SELECT 1");\n',
      ],
      [
        'apps/server/src/jobs/job-queue.ts',
        'export const count = (database: { executeSql(text: string): Promise<unknown> }) => database.executeSql("SELECT 1");\n',
      ],
      ['apps/server/src/workspace/git.ts', "import { spawn } from 'node:child_process';\nexport const start = () => spawn('git');\n"],
      ['packages/processes/src/probe.ts', "import { spawn } from 'node:child_process';\nexport const start = () => spawn('ls');\n"],
      ['packages/runner/src/probe.ts', "import { chromium } from 'playwright-core';\nexport const browser = chromium;\n"],
      ['apps/server/src/recorder/probe.ts', "import { Messages } from '@rehearse/contract';\nexport const m = Messages;\n"],
    ];
    for (const [file, code] of allowed) expect({ file, refused: await fenced(code, file) }).toEqual({ file, refused: [] });
  });

  it('refuses a server file that loads the recorder, the runner, the CLI that composes them or Playwright', async () => {
    const probe = [
      "import { RecorderSession } from '@rehearse/recorder';",
      "import { runCli } from '@rehearse/runner/cli';",
      "import { REHEARSE_BIN } from '@rehearse/cli';",
      "import { launchBrowser } from '../../../../packages/runner/src/browser.js';",
      "import { chromium } from 'playwright-core';",
      'export const loaded = [RecorderSession, runCli, REHEARSE_BIN, launchBrowser, chromium];',
    ].join('\n');
    const refused = await fenced(probe, 'apps/server/src/recorder/probe.ts');
    expect(refused).toHaveLength(5);
    expect(refused.every((message) => message.includes('apps/server/src/recorder/DEPS.jsonc'))).toBe(true);
  });

  it('lets a "type" entry admit type-only imports, which load nothing, and refuses the same import loaded', async () => {
    const types = "import type { EgressRules } from '@rehearse/egress';\nexport type Rules = EgressRules;\n";
    expect(await fenced(types, 'apps/server/src/runs/probe.ts')).toEqual([]);
    const loaded = "import { allowPrivateTargets } from '@rehearse/egress';\nexport const allow = allowPrivateTargets;\n";
    expect(await fenced(loaded, 'apps/server/src/runs/probe.ts')).toHaveLength(1);
  });

  it('keeps SQL in repositories: a service may not import drizzle or the schema, a repository may', async () => {
    const probe = "import { eq } from 'drizzle-orm';\nimport { runs } from '../db/schema.js';\nexport const q = [eq, runs];\n";
    const inService = await fenced(probe, 'apps/server/src/runs/probe.service.ts');
    expect(inService).toHaveLength(2);
    expect(inService.every((message) => message.includes('apps/server/src/runs/DEPS.jsonc'))).toBe(true);
    expect(await fenced(probe, 'apps/server/src/runs/probe.repo.ts')).toEqual([]);
  });

  it('lets tests reach into anything they need to set up', async () => {
    const probe =
      "import { runCli } from '@rehearse/runner/cli';\nimport { runs } from '../db/schema.js';\nimport { spawn } from 'node:child_process';\nexport const t = [runCli, runs, spawn];\n";
    expect(await fenced(probe, 'apps/server/src/runs/probe.test.ts')).toEqual([]);
  });

  it('refuses a runner file that loads the recorder or the CLI: only packages/cli composes them', async () => {
    const probe =
      "import { runRecord } from '@rehearse/recorder/cli';\nimport { runCli } from '@rehearse/cli';\nexport const t = [runRecord, runCli];\n";
    const refused = await fenced(probe, 'packages/runner/src/cli/probe.ts');
    expect(refused).toHaveLength(2);
    expect(refused.every((message) => message.includes('packages/runner/DEPS.jsonc'))).toBe(true);
    const composed =
      "import { runRecord } from '@rehearse/recorder/cli';\nimport { runCli } from '@rehearse/runner/cli';\nexport const t = [runRecord, runCli];\n";
    expect(await fenced(composed, 'packages/cli/src/probe.ts')).toEqual([]);
  });

  it('refuses a file in no room, so a new package cannot skip its list', async () => {
    const refused = await fenced('export const a = 1;\n', 'packages/probe-package/src/index.ts');
    expect(refused).toEqual([
      'packages/probe-package/src/index.ts is in no room: add a DEPS.jsonc to its folder (or one above) listing what it may import.',
    ]);
  });
});

describe('lint on import cycles', () => {
  it('refuses two modules that import each other', async () => {
    // Both halves of a cycle must exist on disk for the resolver to follow it.
    const dir = await mkdtemp(path.join(REPO, 'apps/server/src/cycle-probe-'));
    try {
      await writeFile(path.join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
      const a = "import { b } from './b.js';\nexport const a = () => b;\n";
      await writeFile(path.join(dir, 'a.ts'), a);
      const cycles = async (code: string) =>
        (await lintProbe(code, path.join(dir, 'a.ts'))).filter((problem) => problem.ruleId === 'import-x/no-cycle').map((p) => p.message);
      expect(await cycles(a)).toEqual(['Dependency cycle detected']);
      expect(await cycles('export const a = 1;\n')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
