import type { LiveStep, ScenarioJob } from '@rehearse/contract';
import { ChevronDown, Loader2, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/Button';
import { Menu, MenuItem } from '../../../components/Menu';
import { Modal } from '../../../components/Modal';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { useLiveStep, useRunScenario, useScenarioJob, useWarmUpRunner } from '../../../features/scenarios/queries';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { errorMessage } from '../../../lib/api';
import { ScenarioCiInstructions } from './ScenarioCiInstructions';

interface RunScenarioProps {
  scope: WorkspaceScope;
  featureName: string;
  scenarioName: string;
  environment: string | null;
}

/** Run scenario split button (spec 02 §2): runs on the server's workers and follows the job. */
export function RunScenarioButton({ scope, featureName, scenarioName, environment }: RunScenarioProps) {
  const licence = useLicence();
  const run = useRunScenario(scope);
  const [jobId, setJobId] = useState<string | null>(null);
  const [ciOpen, setCiOpen] = useState(false);
  const job = useScenarioJob(scope.projectId, jobId);
  const liveStep = useLiveStep(scope.projectId, jobId);
  // The first click of the page finds a runner warm (issue 47: 8.6 s to the first step before).
  useWarmUpRunner(scope, environment !== null);

  // A new scenario starts with no job shown.
  useEffect(() => setJobId(null), [featureName, scenarioName]);

  const start = (heal = false) =>
    licence.guard(() => {
      if (!environment) return;
      run.mutate(
        { featureName, scenarioName, environment, heal },
        {
          onSuccess: ({ job: queued }) => setJobId(queued.id),
          onError: (error) => toast.error(`${S.runError}: ${errorMessage(error)}`),
        },
      );
    });

  const state = job.data?.state;
  const busy = run.isPending || state === 'queued' || state === 'running';
  return (
    <div className="flex items-center gap-2">
      {job.data && <RunStatus projectId={scope.projectId} job={job.data} step={liveStep.step} screenshot={liveStep.screenshot} />}
      <div className="flex">
        <Button
          size="sm"
          className="rounded-r-none"
          onClick={() => start()}
          disabled={busy}
          disabledReason={environment ? null : S.runNeedsEnvironment}
        >
          <Play aria-hidden="true" className="size-3.5" />
          {S.runScenario}
        </Button>
        <Menu
          label={S.runOptions}
          align="end"
          button={<ChevronDown aria-hidden="true" className="size-3.5" />}
          buttonClassName="focus-ring flex h-8 items-center rounded-r-lg border-l border-brand-700 bg-brand-600 px-1.5 text-white hover:bg-brand-700"
        >
          {/* Heals elements no locator finds and files the fix in Code Review (DESIGN §8). */}
          <MenuItem onSelect={() => start(true)}>{S.runWithAi}</MenuItem>
          <MenuItem onSelect={() => setCiOpen(true)}>{S.runViaCi}</MenuItem>
        </Menu>
      </div>
      <Modal open={ciOpen} onOpenChange={setCiOpen} title={S.ciTitle} description={S.ciText} size="lg">
        {ciOpen && <ScenarioCiInstructions scope={scope} featureName={featureName} scenarioName={scenarioName} environment={environment} />}
      </Modal>
    </div>
  );
}

const STATE_LABEL: Record<ScenarioJob['state'], string> = {
  queued: S.runQueued,
  running: S.runRunning,
  passed: S.runPassed,
  failed: S.runFailed,
  error: S.runError,
};

/**
 * The followed job's state, with a link to its report once there is one; while it runs, the step
 * it is at (or the last one that ended), as its runner says it.
 */
function RunStatus({
  projectId,
  job,
  step,
  screenshot,
}: {
  projectId: string;
  job: ScenarioJob;
  step: LiveStep | undefined;
  screenshot: string | undefined;
}) {
  const tone =
    job.state === 'passed'
      ? 'bg-emerald-50 text-emerald-800'
      : job.state === 'failed'
        ? 'bg-red-50 text-red-800'
        : // An infrastructure error (the pull, the browser, the deadline) is not a failed test: amber, as in executions.
          job.state === 'error'
          ? 'bg-amber-50 text-amber-900'
          : 'bg-slate-100 text-slate-700';
  return (
    <span
      role="status"
      data-testid="run-status"
      className={`flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ${tone}`}
      title={job.message ?? undefined}
    >
      {/* A step heard for the job means it runs, whatever the page last fetched: the claim's event
          can arrive before the page follows the job, and the next fetch is up to 10 s away. */}
      {(job.state === 'running' || job.state === 'queued') && step ? (
        <>
          {screenshot && (
            <img
              src={`data:image/png;base64,${screenshot}`}
              alt={S.runStepScreenshot}
              data-testid="run-step-screenshot"
              className="h-6 w-10 shrink-0 rounded border border-slate-300 object-cover object-top"
            />
          )}
          {step.status === 'running' && <Loader2 aria-hidden="true" className="size-3.5 shrink-0 animate-spin" />}
          <span className="max-w-[22rem] truncate" data-testid="run-step" title={`${step.keyword} ${step.text}`}>
            {S.runStep(step.index, step.count, step.keyword, step.text)}
          </span>
        </>
      ) : (
        STATE_LABEL[job.state]
      )}
      {job.runId && (
        <Link to={`/${projectId}/run-report/${job.runId}`} className="underline">
          {S.viewReport}
        </Link>
      )}
    </span>
  );
}
