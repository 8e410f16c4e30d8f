import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './secrets.js';
import { digestToken, hashPassword, newToken, TokenPrefix, verifyPassword } from './tokens.js';

describe('tokens', () => {
  it('makes 256-bit tokens that never repeat and digests them with SHA-256', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newToken(TokenPrefix.session)));
    expect(tokens.size).toBe(100);
    const [token] = tokens;
    expect(Buffer.from(token!.slice(4), 'base64url')).toHaveLength(32);
    expect(digestToken(token!)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestToken(token!)).not.toContain(token!.slice(4));
  });
});

describe('passwords', () => {
  it('verifies the right password only, with a salt per hash', async () => {
    const first = await hashPassword('s3cret password');
    const second = await hashPassword('s3cret password');
    expect(first).not.toBe(second);
    expect(first.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('s3cret password', first)).toBe(true);
    expect(await verifyPassword('s3cret Password', first)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });
});

describe('secrets', () => {
  it('round-trips under the same key and refuses another key or altered text', () => {
    const key = randomBytes(32);
    const stored = encryptSecret('totp-seed', key);
    expect(stored).not.toContain('totp-seed');
    expect(decryptSecret(stored, key)).toBe('totp-seed');
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow();
    const altered = stored.slice(0, -4) + (stored.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(() => decryptSecret(altered, key)).toThrow();
  });
});
