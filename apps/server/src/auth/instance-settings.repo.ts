import { inArray, sql } from 'drizzle-orm';
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

  /** Saves `values` by key and deletes the saved values of `cleared`, all or nothing. */
  async change(values: Record<string, unknown>, cleared: string[]): Promise<void> {
    const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: new Date() }));
    if (rows.length === 0 && cleared.length === 0) return;
    await this.db.transaction(async (tx) => {
      if (rows.length > 0) {
        await tx
          .insert(instanceSettings)
          .values(rows)
          .onConflictDoUpdate({ target: instanceSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });
      }
      if (cleared.length > 0) await tx.delete(instanceSettings).where(inArray(instanceSettings.key, cleared));
    });
  }
}
