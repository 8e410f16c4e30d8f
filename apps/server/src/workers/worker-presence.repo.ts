import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { workerPresence, workerTokens } from '../db/schema.js';

/** SQL for worker_presence: which worker threads called lately, with which token, busy or idle. */
export class WorkerPresenceRepo {
  constructor(private readonly db: Db) {}

  async seen(workerId: string, tokenId: string, busy: boolean, at: Date): Promise<void> {
    await this.db
      .insert(workerPresence)
      .values({ workerId, tokenId, busy, lastSeenAt: at })
      .onConflictDoUpdate({ target: workerPresence.workerId, set: { tokenId, busy, lastSeenAt: at } });
  }

  /** Threads seen since `since`, with their token's name. */
  async seenSince(since: Date): Promise<{ workerId: string; tokenId: string; tokenName: string; lastSeenAt: Date; busy: boolean }[]> {
    return this.db
      .select({
        workerId: workerPresence.workerId,
        tokenId: workerPresence.tokenId,
        tokenName: workerTokens.name,
        lastSeenAt: workerPresence.lastSeenAt,
        busy: workerPresence.busy,
      })
      .from(workerPresence)
      .innerJoin(workerTokens, eq(workerTokens.id, workerPresence.tokenId))
      .where(gte(workerPresence.lastSeenAt, since))
      .orderBy(sql`${workerTokens.name}`, workerPresence.workerId);
  }

  /** Forgets threads not seen since `before` (each restart of an agent brings new worker ids). */
  async forgetBefore(before: Date): Promise<void> {
    await this.db.delete(workerPresence).where(and(lt(workerPresence.lastSeenAt, before)));
  }
}
