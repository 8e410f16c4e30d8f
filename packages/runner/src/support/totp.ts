import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const PERIOD_SECONDS = 30;
const DIGITS = 6;

/** Decodes an authenticator secret (RFC 4648 base32; spaces, dashes, case and padding ignored). */
export function decodeBase32(secret: string): Buffer {
  const clean = secret.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value === -1) throw new Error('A TOTP secret must be base32 (letters A-Z and digits 2-7)');
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** HOTP (RFC 4226) of a counter, `digits` long. */
export function hotp(key: Buffer, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The current TOTP code (RFC 6238: SHA-1, 30-second steps, 6 digits) of a base32 secret. */
export function totpCode(secret: string, now = Date.now()): string {
  return hotp(decodeBase32(secret), Math.floor(now / 1000 / PERIOD_SECONDS));
}
