import { Messages, type AdminWorkerToken, type ConnectedAgent } from '@rehearse/contract';
import { digestToken, newToken } from '../crypto/tokens.js';
import { unauthorized } from '../http/errors.js';
import type { WorkerPresenceRepo } from './worker-presence.repo.js';
import type { WorkerTokensRepo } from './worker-tokens.repo.js';

/** Worker tokens start with this, so a leaked one is recognisable and never mistaken for a session. */
export const WORKER_TOKEN_PREFIX = 'rhw_';

/** Refreshing last_seen_at on every long-poll would be a write per request; once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

/** A thread whose last call is older than this is not connected: claims long-poll at most 30 s. */
const CONNECTED_WITHIN_MS = 60_000;
/** A thread's presence is written when it turns busy or idle, else at most this often. */
const PRESENCE_EVERY_MS = 15_000;
/** Presence rows older than this are deleted when the list is read (agents restart with new ids). */
const FORGET_PRESENCE_AFTER_MS = 86_400_000;

/**
 * The id the execution engine knows an agent's thread by: its token's id and the id the agent
 * chose. Agents pick their own ids, so without the token's a holder of one token could renew or
 * finish a job another token's agent claimed by sending that agent's id.
 */
export function jobHolderId(tokenId: string, workerId: string): string {
  return `${tokenId}:${workerId}`;
}

/** Tokens of worker agents: made by an instance administrator, kept as SHA-256 digests only. */
export class WorkerTokens {
  private readonly touched = new Map<string, number>();
  private readonly presence = new Map<string, { busy: boolean; at: number }>();

  constructor(
    private readonly tokens: WorkerTokensRepo,
    private readonly presenceRepo: WorkerPresenceRepo,
  ) {}

  async create(name: string): Promise<{ id: string; token: string }> {
    const token = newToken(WORKER_TOKEN_PREFIX);
    const id = await this.tokens.insert(name, digestToken(token));
    return { id, token };
  }

  /**
   * Accepts a token the operator chose (REHEARSE_WORKER_TOKEN) under `name`; idempotent, so every
   * API replica may register it at start.
   */
  async register(name: string, token: string): Promise<void> {
    await this.tokens.insertIfAbsent(name, digestToken(token));
  }

  /** Revokes a token (its agents are refused from their next call); false when there was none. */
  async delete(id: string): Promise<boolean> {
    return this.tokens.delete(id);
  }

  async list(): Promise<AdminWorkerToken[]> {
    return (await this.tokens.list()).map(toWorkerTokenDto);
  }

  async find(id: string): Promise<AdminWorkerToken | undefined> {
    const row = await this.tokens.findById(id);
    return row && toWorkerTokenDto(row);
  }

  /**
   * A worker thread called (claim, heartbeat, finish): remembered for the agents list. Written when
   * it turns busy or idle, else at most every 15 s, so a heartbeat every 2 s is not a write each.
   */
  async seen(tokenId: string, workerId: string, busy: boolean): Promise<void> {
    const now = Date.now();
    const last = this.presence.get(workerId);
    if (last && last.busy === busy && now - last.at < PRESENCE_EVERY_MS) return;
    this.presence.set(workerId, { busy, at: now });
    if (this.presence.size > 10_000) this.presence.clear();
    await this.presenceRepo.seen(workerId, tokenId, busy, new Date(now));
  }

  /**
   * Agents connected now: the threads seen in the last minute, grouped by token and host (a
   * worker id is `host:thread/pid:suffix`, chosen by `rehearse worker`).
   */
  async connectedAgents(now = new Date()): Promise<ConnectedAgent[]> {
    await this.presenceRepo.forgetBefore(new Date(now.getTime() - FORGET_PRESENCE_AFTER_MS));
    const threads = await this.presenceRepo.seenSince(new Date(now.getTime() - CONNECTED_WITHIN_MS));
    const agents = new Map<string, ConnectedAgent>();
    for (const thread of threads) {
      const host = thread.workerId.split(':')[0] || thread.workerId;
      const key = `${thread.tokenId} ${host}`;
      const agent = agents.get(key) ?? {
        tokenId: thread.tokenId,
        tokenName: thread.tokenName,
        host,
        threads: 0,
        busyThreads: 0,
        lastHeartbeatAt: thread.lastSeenAt.toISOString(),
      };
      agent.threads += 1;
      if (thread.busy) agent.busyThreads += 1;
      if (thread.lastSeenAt.toISOString() > agent.lastHeartbeatAt) agent.lastHeartbeatAt = thread.lastSeenAt.toISOString();
      agents.set(key, agent);
    }
    return [...agents.values()];
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

function toWorkerTokenDto(row: { id: string; name: string; createdAt: Date; lastSeenAt: Date | null }): AdminWorkerToken {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastSeenAt: row.lastSeenAt?.toISOString() ?? null };
}
