import type { StoredTestCase } from '@rehearse/contract';
import { useState, type ReactNode } from 'react';
import { Strings } from '../../lib/strings';
import { CommentsPanel } from './CommentsPanel';
import { NetworkLogsDialog } from './NetworkLogsDialog';
import type { ScreenshotOwner } from './queries';
import { ReportDetailPane } from './ReportDetailPane';
import { maskValue } from './report-rules';
import { ReportStepList } from './ReportStepList';
import { ScenarioReportHeader } from './ScenarioReportHeader';
import { useReportSelection } from './useReportSelection';
import { useReportTimeZone } from './useReportTimeZone';

export interface ScenarioReportViewProps {
  projectId: string;
  testCase: StoredTestCase;
  /** The run the scenario belongs to (breadcrumb), when it has one worth linking. */
  run: { id: string; name: string } | null;
  owner: ScreenshotOwner;
  /** Query key refetched after a comment changes. */
  invalidate: readonly unknown[];
  /** 'Previous results' with what they are (PreviousResults), when the report has them. */
  previous?: ReactNode;
}

/**
 * One scenario execution (spec 02 §2 "Run report" / scenario report): breadcrumb, heading, start,
 * summary cards, values used, the step list with its commands and the detail pane whose tab and
 * selection follow the rules of §4. Shared by run-report/{runId}/{testId} and scenario-report/{id}.
 */
export function ScenarioReportView({ projectId, testCase, run, owner, invalidate, previous }: ScenarioReportViewProps) {
  const steps = testCase.steps;
  const selection = useReportSelection(testCase);
  const [networkOpen, setNetworkOpen] = useState(false);
  const [zone, setZone] = useReportTimeZone();
  const params = Object.entries(testCase.parameters);

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-5 px-8 py-6">
      <ScenarioReportHeader projectId={projectId} testCase={testCase} run={run} owner={owner} zone={zone} onZone={setZone} />

      {previous}

      {params.length > 0 && (
        <section
          aria-label={Strings.reportValuesUsed}
          className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-white px-4 py-3"
        >
          <h2 className="mr-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{Strings.reportValuesUsed}</h2>
          {params.map(([key, value]) => (
            <span key={key} className="rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-800">
              {key}: {maskValue(value)}
            </span>
          ))}
        </section>
      )}

      {testCase.result.message && testCase.result.status !== 'PASSED' && (
        <p role="note" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 font-mono text-xs whitespace-pre-wrap text-red-900">
          {testCase.result.message}
        </p>
      )}

      {steps.length === 0 ? (
        <p role="status" className="rounded-xl border border-slate-200 bg-white p-10 text-center text-sm text-slate-600">
          {Strings.emptySteps}
        </p>
      ) : (
        <div className="grid grid-cols-[minmax(20rem,5fr)_7fr] items-start gap-5">
          <ReportStepList
            steps={steps}
            stepIndex={selection.stepIndex}
            commandIndex={selection.commandIndex}
            onSelectStep={selection.selectStep}
            onSelectCommand={selection.selectCommand}
          />
          <ReportDetailPane
            step={selection.step}
            command={selection.command}
            zone={zone}
            testCase={testCase}
            owner={owner}
            tab={selection.tab}
            onTab={selection.setTab}
            onPrevious={selection.previous}
            onNext={selection.next}
            hasPrevious={selection.hasPrevious}
            hasNext={selection.hasNext}
            onAllNetwork={() => setNetworkOpen(true)}
          />
        </div>
      )}

      <CommentsPanel testCaseId={testCase.id} comments={testCase.comments} invalidate={invalidate} />
      <NetworkLogsDialog open={networkOpen} onOpenChange={setNetworkOpen} entries={testCase.networkLog} />
    </div>
  );
}
