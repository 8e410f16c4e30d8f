import { describe, expect, it } from 'vitest';
import { readReportTimeZone, reportClockText, reportDateTime } from './report-time';

// 10:00 UTC: 15:30 in India, 12:00 in Berlin (summer time), 06:00 in New York.
const AT = '2025-06-04T10:00:00.000Z';

describe('report times (issue 23)', () => {
  it('renders India time as the spec does, with IST', () => {
    expect(reportClockText(AT, 'ist')).toBe('03:30:00 PM IST');
    expect(reportDateTime(AT, 'ist')).toEqual({ date: 'Jun 04, 2025', time: '03:30:00 PM IST' });
  });

  it('renders the viewer’s own zone with its name', () => {
    expect(reportClockText(AT, 'local', 'Europe/Berlin')).toBe('12:00:00 PM GMT+2');
    expect(reportClockText(AT, 'local', 'America/New_York')).toBe('06:00:00 AM EDT');
    // The date follows the zone too: just after midnight in India is still the day before in New York.
    expect(reportDateTime('2025-06-04T19:00:00.000Z', 'ist').date).toBe('Jun 05, 2025');
    expect(reportDateTime('2025-06-04T19:00:00.000Z', 'local', 'America/New_York').date).toBe('Jun 04, 2025');
  });

  it('shows a dash for a time that is not one', () => {
    expect(reportClockText('not a time', 'ist')).toBe('-');
  });

  it('reads the viewer’s zone when nothing was chosen (or storage is unavailable)', () => {
    expect(readReportTimeZone()).toBe('local');
  });
});
