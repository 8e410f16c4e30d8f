import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsFromWorkspace } from './settings.js';

describe('the default step timeout (spec 02 §9: "Default step timeout 60 s"; the recorded steps\' 120 s is codegen\'s)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const workspace = (config?: object) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-settings-'));
    dirs.push(dir);
    if (config) writeFileSync(path.join(dir, 'rehearse.config.json'), JSON.stringify(config));
    return dir;
  };

  it('runs a step under a default of 60 s unless the project says otherwise', () => {
    expect(settingsFromWorkspace(workspace(), {}).stepTimeoutMs).toBe(60_000);
    expect(settingsFromWorkspace(workspace({ stepTimeoutMs: 30_000 }), {}).stepTimeoutMs).toBe(30_000);
  });
});
