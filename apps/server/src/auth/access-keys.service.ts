import type { AccessKey } from '@rehearse/contract';
import { digestToken, newToken, TokenPrefix } from '../crypto/tokens.js';
import type { AccessKeyRow, AccessKeysRepo } from './access-keys.repo.js';

function toDto(row: AccessKeyRow, token: string): AccessKey {
  return {
    id: row.id,
    name: row.name,
    token,
    projectId: row.projectId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Project access tokens: shown whole once, stored as digests, listed masked. */
export class AccessKeysService {
  constructor(private readonly keys: AccessKeysRepo) {}

  async list(projectId: string): Promise<AccessKey[]> {
    const rows = await this.keys.listForProject(projectId);
    return rows.map((row) => toDto(row, `${TokenPrefix.accessKey}••••••••${row.tokenHint}`));
  }

  async create(projectId: string, createdBy: string, name: string): Promise<AccessKey> {
    const token = newToken(TokenPrefix.accessKey);
    const row = await this.keys.insert({
      projectId,
      createdBy,
      name,
      tokenHash: digestToken(token),
      tokenHint: token.slice(-4),
    });
    return toDto(row, token);
  }

  /** The router resolved the key's project and checked membership before this runs. */
  async delete(id: string): Promise<void> {
    await this.keys.delete(id);
  }
}
