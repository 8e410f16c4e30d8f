import { StorageKeys } from '../../lib/storage-keys';

/**
 * Which clock report times are read on (issue 23): the viewer's own time zone, or India time, the
 * spec's rendering (spec 02 §9: "Report step dates are shown in an India time zone").
 */
export type ReportTimeZone = 'local' | 'ist';

const INDIA = 'Asia/Kolkata';

/** The remembered choice of this browser; the viewer's own zone until they pick India time. */
export function readReportTimeZone(): ReportTimeZone {
  try {
    return localStorage.getItem(StorageKeys.reportTimeZone) === 'ist' ? 'ist' : 'local';
  } catch {
    return 'local';
  }
}

export function saveReportTimeZone(zone: ReportTimeZone): void {
  try {
    localStorage.setItem(StorageKeys.reportTimeZone, zone);
  } catch {
    // Not remembered this time; the choice still applies.
  }
}

/** The viewer's IANA time zone (e.g. `Europe/Berlin`), for the option's label. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The parts of `at` on the chosen clock: 'MMM dd, yyyy', 'hh:mm:ss a' (spec 01 §9) and the zone's short name. */
function parts(at: Date, zone: ReportTimeZone, localZone: string | undefined) {
  const timeZone = zone === 'ist' ? INDIA : localZone;
  const formatted = new Intl.DateTimeFormat('en-US', {
    ...(timeZone ? { timeZone } : {}),
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: true,
    timeZoneName: 'short',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => formatted.find((p) => p.type === type)?.value ?? '';
  // The spec writes India time as IST; Intl's short name for it is "GMT+5:30".
  const zoneName = zone === 'ist' ? 'IST' : part('timeZoneName');
  return {
    date: `${part('month')} ${part('day')}, ${part('year')}`,
    time: `${part('hour')}:${part('minute')}:${part('second')} ${part('dayPeriod')}`,
    zoneName,
  };
}

/**
 * A step's or log entry's time on the chosen clock with its zone: '03:30:00 PM IST' (the spec's
 * rendering) or, in the viewer's zone, e.g. '12:00:00 PM GMT+2'. `localZone` is for tests.
 */
export function reportClockText(iso: string, zone: ReportTimeZone, localZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '-';
  const { time, zoneName } = parts(at, zone, localZone);
  return `${time} ${zoneName}`;
}

/** A report's start as date and time on the chosen clock, the time with its zone. */
export function reportDateTime(iso: string, zone: ReportTimeZone, localZone?: string): { date: string; time: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { date: '-', time: '-' };
  const { date, time, zoneName } = parts(at, zone, localZone);
  return { date, time: `${time} ${zoneName}` };
}
