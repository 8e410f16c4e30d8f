import { describe, expect, it } from 'vitest';
import { dueSlot } from './scheduler.js';

const at = (iso: string) => new Date(iso);
const weekly = { days: ['Mon', 'Wed'] as ('Mon' | 'Wed')[], time: '09:00', timeZone: 0, isBiweekly: false };
const setLongAgo = at('2026-01-01T00:00:00Z');

describe('due schedule slots', () => {
  it('fires a slot once it has passed, within the lookback, on the schedule’s days', () => {
    // 2026-11-16 is a Monday.
    expect(dueSlot(weekly, at('2026-11-16T09:00:30Z'), setLongAgo)).toEqual(at('2026-11-16T09:00:00Z'));
    expect(dueSlot(weekly, at('2026-11-16T08:59:59Z'), setLongAgo)).toBeUndefined();
    expect(dueSlot(weekly, at('2026-11-16T09:06:00Z'), setLongAgo)).toBeUndefined();
    expect(dueSlot(weekly, at('2026-11-17T09:01:00Z'), setLongAgo)).toBeUndefined();
  });

  it('reads the time in the schedule’s offset, quarter and half hours included', () => {
    // 01:45 in India (+5.5) is 20:15 UTC the day before: Monday 01:45 IST = Sunday 20:15 UTC.
    const india = { days: ['Mon'] as 'Mon'[], time: '01:45', timeZone: 5.5, isBiweekly: false };
    expect(dueSlot(india, at('2026-11-15T20:16:00Z'), setLongAgo)).toEqual(at('2026-11-15T20:15:00Z'));
    expect(dueSlot(india, at('2026-11-16T20:16:00Z'), setLongAgo)).toBeUndefined();
    const central = { days: ['Mon'] as 'Mon'[], time: '23:30', timeZone: -6, isBiweekly: false };
    expect(dueSlot(central, at('2026-11-17T05:31:00Z'), setLongAgo)).toEqual(at('2026-11-17T05:30:00Z'));
  });

  it('fires biweekly schedules in weeks of the same parity as the week they were set in', () => {
    const biweekly = { ...weekly, isBiweekly: true };
    const setThursday = at('2026-11-12T12:00:00Z'); // the week of Monday 2026-11-09
    expect(dueSlot(biweekly, at('2026-11-16T09:01:00Z'), setThursday)).toBeUndefined();
    expect(dueSlot(biweekly, at('2026-11-23T09:01:00Z'), setThursday)).toEqual(at('2026-11-23T09:00:00Z'));
    expect(dueSlot(biweekly, at('2026-11-30T09:01:00Z'), setThursday)).toBeUndefined();
  });

  it('never fires a slot from before the schedule was set', () => {
    expect(dueSlot(weekly, at('2026-11-16T09:01:00Z'), at('2026-11-16T09:00:30Z'))).toBeUndefined();
  });
});
