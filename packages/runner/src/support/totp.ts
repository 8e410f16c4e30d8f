import { isBase32, normalizeTotpSecret } from '@rehearse/contract';
import { createGuardrails, generateSync } from 'otplib';

/** Authenticator apps hand out 80-bit secrets; otplib's default floor of 128 bits would refuse them. */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

/**
 * The current TOTP code (RFC 6238: SHA-1, 30-second steps, 6 digits) of a base32 secret, written
 * as authenticator apps print it (spaces, dashes, case and padding ignored). otplib computes it,
 * as it does on the server's mail/authenticator page.
 */
export function totpCode(secret: string, now = Date.now()): string {
  const base32 = normalizeTotpSecret(secret);
  if (!isBase32(base32)) throw new Error('A TOTP secret must be base32 (letters A-Z and digits 2-7)');
  return generateSync({ secret: base32, epoch: Math.floor(now / 1000), guardrails });
}
