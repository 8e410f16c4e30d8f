import { SCHEDULE_QUEUE } from '../executions/scheduler.js';
import { bossSchemaOf } from '../jobs/job-queue.js';
import type { TestApp } from './test-app.js';

/** A schedule slot that fired, as its job in pg-boss's queue (or archive) records it. */
export interface FiredSlotRow {
  slot: string;
  fired_by: string;
}

/** The slots of an execution's schedule that fired, whichever server fired them, oldest first. */
export async function firedSlots(test: Pick<TestApp, 'database' | 'schemaName'>, executionId: string): Promise<FiredSlotRow[]> {
  const boss = bossSchemaOf(test.schemaName ?? 'public');
  const of = (table: string) =>
    `select data->>'slot' as slot, data->>'firedBy' as fired_by from ${boss}.${table}
     where name = '${SCHEDULE_QUEUE}' and data->>'executionId' = '${executionId}'`;
  return test.database.rows<FiredSlotRow>(`${of('job')} union all ${of('archive')} order by slot`);
}
