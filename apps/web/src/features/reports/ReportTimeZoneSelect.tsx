import { Clock } from 'lucide-react';
import { Strings } from '../../lib/strings';
import { viewerTimeZone, type ReportTimeZone } from './report-time';

/** "Times in: Your time zone (…) / India time (IST)" for a report's times (issue 23). */
export function ReportTimeZoneSelect({ zone, onZone }: { zone: ReportTimeZone; onZone: (zone: ReportTimeZone) => void }) {
  return (
    <label className="inline-flex items-center gap-1.5 text-xs text-slate-600">
      <Clock aria-hidden="true" className="size-3.5" />
      {Strings.reportTimeZoneLabel}
      <select
        value={zone}
        onChange={(event) => onZone(event.target.value === 'ist' ? 'ist' : 'local')}
        className="h-7 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-800 outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
      >
        <option value="local">{Strings.reportTimeZoneLocal(viewerTimeZone())}</option>
        <option value="ist">{Strings.reportTimeZoneIst}</option>
      </select>
    </label>
  );
}
