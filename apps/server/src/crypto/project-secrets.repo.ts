import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { projectSecrets } from '../db/schema.js';
import { decryptSecret, encryptSecret } from './secrets.js';

export type ProjectSecretsRow = typeof projectSecrets.$inferSelect;

/** Per-project keys and credentials, always encrypted under the server key. */
export class ProjectSecretsRepo {
  constructor(
    private readonly db: Db,
    private readonly serverKey: Buffer,
  ) {}

  async get(projectId: string): Promise<ProjectSecretsRow | undefined> {
    const [row] = await this.db.select().from(projectSecrets).where(eq(projectSecrets.projectId, projectId));
    return row;
  }

  /** The project's data key, created on first use; concurrent first uses agree on one key. */
  async dataKey(projectId: string): Promise<Buffer> {
    const existing = await this.get(projectId);
    if (existing?.wrappedDataKey) return Buffer.from(decryptSecret(existing.wrappedDataKey, this.serverKey), 'base64');
    const wrapped = encryptSecret(randomBytes(32).toString('base64'), this.serverKey);
    await this.db
      .insert(projectSecrets)
      .values({ projectId, wrappedDataKey: wrapped })
      .onConflictDoNothing({ target: projectSecrets.projectId });
    const row = await this.get(projectId);
    if (!row?.wrappedDataKey) {
      await this.db.update(projectSecrets).set({ wrappedDataKey: wrapped }).where(eq(projectSecrets.projectId, projectId));
      return this.dataKey(projectId);
    }
    return Buffer.from(decryptSecret(row.wrappedDataKey, this.serverKey), 'base64');
  }

  async setRepository(projectId: string, repo: { username: string; token: string; url: string; configuredBy: string }): Promise<void> {
    const values = {
      repoUsername: repo.username,
      repoTokenEncrypted: encryptSecret(repo.token, this.serverKey),
      repoUrl: repo.url,
      repoConfiguredBy: repo.configuredBy,
      repoConfiguredAt: new Date(),
    };
    await this.db
      .insert(projectSecrets)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: projectSecrets.projectId, set: values });
  }

  /** Decrypted repository credentials, for the git door only. */
  async repository(projectId: string): Promise<{ username: string; token: string; url: string } | null> {
    const row = await this.get(projectId);
    if (!row?.repoUrl || !row.repoTokenEncrypted || !row.repoUsername) return null;
    return { username: row.repoUsername, token: decryptSecret(row.repoTokenEncrypted, this.serverKey), url: row.repoUrl };
  }
}
