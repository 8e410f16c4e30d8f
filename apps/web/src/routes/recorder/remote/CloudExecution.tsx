import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/Spinner';
import { useRunScenario, useScenarioJob } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { errorMessage } from '../../../lib/api';
import { Strings } from '../../../lib/strings';

/**
 * `/remote-recorder/execute?project_id=&env_name=&feature_file=&scenario_name=` (spec 02 §2: a
 * path containing execute is execution mode, not recording): the named scenario runs once on the
 * project's cloud workers, as Run scenario does; no recorder session is opened and nothing is
 * recorded. The page follows the job and links its report.
 */
export function CloudExecution() {
  useDocumentTitle(Strings.runningInCloud);
  const [search] = useSearchParams();
  const projectId = search.get('project_id') ?? '';
  const featureName = search.get('feature_file') ?? '';
  const scenarioName = search.get('scenario_name') ?? '';
  const environment = search.get('env_name') ?? search.get('env') ?? '';
  const branch = search.get('git_branch') ?? undefined;
  const run = useRunScenario({ projectId, isPrivateRepo: false, branch, ready: true });
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useScenarioJob(projectId, jobId);
  const complete = Boolean(projectId && featureName && scenarioName && environment);

  // Once per page: a re-render (or React's development double effect) must not queue it twice.
  const queued = useRef(false);
  const { mutate } = run;
  useEffect(() => {
    if (!complete || queued.current) return;
    queued.current = true;
    mutate({ featureName, scenarioName, environment }, { onSuccess: ({ job: started }) => setJobId(started.id) });
  }, [complete, mutate, featureName, scenarioName, environment]);

  const state = job.data?.state;
  const done = state === 'passed' || state === 'failed' || state === 'error';
  const label =
    state === 'passed'
      ? S.runPassed
      : state === 'failed'
        ? S.runFailed
        : state === 'error'
          ? S.runError
          : state === 'running'
            ? S.runRunning
            : S.runQueued;

  return (
    <div className="flex h-full flex-col bg-slate-100">
      <header className="flex h-14 shrink-0 items-center gap-4 border-b border-slate-200 bg-white px-5">
        <h1 className="text-base font-semibold text-slate-900">{Strings.runningInCloud}</h1>
      </header>
      <main id="main" className="flex min-h-0 flex-1 items-center justify-center p-6">
        <section className="w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby="execution-title">
          <h2 id="execution-title" className="text-lg font-semibold break-words text-slate-900">
            {scenarioName || Strings.cloudExecutionNoScenario}
          </h2>
          {featureName && <p className="mt-1 text-sm break-words text-slate-600">{featureName}</p>}
          {!complete ? (
            <p role="alert" className="mt-4 text-sm text-red-800">
              {Strings.cloudExecutionIncomplete}
            </p>
          ) : run.isError ? (
            <p role="alert" className="mt-4 text-sm text-red-800">
              {`${S.runError}: ${errorMessage(run.error)}`}
            </p>
          ) : (
            <div className="mt-4 flex items-center gap-3 text-sm" role="status" data-testid="cloud-execution-status">
              {!done && <Spinner />}
              <span className="font-medium text-slate-800">{label}</span>
              {job.data?.runId && (
                <Link to={`/${projectId}/run-report/${job.data.runId}`} className="text-brand-700 underline">
                  {S.viewReport}
                </Link>
              )}
            </div>
          )}
          {job.data?.message && done && <p className="mt-2 text-sm text-slate-600">{job.data.message}</p>}
        </section>
      </main>
    </div>
  );
}
