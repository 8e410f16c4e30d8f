import { Messages, type AccessKey } from '@rehearse/contract';
import { digestToken, newToken, TokenPrefix } from '../crypto/tokens.js';
import { badRequest, forbidden } from '../http/errors.js';
import type { AccessKeysRepo } from './access-keys.repo.js';
import type { AccessKeyScope, Caller, ProjectAccess } from '../http/caller.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { AccessKeyRow } from '../db/rows.js';

function toDto(row: AccessKeyRow, token: string): AccessKey {
  return {
    id: row.id,
    name: row.name,
    token,
    projectId: row.projectId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    readsSecrets: row.readsSecrets,
  };
}

export interface AccessKeyOptions {
  /** Whether runs with the key get plain secret and totp test data; the server's own run keys do. */
  readsSecrets?: boolean;
  /** When the key stops authenticating; never when absent. */
  expiresAt?: Date | null;
  /** The key's id and token when the caller made them (a token it can make again from the id); random otherwise. */
  minted?: { id: string; token: string };
}

/** Project access tokens: shown whole once, stored as digests, listed masked. */
export class AccessKeysService {
  constructor(
    private readonly keys: AccessKeysRepo,
    /** Hears `accessKeyRevoked` (the key's live-update sockets must close). */
    private readonly events: DomainEventBus,
  ) {}

  async list(projectId: string): Promise<AccessKey[]> {
    const rows = await this.keys.listForProject(projectId);
    return rows.map((row) => toDto(row, `${TokenPrefix.accessKey}••••••••${row.tokenHint}`));
  }

  /** A key made by the server for a run (defaults: reads secrets, never expires unless told). */
  async create(projectId: string, createdBy: string, name: string, options: AccessKeyOptions = {}): Promise<AccessKey> {
    return this.insert(projectId, createdBy, name, null, options);
  }

  /**
   * A job's key (scope 'run'): acts for `createdBy` in this project only, and only for the calls a
   * run needs (auth/job-keys.ts); it reads the run's secrets, as the run must type them. Not listed
   * with the project's keys; whoever creates it deletes it when the job ends, and `expiresAt` (the
   * job's deadline) ends it even if nobody does.
   */
  async createJobKey(projectId: string, createdBy: string, name: string, expiresAt?: Date): Promise<AccessKey> {
    return this.insert(projectId, createdBy, name, 'run', { readsSecrets: true, expiresAt: expiresAt ?? null });
  }

  private async insert(
    projectId: string,
    createdBy: string,
    name: string,
    scope: AccessKeyScope | null,
    options: AccessKeyOptions,
  ): Promise<AccessKey> {
    const token = options.minted?.token ?? newToken(TokenPrefix.accessKey);
    const row = await this.keys.insert({
      ...(options.minted ? { id: options.minted.id } : {}),
      projectId,
      createdBy,
      name,
      tokenHash: digestToken(token),
      tokenHint: token.slice(-4),
      scope,
      readsSecrets: options.readsSecrets ?? true,
      expiresAt: options.expiresAt ?? null,
    });
    return toDto(row, token);
  }

  /**
   * A key a person asks for: only a signed-in person may (a key cannot mint keys that outlive
   * it), only a project admin's keys read plain secrets, and an expiry must lie in the future.
   */
  async createForCaller(
    caller: Caller,
    access: ProjectAccess,
    name: string,
    expiresAt: string | undefined,
    now = new Date(),
    minted?: AccessKeyOptions['minted'],
  ): Promise<AccessKey> {
    if (caller.kind !== 'session') throw forbidden(Messages.accessKeyManageNeedsSession);
    const expiry = expiresAt === undefined ? null : new Date(expiresAt);
    if (expiry && expiry.getTime() <= now.getTime()) throw badRequest(Messages.accessKeyExpiryInvalid);
    return this.create(access.project.id, caller.user.id, name, { readsSecrets: access.role === 'ADMIN', expiresAt: expiry, minted });
  }

  /** The newest of one person's keys whose names start with `prefix` (keys made for a single launch), if any. */
  async latestNamed(projectId: string, createdBy: string, prefix: string): Promise<AccessKeyRow | undefined> {
    const rows = (await this.keys.listForProject(projectId)).filter((row) => row.createdBy === createdBy && row.name.startsWith(prefix));
    return rows.at(-1);
  }

  /**
   * Revokes a key. The router resolved the key's project and checked membership; a member may
   * revoke only keys they created, never an admin's, and a key cannot revoke keys.
   */
  async revoke(caller: Caller, access: ProjectAccess, id: string): Promise<void> {
    if (caller.kind !== 'session') throw forbidden(Messages.accessKeyManageNeedsSession);
    const key = await this.keys.findById(id);
    if (key && access.role !== 'ADMIN' && key.createdBy !== caller.user.id) throw forbidden(Messages.accessKeyRevokeNotAllowed);
    await this.delete(id);
  }

  /** Deletes one person's expired keys whose names start with `prefix` (keys made for a single launch). */
  async removeExpired(projectId: string, createdBy: string, prefix: string, now = new Date()): Promise<void> {
    for (const row of await this.keys.listForProject(projectId)) {
      if (row.createdBy === createdBy && row.name.startsWith(prefix) && row.expiresAt && row.expiresAt <= now) await this.delete(row.id);
    }
  }

  /** The router resolved the key's project and checked membership before this runs. */
  async delete(id: string): Promise<void> {
    await this.keys.delete(id);
    await this.events.emit('accessKeyRevoked', { accessKeyId: id });
  }
}
