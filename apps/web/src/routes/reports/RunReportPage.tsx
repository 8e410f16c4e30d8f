import { Messages } from '@rehearse/contract';
import { ChevronRight, LoaderCircle } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner, Spinner } from '../../components/Spinner';
import { reportKeys, useRunReport } from '../../features/reports/queries';
import { PreviousResults } from '../../features/reports/PreviousResults';
import {
  aiRetrainLabel,
  durationMs,
  durationText,
  envDisplayName,
  exampleValuesText,
  passRatio,
} from '../../features/reports/report-rules';
import { reportDateTime } from '../../features/reports/report-time';
import { ReportTimeZoneSelect } from '../../features/reports/ReportTimeZoneSelect';
import { ScenarioReportView } from '../../features/reports/ScenarioReportView';
import { AiRetrainBadge, FlakyBadge, StatusBadge } from '../../features/reports/StatusBadge';
import { finished, useLiveRunExecution } from '../../features/reports/useLiveRunExecution';
import { useReportTimeZone } from '../../features/reports/useReportTimeZone';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { reportFetchFailure } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/**
 * run-report/{runId}: the run with its scenarios; run-report/{runId}/{testId} (a test case id or
 * its index in the run) opens one scenario's report (spec 02 §2 "Run report"). A single scenario
 * execution (type 'scenario') opens on its scenario.
 */
