import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSecretKey, loadSettings, parseSettings } from './env.js';

describe('settings', () => {
  it('applies the documented defaults', () => {
    const raw = parseSettings({});
    expect(raw).toMatchObject({ PORT: 4000, DATA_DIR: './data', LOG_LEVEL: 'info', REHEARSE_ALLOW_PRIVATE_TARGETS: true });
    expect(raw.DATABASE_URL).toBeUndefined();
  });

  it('names every bad variable in one sentence each', () => {
    expect(() => parseSettings({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail' })).toThrow(
      /Setting PORT is invalid.*\n.*Setting DATABASE_URL is invalid.*\n.*Setting SMTP_URL is invalid/,
    );
    expect(() => parseSettings({ PORT: '70000' })).toThrow('Setting PORT is invalid');
  });

  it('generates a secret key into DATA_DIR on first start and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-env-'));
    const first = loadSettings({ DATA_DIR: dir });
    const second = loadSettings({ DATA_DIR: dir });
    expect(first.secretKey).toHaveLength(32);
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
    const file = path.join(dir, 'secret.key');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey.toString('hex'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.publicUrl).toBe('http://localhost:4000');
  });

  it('prefers REHEARSE_SECRET_KEY and refuses a key of the wrong size', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-env-'));
    const key = 'ab'.repeat(32);
    expect(loadSettings({ DATA_DIR: dir, REHEARSE_SECRET_KEY: key }).secretKey.toString('hex')).toBe(key);
    expect(() => decodeSecretKey('too-short')).toThrow('REHEARSE_SECRET_KEY');
  });

  it('runs every role by default and refuses an unknown or empty REHEARSE_ROLES with a sentence naming it', () => {
    expect(parseSettings({}).REHEARSE_ROLES).toEqual(['api', 'scheduler', 'workers']);
    expect(parseSettings({ REHEARSE_ROLES: ' scheduler, workers,workers' }).REHEARSE_ROLES).toEqual(['scheduler', 'workers']);
    expect(() => parseSettings({ REHEARSE_ROLES: 'api,worker' })).toThrow(
      'Setting REHEARSE_ROLES is invalid: must be a comma list of api, scheduler, workers (not worker).',
    );
    expect(() => parseSettings({ REHEARSE_ROLES: ',' })).toThrow('Setting REHEARSE_ROLES is invalid');
  });

  it('serves no metrics unless METRICS_TOKEN or METRICS_PORT is set, and refuses a short token', () => {
    expect(parseSettings({}).METRICS_TOKEN).toBeUndefined();
    expect(parseSettings({}).METRICS_PORT).toBeUndefined();
    expect(parseSettings({ METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(16) })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_TOKEN: 'a'.repeat(16),
    });
    expect(() => parseSettings({ METRICS_TOKEN: 'short' })).toThrow('Setting METRICS_TOKEN is invalid: must be at least 16 characters.');
    expect(() => parseSettings({ METRICS_PORT: '99999' })).toThrow('Setting METRICS_PORT is invalid');
  });

  it('trusts no proxy unless TRUST_PROXY names them', () => {
    expect(parseSettings({}).TRUST_PROXY).toBeUndefined();
    expect(parseSettings({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseSettings({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor addresses', () => {
    for (const bad of ['true', 'proxy.example.com', '10.0.0.0/33', '1,2', '10.0.0.1/8/1']) {
      expect(() => parseSettings({ TRUST_PROXY: bad }), bad).toThrow(/Setting TRUST_PROXY is invalid/);
    }
  });

  it('takes single sign-on only whole, and only from an https issuer (http on loopback), each refusal naming the variable', () => {
    const whole = { OIDC_ISSUER: 'https://id.acme.test/realms/qa', OIDC_CLIENT_ID: 'rehearse', OIDC_CLIENT_SECRET: 'secret' };
    expect(parseSettings(whole)).toMatchObject({ ...whole, OIDC_NAME: 'single sign-on' });
    expect(parseSettings({ ...whole, OIDC_ISSUER: 'http://127.0.0.1:9000' }).OIDC_ISSUER).toBe('http://127.0.0.1:9000');
    expect(() => parseSettings({ ...whole, OIDC_ISSUER: 'http://id.acme.test' })).toThrow(
      'Setting OIDC_ISSUER is invalid: must be an https:// URL (http:// only on loopback).',
    );
    expect(() => parseSettings({ OIDC_ISSUER: whole.OIDC_ISSUER })).toThrow(
      'Setting OIDC_ISSUER is invalid: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together.',
    );
  });
});
