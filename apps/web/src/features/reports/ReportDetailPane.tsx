import type { Command, ReportStep, StoredTestCase } from '@rehearse/contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '../../components/Button';
import { Strings } from '../../lib/strings';
import type { ScreenshotOwner } from './queries';
import { ReportDetailTabs } from './ReportDetailTabs';
import { commandTitle, durationMs, secondsText } from './report-rules';
import { reportClockText, type ReportTimeZone } from './report-time';
import { StatusBadge } from './StatusBadge';

/**
 * The right column of a scenario report: the selected command's title, status and time, Previous /
 * Next across the scenario's commands, its failure message and AI reasoning, then the detail tabs.
 */
export function ReportDetailPane({
  step,
  command,
  zone,
  testCase,
  owner,
  tab,
  onTab,
  onPrevious,
  onNext,
  hasPrevious,
  hasNext,
  onAllNetwork,
}: {
  step: ReportStep | undefined;
  command: Command | undefined;
  zone: ReportTimeZone;
  testCase: StoredTestCase;
  owner: ScreenshotOwner;
  tab: string;
  onTab: (tab: string) => void;
  onPrevious: () => void;
  onNext: () => void;
  hasPrevious: boolean;
  hasNext: boolean;
  onAllNetwork: () => void;
}) {
  return (
    <section aria-label={Strings.reportDetails} className="sticky top-4 flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white">
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <p className="text-xs text-slate-500">{step ? `${step.keyword.trim()} ${step.text}` : ''}</p>
          <h2 className="truncate text-sm font-semibold text-slate-900" data-testid="command-title">
            {command ? commandTitle(command) : Strings.emptyOutput}
          </h2>
          {command && (
            <p className="mt-0.5 flex items-center gap-2 text-xs text-slate-500">
              <StatusBadge status={command.result.status} />
              <span data-testid="command-time">{reportClockText(command.result.startTime, zone)}</span>
              <span>{secondsText(durationMs(command.result.startTime, command.result.endTime))}</span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 gap-1">
          <Button variant="secondary" size="icon" aria-label="Previous command" onClick={onPrevious} disabled={!hasPrevious}>
            <ChevronLeft aria-hidden="true" className="size-4" />
          </Button>
          <Button variant="secondary" size="icon" aria-label="Next command" onClick={onNext} disabled={!hasNext}>
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      {(command?.result.message ?? step?.result.message) && (
        <p className="border-b border-slate-200 bg-red-50 px-4 py-2 font-mono text-xs whitespace-pre-wrap text-red-900">
          {command?.result.message ?? step?.result.message}
        </p>
      )}
      {(command?.reasoning ?? step?.evaluation?.reasoning) && (
        <p className="border-b border-slate-200 px-4 py-2 text-xs text-slate-700">
          <span className="font-semibold">{Strings.reportReasoning}: </span>
          {command?.reasoning ?? step?.evaluation?.reasoning}
        </p>
      )}
      {step && (
        <ReportDetailTabs
          tab={tab}
          onTab={onTab}
          step={step}
          command={command}
          zone={zone}
          testCase={testCase}
          owner={owner}
          onAllNetwork={onAllNetwork}
        />
      )}
    </section>
  );
}
