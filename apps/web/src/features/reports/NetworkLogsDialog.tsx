import type { NetworkEntry } from '@rehearse/contract';
import { useState } from 'react';
import { Modal } from '../../components/Modal';
import { Strings } from '../../lib/strings';
import { EmptyPane } from './EmptyPane';
import { NetworkTable } from './NetworkTable';
import { isFailingRequest } from './report-rules';

/** The full network log of a scenario, with search and a failed-only filter (spec 02 §2). */
export function NetworkLogsDialog({
  open,
  onOpenChange,
  entries,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entries: NetworkEntry[];
}) {
  const [term, setTerm] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const needle = term.trim().toLowerCase();
  const shown = entries.filter((e) => (!failedOnly || isFailingRequest(e)) && (!needle || e.requestUrl.toLowerCase().includes(needle)));
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={Strings.reportNetworkTitle} size="xl" testId="network-dialog">
      <div className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <input
            type="search"
            aria-label={Strings.reportNetworkSearch}
            placeholder={Strings.reportNetworkSearch}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            className="h-9 flex-1 rounded-lg border border-slate-300 px-3 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
          <select
            aria-label={Strings.reportNetworkFilter}
            value={failedOnly ? 'failed' : 'all'}
            onChange={(event) => setFailedOnly(event.target.value === 'failed')}
            className="h-9 rounded-lg border border-slate-300 px-2 text-sm"
          >
            <option value="all">{Strings.reportNetworkFilterAll}</option>
            <option value="failed">{Strings.reportNetworkFilterFailed}</option>
          </select>
        </div>
        {failedOnly && shown.length === 0 && entries.length > 0 ? (
          <EmptyPane>{Strings.emptyNetworkIssues}</EmptyPane>
        ) : (
          <NetworkTable entries={shown} />
        )}
      </div>
    </Modal>
  );
}
