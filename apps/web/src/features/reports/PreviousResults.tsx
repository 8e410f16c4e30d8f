import type { PreviousRunsOf } from '@rehearse/contract';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { StatusBadge, statusLabel } from './StatusBadge';

/** One earlier result: a run (linked to its report) or a scenario's status in one. */
export interface PreviousResult {
  status: string;
  run?: { id: string; publishTime: string };
}

/**
 * 'Previous results' of a report, named by their series (the same execution, the same scenario's
 * single runs, or runs of one name) so a reader knows which runs the pills are; each run links to
 * its report. Nothing when there is no earlier run.
 */
export function PreviousResults({
  projectId,
  of,
  results,
  inRun = false,
}: {
  projectId: string;
  of: PreviousRunsOf;
  results: PreviousResult[];
  /** One scenario's results within its run's series, not the run's own. */
  inRun?: boolean;
}) {
  if (results.length === 0) return null;
  const label = Strings.reportPrevResultsOf(of.kind, of.name, inRun);
  return (
    <section aria-label={label} data-testid="previous-results" className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <h2 className="font-medium">{label}:</h2>
      <ol className="flex flex-wrap items-center gap-1.5">
        {results.map((result, i) => {
          if (!result.run) {
            return (
              <li key={i}>
                <StatusBadge status={result.status} />
              </li>
            );
          }
          const at = formatDateTime(result.run.publishTime);
          return (
            <li key={result.run.id}>
              <Link
                to={`/${projectId}/run-report/${result.run.id}`}
                aria-label={Strings.reportPrevResultItem(statusLabel(result.status), `${at.date} ${at.time}`)}
                title={`${at.date} ${at.time}`}
                className="focus-ring inline-flex rounded-full"
              >
                <StatusBadge status={result.status} />
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
