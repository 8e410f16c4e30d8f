import { useSyncExternalStore } from 'react';
import { readReportTimeZone, saveReportTimeZone, type ReportTimeZone } from './report-time';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = () => listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The clock report times are read on, remembered per browser: every report on screen (the run's
 * header and its scenario) follows one choice.
 */
export function useReportTimeZone(): [ReportTimeZone, (zone: ReportTimeZone) => void] {
  const zone = useSyncExternalStore(subscribe, readReportTimeZone);
  const setZone = (next: ReportTimeZone) => {
    saveReportTimeZone(next);
    for (const listener of listeners) listener();
  };
  return [zone, setZone];
}
