import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { instanceSettings } from '../db/schema.js';

/** SQL for instance_settings: values an administrator saved at run time, by key. */
export class InstanceSettingsRepo {
  constructor(private readonly db: Db) {}

  /** Every saved value by key. */
  async all(): Promise<Map<string, unknown>> {
    const rows = await this.db.select({ key: instanceSettings.key, value: instanceSettings.value }).from(instanceSettings);
    return new Map(rows.map((row) => [row.key, row.value]));
  }

  async set(values: Record<string, unknown>): Promise<void> {
    const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: new Date() }));
    if (rows.length === 0) return;
    await this.db
      .insert(instanceSettings)
      .values(rows)
      .onConflictDoUpdate({ target: instanceSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });
  }
}
