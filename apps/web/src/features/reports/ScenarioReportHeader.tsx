import type { StoredTestCase } from '@rehearse/contract';
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Strings } from '../../lib/strings';
import type { ScreenshotOwner } from './queries';
import { ReportFiles } from './ReportFiles';
import { aiRetrainLabel, durationMs, durationText } from './report-rules';
import { reportDateTime, type ReportTimeZone } from './report-time';
import { ReportTimeZoneSelect } from './ReportTimeZoneSelect';
import { AiRetrainBadge, FlakyBadge, StatusBadge } from './StatusBadge';

/**
 * The top of a scenario report: the breadcrumb (Executions, then the run when there is one), the
 * feature and scenario names, when it started in the chosen time zone, its files, and the duration,
 * status and passed-steps cards.
 */
export function ScenarioReportHeader({
  projectId,
  testCase,
  run,
  owner,
  zone,
  onZone,
}: {
  projectId: string;
  testCase: StoredTestCase;
  run: { id: string; name: string } | null;
  owner: ScreenshotOwner;
  zone: ReportTimeZone;
  onZone: (zone: ReportTimeZone) => void;
}) {
  const steps = testCase.steps;
  const started = reportDateTime(testCase.result.startTime, zone);
  const passedSteps = steps.filter((s) => s.result.status === 'PASSED' || s.result.status === 'FIXED_BY_AI').length;
  return (
    <>
      <nav aria-label={Strings.reportBreadcrumb} className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to={`/${projectId}/executions`} className="focus-ring rounded hover:text-brand-700 hover:underline">
              {Strings.reportExecutions}
            </Link>
          </li>
          {run && (
            <>
              <li aria-hidden="true">
                <ChevronRight className="size-4 text-slate-400" />
              </li>
              <li>
                <Link to={`/${projectId}/run-report/${run.id}`} className="focus-ring rounded hover:text-brand-700 hover:underline">
                  {run.name}
                </Link>
              </li>
            </>
          )}
        </ol>
      </nav>

      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-slate-500">{testCase.featureName}</p>
          <h1 className="mt-0.5 truncate text-2xl font-semibold tracking-tight text-slate-900">{testCase.scenarioName}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span>
              {Strings.reportStarted}{' '}
              <time dateTime={testCase.result.startTime} data-testid="report-started">
                {started.date} · {started.time}
              </time>
            </span>
            <ReportTimeZoneSelect zone={zone} onZone={onZone} />
          </p>
          <div className="mt-2">
            <ReportFiles owner={owner} testCase={testCase} />
          </div>
        </div>
        <div className="grid grid-cols-3 gap-3">
          <SummaryCard label={Strings.reportDuration} testId="summary-duration">
            {durationText(durationMs(testCase.result.startTime, testCase.result.endTime))}
          </SummaryCard>
          <SummaryCard label={Strings.reportStatus} testId="summary-status">
            <span className="flex flex-wrap items-center gap-1.5">
              <StatusBadge status={testCase.result.status} />
              <AiRetrainBadge label={aiRetrainLabel(testCase)} />
              <FlakyBadge testCase={testCase} />
            </span>
          </SummaryCard>
          <SummaryCard label={Strings.reportSteps} testId="summary-steps">
            {passedSteps} / {steps.length}
          </SummaryCard>
        </div>
      </div>
    </>
  );
}

function SummaryCard({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="min-w-36 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <div className="mt-1 text-lg font-semibold text-slate-900" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}
