import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { workerTokens } from '../db/schema.js';

/** SQL for the worker_tokens table: tokens are kept as digests only. */
export class WorkerTokensRepo {
  constructor(private readonly db: Db) {}

  async insert(name: string, tokenHash: string): Promise<string> {
    const [row] = await this.db.insert(workerTokens).values({ name, tokenHash }).returning({ id: workerTokens.id });
    if (!row) throw new Error('insert into worker_tokens returned nothing');
    return row.id;
  }

  /** Keeps a digest unless it is there already (two replicas registering the same token at once). */
  async insertIfAbsent(name: string, tokenHash: string): Promise<void> {
    await this.db.insert(workerTokens).values({ name, tokenHash }).onConflictDoNothing({ target: workerTokens.tokenHash });
  }

  /** False when there was no such token. */
  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(workerTokens).where(eq(workerTokens.id, id)).returning({ id: workerTokens.id });
    return rows.length === 1;
  }

  async list(): Promise<{ id: string; name: string; createdAt: Date; lastSeenAt: Date | null }[]> {
    return this.db
      .select({ id: workerTokens.id, name: workerTokens.name, createdAt: workerTokens.createdAt, lastSeenAt: workerTokens.lastSeenAt })
      .from(workerTokens)
      .orderBy(asc(workerTokens.createdAt), asc(workerTokens.id));
  }

  async findById(id: string): Promise<{ id: string; name: string; createdAt: Date; lastSeenAt: Date | null } | undefined> {
    const [row] = await this.db
      .select({ id: workerTokens.id, name: workerTokens.name, createdAt: workerTokens.createdAt, lastSeenAt: workerTokens.lastSeenAt })
      .from(workerTokens)
      .where(eq(workerTokens.id, id));
    return row;
  }

  async findByHash(tokenHash: string): Promise<{ id: string; name: string } | undefined> {
    const [row] = await this.db
      .select({ id: workerTokens.id, name: workerTokens.name })
      .from(workerTokens)
      .where(eq(workerTokens.tokenHash, tokenHash));
    return row;
  }

  async markSeen(id: string, at: Date): Promise<void> {
    await this.db.update(workerTokens).set({ lastSeenAt: at }).where(eq(workerTokens.id, id));
  }
}