export function RunReportPage() {
  const { project } = useCurrentProject();
  const { runId = '', testId } = useParams();
  const run = useRunReport(runId);
  const execution = useLiveRunExecution(project.id, run.data);
  const [zone, setZone] = useReportTimeZone();
  const testCases = run.data?.report.testCases ?? [];
  const testCase =
    testId === undefined
      ? undefined
      : (testCases.find((t) => t.id === testId) ?? (/^\d+$/.test(testId) ? testCases[Number(testId)] : undefined));
  useDocumentTitle(testCase?.scenarioName ?? run.data?.name ?? Strings.reportsTitle);

  if (run.isPending) return <FullPageSpinner label={Strings.reportLoading} />;
  if (run.isError)
    return (
      <ErrorPanel
        title={Strings.reportLoadFailed}
        detail={reportFetchFailure(run.error, Strings.reportInternalError)}
        onRetry={() => void run.refetch()}
      />
    );
  const data = run.data;

  // A single scenario execution is its one scenario: open it directly (its report link names the run).
  const only = data.type === 'scenario' && testId === undefined && testCases.length === 1 ? testCases[0] : undefined;
  const { prevResults } = data.report;
  const previousRuns = (
    <PreviousResults
      projectId={project.id}
      of={prevResults.of}
      results={prevResults.previousRuns.map((r) => ({ status: r.status, run: { id: r.id, publishTime: r.publishTime } }))}
    />
  );
  if (only) {
    return (
      <ScenarioReportView
        projectId={project.id}
        testCase={only}
        run={{ id: data.id, name: data.name }}
        owner={{ kind: 'run', runId: data.id }}
        invalidate={reportKeys.run(runId)}
        previous={previousRuns}
      />
    );
  }

  if (testId !== undefined) {
    if (!testCase) return <ErrorPanel title={Strings.reportLoadFailed} detail={Messages.testCaseNotFound} />;
    return (
      <ScenarioReportView
        projectId={project.id}
        testCase={testCase}
        run={{ id: data.id, name: data.name }}
        owner={{ kind: 'run', runId: data.id }}
        invalidate={reportKeys.run(runId)}
        previous={
          <PreviousResults
            projectId={project.id}
            of={prevResults.of}
            inRun
            results={(prevResults.scenarios[testCase.scenarioName] ?? []).map((status) => ({ status }))}
          />
        }
      />
    );
  }

  const started = reportDateTime(data.startTime, zone);
  const running = execution?.running === true;
  // Provisioning: the execution runs but no scenario has ended yet, so nothing can be shown (spec 02 §2).
  const provisioning = running && testCases.length === 0 && finished(execution) === 0;
  return (
    // The same frame as the scenario report it opens, so the breadcrumb and cards do not jump.
    <div className="mx-auto flex max-w-[1400px] flex-col gap-5 px-8 py-6">
      <nav aria-label={Strings.reportBreadcrumb} className="text-sm text-slate-600">
        <ol className="flex items-center gap-1">
          <li>
            <Link to={`/${project.id}/executions`} className="focus-ring rounded hover:text-brand-700 hover:underline">
              {Strings.reportExecutions}
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4 text-slate-400" />
          </li>
          <li aria-current="page">{data.name}</li>
        </ol>
      </nav>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900">{data.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {Strings.reportStarted}{' '}
            <time dateTime={data.startTime} data-testid="report-started">
              {started.date} · {started.time}
            </time>{' '}
            · {envDisplayName(data.env.name)} · {data.username}
          </p>
          <div className="mt-1">
            <ReportTimeZoneSelect zone={zone} onZone={setZone} />
          </div>
        </div>
        <div className="grid grid-cols-3 gap-3">
          <Card label={Strings.reportDuration}>{durationText(data.executionTime)}</Card>
          <Card label={Strings.reportStatus}>{running ? <StatusBadge status="RUNNING" /> : <StatusBadge status={data.status} />}</Card>
          <Card label={Strings.reportScenarios}>
            {/* Out of every scenario the execution runs: while it runs not all are stored yet, and one that
                ended in error is never stored, yet it did not pass. */}
            {execution && (running || execution.scenariosErrored > 0)
              ? passRatio(execution.scenariosPassed, execution.totalScenarios)
              : passRatio(data.totalScenariosPassed, data.totalScenarios)}
          </Card>
        </div>
      </div>
      {previousRuns}
      <section aria-label={Strings.reportScenarioList} aria-busy={running} className="relative rounded-xl border border-slate-200 bg-white">
        <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-4 py-3">
          <h2 className="text-sm font-semibold text-slate-900">{Strings.reportScenarioList}</h2>
          {running && (
            <p
              role="status"
              data-testid="run-live-status"
              className="flex items-center gap-2 text-sm text-slate-700"
              title={Strings.reportRunningHint}
            >
              <Spinner />
              <span className="tabular-nums">{Strings.reportRunning(finished(execution), execution.totalScenarios)}</span>
            </p>
          )}
        </div>
        {execution && execution.scenariosErrored > 0 && (
          <div role="note" data-testid="run-errored" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
            <p>{Strings.reportErrored(execution.scenariosErrored)}</p>
            {execution.erroredScenarios.length > 0 && (
              <ul className="mt-1.5 flex flex-col gap-1">
                {execution.erroredScenarios.map((errored) => (
                  <li key={`${errored.featurePath}:${errored.scenarioName}`} data-testid="errored-scenario">
                    <span className="font-medium">{errored.scenarioName}</span>
                    <span className="text-amber-800"> · {errored.featurePath}</span>
                    {errored.reason && <span className="block text-xs text-amber-800 [overflow-wrap:anywhere]">{errored.reason}</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {provisioning ? (
          <ProvisioningOverlay />
        ) : testCases.length === 0 ? (
          <p role="status" className="p-10 text-center text-sm text-slate-600">
            {Strings.emptySteps}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {testCases.map((t) => (
              <li key={t.id}>
                <Link
                  to={`/${project.id}/run-report/${data.id}/${t.id}`}
                  aria-label={Strings.reportOpenScenario(scenarioRowName(t))}
                  data-testid="run-scenario"
                  className="focus-ring flex items-center gap-4 px-4 py-3 hover:bg-slate-50"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900" data-testid="run-scenario-name">
                      {t.scenarioName}
                      {exampleValuesText(t.parameters) && (
                        <span className="font-normal text-slate-600"> ({exampleValuesText(t.parameters)})</span>
                      )}
                    </span>
                    <span className="block truncate text-xs text-slate-500">
                      {t.featureName} · {Strings.reportStepCount(t.steps.length)}
                    </span>
                  </span>
                  <AiRetrainBadge label={aiRetrainLabel(t)} />
                  <FlakyBadge testCase={t} />
                  <StatusBadge status={t.result.status} />
                  <span className="w-20 text-right text-sm text-slate-600 tabular-nums">
                    {durationText(durationMs(t.result.startTime, t.result.endTime))}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Card({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-36 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <div className="mt-1 text-lg font-semibold text-slate-900">{children}</div>
    </div>
  );
}

/** Stands in for the scenario list until the execution's first scenario ends. */
function ProvisioningOverlay() {
  return (
    <div
      role="status"
      data-testid="provisioning-overlay"
      className="flex min-h-56 flex-col items-center justify-center gap-3 rounded-b-xl bg-slate-50/80 px-6 py-10 text-center"
    >
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-brand-600" />
      <p className="text-base font-semibold text-slate-900">{Strings.provisioning}</p>
      <p className="max-w-md text-sm text-slate-600">{Strings.provisioningHint}</p>
    </div>
  );
}

/** A scenario row's name: an outline's rows share a name, so each is told by its example values. */
function scenarioRowName(testCase: { scenarioName: string; parameters: Record<string, string> }): string {
  const values = exampleValuesText(testCase.parameters);
  return values ? `${testCase.scenarioName} (${values})` : testCase.scenarioName;
}
