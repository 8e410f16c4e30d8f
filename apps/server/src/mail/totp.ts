import { isBase32, normalizeTotpSecret } from '@rehearse/contract';
import { createGuardrails, generateSync } from 'otplib';

/** Authenticator apps hand out 80-bit secrets; otplib's default floor of 128 bits would refuse them. */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });
const PERIOD_SECONDS = 30;

/** Whether a secret, written as apps print it (normalizeTotpSecret), gives codes: base32 of at least 80 bits. */
export function isValidTotpSecret(secret: string): boolean {
  const normalized = normalizeTotpSecret(secret);
  if (!isBase32(normalized)) return false;
  try {
    generateSync({ secret: normalized, guardrails });
    return true;
  } catch {
    return false;
  }
}

/** The current 6-digit code and how long it stays valid. */
export function totpCode(secret: string, now = Date.now()): { code: string; secondsLeft: number } {
  const epoch = Math.floor(now / 1000);
  return {
    code: generateSync({ secret: normalizeTotpSecret(secret), epoch, guardrails }),
    secondsLeft: PERIOD_SECONDS - (epoch % PERIOD_SECONDS),
  };
}
