import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Prefixes tell a session token from an access key without a database lookup. */
export const TokenPrefix = { session: 'rhs_', accessKey: 'rhk_' } as const;

/** A new opaque token: 256 random bits, URL-safe. */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * A token the server can make again from its key and `label` (a random id it stored), so the
 * token itself is never stored: as hard to guess as `newToken` without the key, the same shape.
 */
export function derivedToken(prefix: string, key: Buffer, label: string): string {
  return `${prefix}${createHmac('sha256', key).update(label).digest('base64url')}`;
}

/** What the database keeps instead of a token. */
export function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** OWASP's minimum for scrypt (Password Storage Cheat Sheet): N=2^17, r=8, p=1 (128 MiB, ~100+ ms a hash). */
export const SCRYPT_LOG_N = 17;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_LENGTH = 32;
/** Hashes at a cost above this are not ours: refusing them keeps a bad stored row from exhausting memory. */
const MAX_LOG_N = 20;

function deriveKey(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128*N*r bytes; maxmem must sit above that (Node's default of 32 MiB refuses N=2^17).
  const maxmem = 128 * options.N * options.r * options.p + 16 * 1024 * 1024;
  const settings: ScryptOptions = { ...options, maxmem };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, settings, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Hashes a password as `scrypt$N$r$p$salt$key`: the parameters travel with the hash, so older
 * hashes still verify after the cost is raised. `logN` below 17 is for tests only.
 */
export async function hashPassword(password: string, logN = SCRYPT_LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** logN;
  const key = await deriveKey(password, salt, { N, r: SCRYPT_R, p: SCRYPT_P });
  return ['scrypt', N, SCRYPT_R, SCRYPT_P, salt.toString('base64'), key.toString('base64')].join('$');
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseStoredHash(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, key, ...extra] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key || extra.length > 0) return undefined;
  const N = Number(n);
  const parsed = { N, r: Number(r), p: Number(p), salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  const powerOfTwo = Number.isInteger(N) && N >= 2 && (N & (N - 1)) === 0 && N <= 2 ** MAX_LOG_N;
  if (!powerOfTwo || !Number.isInteger(parsed.r) || parsed.r < 1 || parsed.r > 32 || parsed.p !== 1) return undefined;
  return parsed;
}

/** True when the password matches the stored hash, whatever scrypt cost that hash was made with. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const actual = await deriveKey(password, parsed.salt, parsed);
  return actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
}

/** True when a stored hash was made at a lower cost than `logN` asks: sign-in then re-hashes it. */
export function needsRehash(stored: string, logN = SCRYPT_LOG_N): boolean {
  const parsed = parseStoredHash(stored);
  return !parsed || parsed.N < 2 ** logN || parsed.r < SCRYPT_R;
}

/** A hash of a password nobody has, to spend the same time when the email is unknown. */
const decoyHashes = new Map<number, Promise<string>>();
export function decoyPasswordHash(logN = SCRYPT_LOG_N): Promise<string> {
  let decoy = decoyHashes.get(logN);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'), logN);
    decoyHashes.set(logN, decoy);
  }
  return decoy;
}
