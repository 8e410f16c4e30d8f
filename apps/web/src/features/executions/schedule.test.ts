import { scheduleText, type Schedule } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import {
  defaultSchedule,
  REPEAT_OPTIONS,
  repeatOf,
  SCHEDULE_TIMES,
  withDay,
  withRepeat,
  withZone,
  zoneChoiceOf,
  zoneChoices,
} from './schedule';

const weekly = (days: Schedule['days'], isBiweekly = false): Schedule => ({ days, isBiweekly, time: '09:30', timeZone: 0 });

describe('schedule defaults and choices (spec 02 §4, §9)', () => {
  it('defaults to the current weekday, weekly, not biweekly, at 01:45, offset 0', () => {
    // 2025-06-04 is a Wednesday.
    expect(defaultSchedule(new Date(2025, 5, 4, 12))).toEqual({ days: ['Wed'], isBiweekly: false, time: '01:45', timeZone: 0 });
  });

  it('offers Every day, Every weekday, Every week and Every 2 weeks', () => {
    expect(REPEAT_OPTIONS.map((option) => option.label)).toEqual(['Every day', 'Every weekday', 'Every week', 'Every 2 weeks']);
  });

  it('steps times by 15 minutes as HH:mm', () => {
    expect([SCHEDULE_TIMES.length, SCHEDULE_TIMES[0], SCHEDULE_TIMES[7], SCHEDULE_TIMES.at(-1)]).toEqual([96, '00:00', '01:45', '23:45']);
  });

  it('Every day sets all 7 days; Every weekday Mon-Fri; Every 2 weeks sets isBiweekly', () => {
    const start = weekly(['Tue']);
    expect(withRepeat(start, 'daily').days).toHaveLength(7);
    expect(withRepeat(start, 'weekdays').days).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
    expect(withRepeat(start, 'biweekly')).toMatchObject({ days: ['Tue'], isBiweekly: true });
  });

  it('choosing all 7 days switches Repeat to Every day; otherwise weekly or biweekly', () => {
    const sixDays = weekly(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], true);
    const all = withDay(sixDays, 'Sun');
    expect([repeatOf(all), all.isBiweekly]).toEqual(['daily', false]);
    expect(repeatOf(weekly(['Mon', 'Thu']))).toBe('weekly');
    expect(repeatOf(weekly(['Mon', 'Thu'], true))).toBe('biweekly');
  });

  it('keeps days in week order', () => {
    expect(withDay(weekly(['Fri']), 'Mon').days).toEqual(['Mon', 'Fri']);
  });
});

describe('schedule text (spec 02 §4)', () => {
  it("reads 'Every day at T', 'Every weekday at T', 'Every week on days at T' and 'Every 2 weeks on days at T'", () => {
    expect(scheduleText(withRepeat(weekly(['Mon']), 'daily'))).toBe('Every day at 09:30');
    expect(scheduleText(withRepeat(weekly(['Mon']), 'weekdays'))).toBe('Every weekday at 09:30');
    expect(scheduleText(weekly(['Mon', 'Wed']))).toBe('Every week on Mon, Wed at 09:30');
    expect(scheduleText(weekly(['Mon'], true))).toBe('Every 2 weeks on Mon at 09:30');
  });

  it('shows a dash without a schedule', () => {
    expect(scheduleText(null)).toBe('-');
  });
});

describe('schedule time zones (spec 02 §9, then every IANA zone)', () => {
  it("offers the spec's nine zones first, in its order, then UTC and every IANA zone", () => {
    const labels = zoneChoices(weekly(['Mon'])).map((choice) => choice.label);
    expect(labels.slice(0, 9)).toEqual([
      'Central ST (-6)',
      'Eastern ST (-5)',
      'Atlantic ST (-4)',
      'Afghanistan (+4.5)',
      'Pakistan (+5)',
      'India (+5.5)',
      'Moscow (+3)',
      'Iran (+3.5)',
      'Gulf (+4)',
    ]);
    expect(labels[9]).toBe('UTC (+0)');
    const values = zoneChoices(weekly(['Mon'])).map((choice) => choice.value);
    expect(values).toContain('America/New_York');
    expect(values).toContain('Europe/London');
    expect(values.length).toBe(10 + Intl.supportedValuesOf('timeZone').length);
  });

  it('stores an IANA zone by name beside its offset at the time, and a fixed offset without a name', () => {
    const winter = new Date('2026-01-15T12:00:00Z');
    const summer = new Date('2026-07-15T12:00:00Z');
    expect(withZone(weekly(['Mon']), 'America/New_York', winter)).toEqual({
      ...weekly(['Mon']),
      timeZone: -5,
      ianaTimeZone: 'America/New_York',
    });
    expect(withZone(weekly(['Mon']), 'America/New_York', summer)).toMatchObject({ timeZone: -4, ianaTimeZone: 'America/New_York' });
    const zoned = withZone(weekly(['Mon']), 'Asia/Kathmandu', winter);
    expect([zoned.timeZone, zoneChoiceOf(zoned)]).toEqual([5.75, 'Asia/Kathmandu']);
    const india = withZone(zoned, 'offset:5.5');
    expect(india).toEqual({ ...weekly(['Mon']), timeZone: 5.5 });
    expect(zoneChoiceOf(india)).toBe('offset:5.5');
  });

  it('keeps an offset saved through the API that the list does not name choosable', () => {
    const nepal = { ...weekly(['Mon']), timeZone: 5.75 };
    expect(zoneChoices(nepal).find((choice) => choice.value === zoneChoiceOf(nepal))?.label).toBe('UTC+5.75');
  });
});
