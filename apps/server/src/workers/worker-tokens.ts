import { Messages } from '@rehearse/contract';
import { digestToken, newToken } from '../crypto/tokens.js';
import { unauthorized } from '../http/errors.js';
import type { WorkerTokensRepo } from './worker-tokens.repo.js';

/** Worker tokens start with this, so a leaked one is recognisable and never mistaken for a session. */
export const WORKER_TOKEN_PREFIX = 'rhw_';

/** Refreshing last_seen_at on every long-poll would be a write per request; once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

/** Tokens of worker agents: created by an admin command, kept as SHA-256 digests only. */
export class WorkerTokens {
  private readonly touched = new Map<string, number>();

  constructor(private readonly tokens: WorkerTokensRepo) {}

  async create(name: string): Promise<{ id: string; token: string }> {
    const token = newToken(WORKER_TOKEN_PREFIX);
    const id = await this.tokens.insert(name, digestToken(token));
    return { id, token };
  }

  async delete(id: string): Promise<void> {
    await this.tokens.delete(id);
  }

  /** The token of a worker call's `Authorization: Bearer rhw_…` header, or a 401. */
  async authenticate(authorization: string | undefined): Promise<{ id: string; name: string }> {
    const token = /^Bearer\s+(rhw_\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw unauthorized(Messages.workerTokenInvalid);
    const row = await this.tokens.findByHash(digestToken(token));
    if (!row) throw unauthorized(Messages.workerTokenInvalid);
    const now = Date.now();
    if ((this.touched.get(row.id) ?? 0) < now - TOUCH_EVERY_MS) {
      this.touched.set(row.id, now);
      await this.tokens.markSeen(row.id, new Date(now));
    }
    return row;
  }
}
