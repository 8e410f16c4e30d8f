import { lt } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { executionScheduleFires } from '../db/schema.js';

/** SQL for execution_schedule_fires: the record that a schedule slot fired, once across every server. */
export class ScheduleFiresRepo {
  constructor(private readonly db: Db) {}

  /**
   * Records that `serverId` fires the execution's slot; false when another server (or an earlier
   * tick) already did. The primary key (execution, slot) lets exactly one insert win.
   */
  async claimSlot(executionId: string, slot: Date, serverId: string): Promise<boolean> {
    const won = await this.db
      .insert(executionScheduleFires)
      .values({ executionId, slot, firedBy: serverId })
      .onConflictDoNothing()
      .returning({ slot: executionScheduleFires.slot });
    return won.length > 0;
  }

  /** Forgets the slots before `cutoff`; answers how many. */
  async deleteSlotsBefore(cutoff: Date): Promise<number> {
    const deleted = await this.db
      .delete(executionScheduleFires)
      .where(lt(executionScheduleFires.slot, cutoff))
      .returning({ slot: executionScheduleFires.slot });
    return deleted.length;
  }
}
