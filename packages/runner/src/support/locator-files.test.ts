import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { locatorsFile } from './locator-files.js';

describe('locatorsFile', () => {
  it('loads the elements of a locator file and stamps each with its workspace path and key', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'locators-'));
    const dir = path.join(root, 'features', 'step_definitions');
    mkdirSync(path.join(dir, 'locators'), { recursive: true });
    const signIn = { name: 'Sign in', locators: [{ kind: 'role', role: 'button', name: 'Sign in' }] };
    writeFileSync(path.join(dir, 'locators', 'login.json'), JSON.stringify({ sign_in: signIn }));

    const elements = locatorsFile(pathToFileURL(path.join(dir, 'login.mjs')).href, 'locators/login.json');

    expect(elements.sign_in).toEqual({
      ...signIn,
      source: { file: 'features/step_definitions/locators/login.json', key: 'sign_in' },
    });
  });
});
