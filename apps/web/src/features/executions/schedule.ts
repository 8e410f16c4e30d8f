import { TIME_ZONES, WEEK_DAYS, zoneOffsetMs, type Schedule, type WeekDay } from '@rehearse/contract';

/** Spec 02 §4 Repeat options. */
export type Repeat = 'daily' | 'weekdays' | 'weekly' | 'biweekly';
export const REPEAT_OPTIONS: { value: Repeat; label: string }[] = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekdays', label: 'Every weekday' },
  { value: 'weekly', label: 'Every week' },
  { value: 'biweekly', label: 'Every 2 weeks' },
];

/** Spec 02 §9: times in 15-minute steps, 'HH:mm'. */
export const SCHEDULE_TIMES: string[] = Array.from(
  { length: 96 },
  (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
);

/** Spec 02 §4: the current weekday, weekly, not biweekly, 01:45, offset 0. */
export function defaultSchedule(now: Date = new Date()): Schedule {
  const day = WEEK_DAYS[(now.getDay() + 6) % 7]!;
  return { days: [day], isBiweekly: false, time: '01:45', timeZone: 0 };
}

export function repeatOf(schedule: Schedule): Repeat {
  if (schedule.days.length === 7) return 'daily';
  if (!schedule.isBiweekly && schedule.days.length === 5 && WEEK_DAYS.slice(0, 5).every((d) => schedule.days.includes(d)))
    return 'weekdays';
  return schedule.isBiweekly ? 'biweekly' : 'weekly';
}

/** Applies a Repeat choice: every day sets all 7 days, every weekday Mon-Fri, 2 weeks sets isBiweekly. */
export function withRepeat(schedule: Schedule, repeat: Repeat): Schedule {
  if (repeat === 'daily') return { ...schedule, days: [...WEEK_DAYS], isBiweekly: false };
  if (repeat === 'weekdays') return { ...schedule, days: WEEK_DAYS.slice(0, 5), isBiweekly: false };
  const days = schedule.days.length === 7 ? [schedule.days[0]!] : schedule.days;
  return { ...schedule, days, isBiweekly: repeat === 'biweekly' };
}

/** Toggles a day, keeping week order (spec 02 §5); all 7 days switch Repeat to Every day. */
export function withDay(schedule: Schedule, day: WeekDay): Schedule {
  const has = schedule.days.includes(day);
  const days = WEEK_DAYS.filter((d) => (d === day ? !has : schedule.days.includes(d)));
  return { ...schedule, days, isBiweekly: days.length === 7 ? false : schedule.isBiweekly };
}

/** One choice of the planner's time-zone list: `offset:<hours>` for a fixed offset, else an IANA name. */
export interface ZoneChoice {
  value: string;
  label: string;
}

const offsetValue = (hours: number) => `offset:${hours}`;
const offsetLabel = (hours: number) => `${hours >= 0 ? '+' : ''}${hours}`;

/**
 * Spec 02 §9's nine zones in its order (and UTC, the default offset 0), then every IANA zone the
 * browser knows. A schedule saved through the API with another offset gets a choice of its own,
 * so the list shows what is stored.
 */
export function zoneChoices(schedule: Schedule): ZoneChoice[] {
  const fixed = TIME_ZONES.map((zone) => ({ value: offsetValue(zone.offset), label: `${zone.label} (${offsetLabel(zone.offset)})` }));
  const current = zoneChoiceOf(schedule);
  const stray =
    !schedule.ianaTimeZone && !fixed.some((choice) => choice.value === current)
      ? [{ value: current, label: `UTC${offsetLabel(schedule.timeZone)}` }]
      : [];
  const iana = Intl.supportedValuesOf('timeZone');
  // Zones this browser names differently (an alias stored by another one) stay choosable.
  if (schedule.ianaTimeZone && !iana.includes(schedule.ianaTimeZone)) iana.unshift(schedule.ianaTimeZone);
  return [...fixed, ...stray, ...iana.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))];
}

/** The choice a schedule's zone is shown as. */
export function zoneChoiceOf(schedule: Schedule): string {
  return schedule.ianaTimeZone ?? offsetValue(schedule.timeZone);
}

/**
 * Applies a time-zone choice. An IANA zone is stored by name (the server reads it with its daylight
 * saving) beside its offset at `now`, the spec's numeric timeZone; a fixed offset drops the name.
 */
export function withZone(schedule: Schedule, choice: string, now: Date = new Date()): Schedule {
  const { days, isBiweekly, time } = schedule;
  if (choice.startsWith('offset:')) return { days, isBiweekly, time, timeZone: Number(choice.slice('offset:'.length)) };
  const quarterHours = Math.round(zoneOffsetMs(choice, now.getTime()) / 900_000);
  return { days, isBiweekly, time, timeZone: quarterHours / 4, ianaTimeZone: choice };
}
