/**
 * IANA time zones for schedules, read through the platform's Intl (no Node, no zone database of
 * our own), so the server's fire times and the planner's offsets come from the same rules,
 * daylight saving included.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, found);
  }
  return found;
}

/** Whether `zone` is an IANA zone name this platform knows ('Europe/Paris', 'UTC'); offsets like '+05:30' are not. */
export function isIanaTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) || zone.length > 64) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instantMs`, in milliseconds (east positive). */
export function zoneOffsetMs(zone: string, instantMs: number): number {
  const parts = formatter(zone).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((found) => found.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - (instantMs - (((instantMs % 1000) + 1000) % 1000));
}

/**
 * The instant at which the zone's clocks read `localMs` (a wall-clock time written as if it were
 * UTC). A time that happens twice (clocks going back) is its first occurrence; a time that never
 * happens (clocks going forward) is read with the offset before the change, so it lands just after
 * the gap (02:30 on a spring-forward night in New York is 03:30 daylight time).
 */
export function zonedTimeToUtc(localMs: number, zone: string): number {
  const before = zoneOffsetMs(zone, localMs - 86_400_000);
  const after = zoneOffsetMs(zone, localMs + 86_400_000);
  const valid = [...new Set([before, after])]
    .map((offset) => localMs - offset)
    .filter((instant) => localMs - zoneOffsetMs(zone, instant) === instant)
    .sort((a, b) => a - b);
  return valid[0] ?? localMs - before;
}
