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

  it('reads the time in an IANA zone with its daylight saving, where a fixed offset does not move', () => {
    // New York springs forward on Sunday 2026-03-08: Monday 09:00 is 14:00 UTC before, 13:00 after.
    const newYork = { days: ['Mon'] as 'Mon'[], time: '09:00', timeZone: -5, ianaTimeZone: 'America/New_York', isBiweekly: false };
    expect(dueSlot(newYork, at('2026-03-02T14:01:00Z'), setLongAgo)).toEqual(at('2026-03-02T14:00:00Z'));
    expect(dueSlot(newYork, at('2026-03-09T13:01:00Z'), setLongAgo)).toEqual(at('2026-03-09T13:00:00Z'));
    expect(dueSlot(newYork, at('2026-03-09T14:01:00Z'), setLongAgo)).toBeUndefined();
    // A schedule saved with the offset alone (before IANA zones) keeps firing at it.
    const { ianaTimeZone: _, ...offsetOnly } = newYork;
    expect(dueSlot(offsetOnly, at('2026-03-09T14:01:00Z'), setLongAgo)).toEqual(at('2026-03-09T14:00:00Z'));
    // Back to standard time on Sunday 2026-11-01: Monday 09:00 is 14:00 UTC again.
    expect(dueSlot(newYork, at('2026-11-02T14:01:00Z'), setLongAgo)).toEqual(at('2026-11-02T14:00:00Z'));
  });

  it('fires a time the clocks skip just after the gap, and a time they repeat once', () => {
    // 02:30 never happens on 2026-03-08 in New York (02:00 EST becomes 03:00 EDT): it fires at 03:30 EDT.
    const skipped = { days: ['Sun'] as 'Sun'[], time: '02:30', timeZone: -5, ianaTimeZone: 'America/New_York', isBiweekly: false };
    expect(dueSlot(skipped, at('2026-03-08T07:31:00Z'), setLongAgo)).toEqual(at('2026-03-08T07:30:00Z'));
    // 01:30 happens twice on 2026-11-01 (EDT, then EST): only the first fires.
    const repeated = { ...skipped, time: '01:30' };
    expect(dueSlot(repeated, at('2026-11-01T05:31:00Z'), setLongAgo)).toEqual(at('2026-11-01T05:30:00Z'));
    expect(dueSlot(repeated, at('2026-11-01T06:31:00Z'), setLongAgo)).toBeUndefined();
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
