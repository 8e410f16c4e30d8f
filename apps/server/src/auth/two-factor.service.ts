import { createHash, randomBytes } from 'node:crypto';
import { Messages } from '@rehearse/contract';
import { generateSecret } from 'otplib';
import QRCode from 'qrcode';
import { decryptSecret, encryptSecret } from '../crypto/secrets.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import { totpCode } from '../mail/totp.js';
import type { UsersRepo } from './users.repo.js';
import type { UserRow } from '../db/rows.js';

const PERIOD_MS = 30_000;
/** Codes one step either side of now are accepted: a phone's clock may drift by a few seconds. */
const STEPS_EITHER_SIDE = 1;
const RECOVERY_CODES = 10;

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Ten characters of Crockford-like base32, shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstvwxyz23456789';
  const bytes = randomBytes(10);
  const text = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * Two-factor sign-in for password accounts (DESIGN §9): a TOTP secret (RFC 6238, 6 digits, 30 s)
 * kept encrypted with the server's key, enrolled through a QR code and confirmed by a first code,
 * with ten single-use recovery codes (kept as digests, shown once). Each code is good once: the
 * time step it matched is recorded and no earlier or equal step is accepted again. Single sign-on
 * leaves second factors to the identity provider. An instance administrator can turn it off for a
 * user who lost their phone and their codes.
 */
export class TwoFactorService {
  constructor(
    private readonly users: UsersRepo,
    private readonly secretKey: Buffer,
  ) {}

  status(user: UserRow): { enabled: boolean; recoveryCodesLeft: number } {
    return { enabled: user.totpSecret !== null, recoveryCodesLeft: user.totpSecret ? user.totpRecoveryCodes.length : 0 };
  }

  /** A new secret to scan (replacing any earlier one not confirmed), as text, otpauth URL and QR code. */
  async begin(user: UserRow): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
    if (user.totpSecret) throw conflict(Messages.twoFactorAlreadyOn);
    const secret = generateSecret();
    await this.users.setTotpPending(user.id, encryptSecret(secret, this.secretKey));
    const label = encodeURIComponent(`Rehearse:${user.email}`);
    const otpauthUrl = `otpauth://totp/${label}?secret=${secret}&issuer=Rehearse&algorithm=SHA1&digits=6&period=30`;
    const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Confirms the pending secret with a code from the app: two-factor is on; answers the recovery codes (shown once). */
  async enable(user: UserRow, code: string, now = Date.now()): Promise<string[]> {
    if (user.totpSecret) throw conflict(Messages.twoFactorAlreadyOn);
    if (!user.totpPendingSecret) throw badRequest(Messages.twoFactorNotStarted);
    const step = matchingStep(decryptSecret(user.totpPendingSecret, this.secretKey), code, now);
    if (step === undefined) throw badRequest(Messages.twoFactorInvalid);
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.users.enableTotp(
      user.id,
      user.totpPendingSecret,
      codes.map((one) => digest(normalizeRecoveryCode(one))),
      step,
    );
    return codes;
  }

  /** Turns it off with a current code or a recovery code (a session alone is not enough). */
  async disable(user: UserRow, code: string, now = Date.now()): Promise<void> {
    if (!user.totpSecret) throw badRequest(Messages.twoFactorNotOn);
    if (!(await this.accepts(user, code, now))) throw badRequest(Messages.twoFactorInvalid);
    await this.users.clearTotp(user.id);
  }

  /** An administrator's reset; false when there is no such user. */
  reset(userId: string): Promise<boolean> {
    return this.users.clearTotp(userId);
  }

  /**
   * Sign-in's second step, after the right password: nothing to do without two-factor; otherwise
   * a 401 asking for the code when none came, or saying it is wrong (the attempt then stays
   * counted as a failed sign-in).
   */
  async check(user: UserRow, code: string | undefined, now = Date.now()): Promise<void> {
    if (!user.totpSecret) return;
    if (!code?.trim()) throw new AppError(401, Messages.twoFactorRequired);
    if (!(await this.accepts(user, code, now))) throw new AppError(401, Messages.twoFactorInvalid);
  }

  private async accepts(user: UserRow, code: string, now: number): Promise<boolean> {
    const step = matchingStep(decryptSecret(user.totpSecret!, this.secretKey), code, now);
    if (step !== undefined) return this.users.acceptTotpStep(user.id, step);
    const typed = normalizeRecoveryCode(code);
    return typed.length === 10 && this.users.useRecoveryCode(user.id, digest(typed));
  }
}

/** The time step whose code `code` is, within one step of now; undefined when none matches. */
function matchingStep(secret: string, code: string, now: number): number | undefined {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return undefined;
  const current = Math.floor(now / PERIOD_MS);
  for (let offset = -STEPS_EITHER_SIDE; offset <= STEPS_EITHER_SIDE; offset++) {
    const step = current + offset;
    if (totpCode(secret, step * PERIOD_MS).code === typed) return step;
  }
  return undefined;
}
