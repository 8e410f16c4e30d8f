import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');

/**
 * The repository's own lint config, applied to probe files the way `npm run check` applies it
 * (type-aware rules off: the probes are not part of any tsconfig, and the boundaries are import rules).
 */
async function lintProbe(code: string, file: string, rule: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO, overrideConfig: [tseslint.configs.disableTypeChecked] });
  const [result] = await eslint.lintText(code, { filePath: path.isAbsolute(file) ? file : path.join(REPO, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === rule).map((message) => message.message);
}

const restrictedImports = (code: string, file: string) => lintProbe(code, file, 'no-restricted-imports');

describe('lint boundaries of the API process', () => {
  it('refuses a server file that loads the recorder, the runner, the CLI that composes them or Playwright', async () => {
    const probe = [
      "import { RecorderSession } from '@rehearse/recorder';",
      "import { runCli } from '@rehearse/runner/cli';",
      "import { REHEARSE_BIN } from '@rehearse/cli';",
      "import { launchBrowser } from '../../packages/runner/src/browser.js';",
      "import { chromium } from 'playwright-core';",
      'export const loaded = [RecorderSession, runCli, REHEARSE_BIN, launchBrowser, chromium];',
    ].join('\n');
    const refused = await restrictedImports(probe, 'apps/server/src/recorder/probe.ts');
    expect(refused).toHaveLength(5);
    expect(refused.filter((message) => message.includes('never loads their code'))).toHaveLength(4);
    expect(refused.filter((message) => message.includes('never in the API process'))).toHaveLength(1);
  });

  it('lets a server file import the types of what the recorder says, which load nothing', async () => {
    const probe = "import type { RecorderSessionOptions } from '@rehearse/recorder';\nexport type Options = RecorderSessionOptions;\n";
    expect(await restrictedImports(probe, 'apps/server/src/recorder/probe.ts')).toEqual([]);
  });

  it('keeps SQL in repositories: a service may not import drizzle or the schema, a repository may', async () => {
    const probe = "import { eq } from 'drizzle-orm';\nimport { runs } from '../db/schema.js';\nexport const q = [eq, runs];\n";
    const inService = await restrictedImports(probe, 'apps/server/src/runs/probe.service.ts');
    expect(inService).toHaveLength(2);
    expect(inService.every((message) => message.includes('SQL lives in *.repo.ts'))).toBe(true);
    expect(await restrictedImports(probe, 'apps/server/src/runs/probe.repo.ts')).toEqual([]);
  });

  it('lets tests reach into anything they need to set up', async () => {
    const probe =
      "import { runCli } from '@rehearse/runner/cli';\nimport { runs } from '../db/schema.js';\nexport const t = [runCli, runs];\n";
    expect(await restrictedImports(probe, 'apps/server/src/runs/probe.test.ts')).toEqual([]);
  });
});

describe('lint boundaries of the runner', () => {
  it('refuses a runner file that loads the recorder or the CLI: only packages/cli composes them', async () => {
    const probe =
      "import { runRecord } from '@rehearse/recorder/cli';\nimport { runCli } from '@rehearse/cli';\nexport const t = [runRecord, runCli];\n";
    const refused = await restrictedImports(probe, 'packages/runner/src/cli/probe.ts');
    expect(refused).toHaveLength(2);
    expect(refused.every((message) => message.includes('compose the two in packages/cli'))).toBe(true);
    expect(await restrictedImports(probe, 'packages/cli/src/probe.ts')).toEqual([]);
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
      expect(await lintProbe(a, path.join(dir, 'a.ts'), 'import-x/no-cycle')).toEqual(['Dependency cycle detected']);
      expect(await lintProbe('export const a = 1;\n', path.join(dir, 'a.ts'), 'import-x/no-cycle')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
