import { MASKED_SECRET, Messages, normalizeTotpSecret, type MailUser } from '@rehearse/contract';
import type { ProjectSecretsRepo } from '../crypto/project-secrets.repo.js';
import { decryptSecret, encryptSecret } from '../crypto/secrets.js';
import { isUniqueViolation } from '../db/database.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { MailUserRow, MailUsersRepo } from './mail-users.repo.js';
import { isValidTotpSecret, totpCode } from './totp.js';

export interface MailUserInput {
  username: string;
  password: string;
  secretKey?: string | undefined;
}

function toDto(row: MailUserRow): MailUser {
  return {
    username: row.username,
    password: MASKED_SECRET,
    secretKey: row.secretKeyEncrypted ? MASKED_SECRET : null,
    hasSecretKey: row.secretKeyEncrypted !== null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Users a scenario signs in as; passwords and TOTP secrets encrypted with the project's data key. */
export class MailUsersService {
  constructor(
    private readonly users: MailUsersRepo,
    private readonly secrets: ProjectSecretsRepo,
  ) {}

  async list(projectId: string): Promise<MailUser[]> {
    return (await this.users.list(projectId)).map(toDto);
  }

  async add(projectId: string, input: MailUserInput): Promise<MailUser> {
    const key = await this.secrets.dataKey(projectId);
    try {
      const row = await this.users.insert({
        projectId,
        username: input.username,
        passwordEncrypted: encryptSecret(input.password, key),
        secretKeyEncrypted: this.encryptSecretKey(input.secretKey, key),
      });
      return toDto(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(Messages.mailUserExists);
      throw error;
    }
  }

  /** Updates a user found by `previousUsername`; masked values keep what is stored. */
  async update(projectId: string, previousUsername: string, input: MailUserInput): Promise<MailUser> {
    const existing = await this.users.find(projectId, previousUsername);
    if (!existing) throw notFound(Messages.mailUserNotFound);
    const key = await this.secrets.dataKey(projectId);
    const secretKey = input.secretKey?.trim();
    try {
      const row = await this.users.update(existing.id, {
        username: input.username,
        passwordEncrypted: input.password === MASKED_SECRET ? existing.passwordEncrypted : encryptSecret(input.password, key),
        secretKeyEncrypted: secretKey === MASKED_SECRET ? existing.secretKeyEncrypted : this.encryptSecretKey(input.secretKey, key),
      });
      if (!row) throw notFound(Messages.mailUserNotFound);
      return toDto(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(Messages.mailUserExists);
      throw error;
    }
  }

  async delete(projectId: string, username: string): Promise<void> {
    if (!(await this.users.delete(projectId, username))) throw notFound(Messages.mailUserNotFound);
  }

  async totp(projectId: string, username: string): Promise<{ token: string; secondsLeft: number }> {
    const user = await this.users.find(projectId, username);
    if (!user) throw notFound(Messages.mailUserNotFound);
    if (!user.secretKeyEncrypted) throw badRequest(Messages.mailUserNoSecret);
    const { code, secondsLeft } = totpCode(decryptSecret(user.secretKeyEncrypted, await this.secrets.dataKey(projectId)));
    return { token: code, secondsLeft };
  }

  /** The secret key with its whitespace removed (spec 02 §5), or null when none was given. */
  private encryptSecretKey(secretKey: string | undefined, key: Buffer): string | null {
    const normalized = secretKey ? normalizeTotpSecret(secretKey) : '';
    if (!normalized) return null;
    if (!isValidTotpSecret(normalized)) throw badRequest(Messages.mailUserSecretInvalid);
    return encryptSecret(normalized, key);
  }
}
