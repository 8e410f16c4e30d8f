import type { ApplicationMemory } from '@rehearse/contract';
import { startDemoShop } from '@rehearse/recorder/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ideasFromMemory } from './ideas.js';
import { translateFlow } from './plain-english.js';
import { ideaStatuses, recordedMap } from './testing/idea-runs.js';

/**
 * The sign-in idea on the demo shop's page as the recorder maps it: it asserts that signing in
 * worked (the form is gone), so it passes with the shop's account and fails with a wrong password,
 * the shop's sign-in error left on the page.
 */

let shop: Awaited<ReturnType<typeof startDemoShop>>;
let loginPage: ApplicationMemory['paths'] = {};

beforeAll(async () => {
  shop = await startDemoShop();
  loginPage = await recordedMap(`${shop.baseUrl}login.html`, shop.baseUrl, (page) => page.getByLabel('Password').waitFor());
}, 90_000);
afterAll(async () => shop?.app.close());

async function signInWith(password: string): Promise<string> {
  const idea = ideasFromMemory({ paths: loginPage }, '', [shop.baseUrl]).find((each) => each.name.startsWith('Sign in on '));
  expect(idea?.flow).toEqual([
    'open "/login.html"',
    'fill "Email" with "{{user}}"',
    'fill "Password" with "{{password}}"',
    'click "Sign in"',
    'the "Password" field should be hidden',
  ]);
  expect(translateFlow(idea!.flow).unmatched).toEqual([]);
  const ran = await ideaStatuses(shop.baseUrl, [{ ...idea!, parameters: { user: 'demo@rehearse.dev', password } }], 3_000);
  return ran[idea!.name] ?? 'not run';
}

describe('the sign-in idea on the demo shop (issue 44)', () => {
  it('passes with the shop’s account', async () => {
    expect(await signInWith('rehearse123')).toBe('PASSED');
  }, 90_000);

  it('fails with a wrong password: the form stays', async () => {
    expect(await signInWith('wrong-password')).toMatch(/^FAILED: "Password" is still visible/);
  }, 90_000);
});
