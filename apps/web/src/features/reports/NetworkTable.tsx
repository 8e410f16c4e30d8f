import type { NetworkEntry } from '@rehearse/contract';
import { Strings } from '../../lib/strings';
import { EmptyPane } from './EmptyPane';
import { httpStatusLabel, isFailingRequest, secondsText, sizeText, timeBarPercent, urlEllipsisParts } from './report-rules';

/** Spec 02 §8/§9: status code with its label, type, size in kb, time with its bar. */
export function NetworkTable({ entries }: { entries: NetworkEntry[] }) {
  if (entries.length === 0) return <EmptyPane>{Strings.emptyNetwork}</EmptyPane>;
  return (
    // Focusable, so a keyboard can scroll it where it scrolls sideways (the detail pane at 1024 px).
    <div tabIndex={0} className="focus-ring @container max-h-[28rem] overflow-auto rounded-lg border border-slate-200">
      {/* The URL takes what the fixed columns (27rem) leave: room for a request's last segment whole
          beside the start of its address. In a box under 42rem (the detail pane at 1024 px) the
          table keeps 45rem, the URL 18rem, and scrolls sideways with URL, method and status in view. */}
      <table className="w-full min-w-[45rem] table-fixed text-left text-xs @min-[42rem]:min-w-0" aria-label={Strings.reportNetworkTitle}>
        <thead className="sticky top-0 bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {Strings.reportNetworkUrl}
            </th>
            <th scope="col" className="w-16 px-2 py-2 font-semibold">
              {Strings.reportNetworkMethod}
            </th>
            <th scope="col" className="w-28 px-2 py-2 font-semibold">
              {Strings.reportNetworkStatus}
            </th>
            <th scope="col" className="w-20 px-2 py-2 font-semibold">
              {Strings.reportNetworkType}
            </th>
            <th scope="col" className="w-20 px-2 py-2 text-right font-semibold">
              {Strings.reportNetworkSize}
            </th>
            <th scope="col" className="w-24 px-3 py-2 font-semibold">
              {Strings.reportNetworkTime}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((entry, i) => {
            const failing = isFailingRequest(entry);
            return (
              <tr key={i} data-testid="network-row" className={failing ? 'bg-red-50/50' : ''}>
                <td className="px-3 py-1.5" title={entry.requestUrl}>
                  <UrlText url={entry.requestUrl} />
                </td>
                <td className="px-2 py-1.5">{entry.method}</td>
                <td className={`px-2 py-1.5 ${failing ? 'font-semibold text-red-800' : 'text-slate-700'}`}>
                  {entry.status ?? ''} {httpStatusLabel(entry)}
                </td>
                <td className="truncate px-2 py-1.5">{entry.type}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{sizeText(entry.size)}</td>
                <td className="px-3 py-1.5">
                  <span className="flex items-center gap-2">
                    <span className="h-1.5 flex-1 rounded-full bg-slate-100">
                      <span className="block h-1.5 rounded-full bg-brand-500" style={{ width: `${timeBarPercent(entry.responseTime)}%` }} />
                    </span>
                    <span className="w-10 text-right tabular-nums">{secondsText(entry.responseTime)}</span>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A URL with a middle ellipsis (issue 23): the start gives way first and the last segment stays,
 * since a page's requests mostly share their start. Screen readers and copy get the whole URL.
 */
function UrlText({ url }: { url: string }) {
  const { head, tail } = urlEllipsisParts(url);
  return (
    <span className="flex min-w-0" data-testid="network-url">
      {/* The tail keeps its width while the head shrinks to its first characters; only in a column
          narrower than both does the tail give way too. */}
      <span className="min-w-[4ch] truncate">{head}</span>
      <span className="max-w-[calc(100%-4ch)] shrink-0 truncate">{tail}</span>
    </span>
  );
}
