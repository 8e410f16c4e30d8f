import { eq } from 'drizzle-orm';
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

  async delete(id: string): Promise<void> {
    await this.db.delete(workerTokens).where(eq(workerTokens.id, id));
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
