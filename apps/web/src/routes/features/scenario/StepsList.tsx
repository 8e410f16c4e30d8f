import { Messages, type ScenarioSummary, type StepInfo } from '@rehearse/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { recorderLink } from '../../../features/recorder/recorder-link';
import { useGenerateStep, usePushScenario } from '../../../features/scenarios/queries';
import { commentAbove, editorText, withCommentAbove } from '../../../features/scenarios/scenario-text';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { WorkspaceScope } from '../../../features/workspace/scope';
import { errorMessage } from '../../../lib/api';
import { CommentDialog } from './CommentDialog';
import type { StepsState } from './panel-props';
import { NoCodePanel, StepToolbar } from './StepActions';
import { WhenStepsLoaded } from './WhenStepsLoaded';
import { saveNotice } from '../../../lib/notify';

interface StepsListProps {
  scope: WorkspaceScope;
  featureName: string;
  scenario: ScenarioSummary;
  scenarioIndex: number;
  environment: string | null;
  state: StepsState;
  onOpenStep: (step: StepInfo) => void;
  guard: (action: () => void) => void;
}

/** Steps of the scenario: implemented or not, their source, and the step toolbar for the selected one. */
export function StepsList({ state, ...props }: StepsListProps) {
  return <WhenStepsLoaded state={state}>{(steps) => <LoadedSteps {...props} steps={steps} />}</WhenStepsLoaded>;
}

function LoadedSteps({
  scope,
  featureName,
  scenario,
  scenarioIndex,
  environment,
  steps,
  onOpenStep,
  guard,
}: Omit<StepsListProps, 'state'> & { steps: StepInfo[] }) {
  const [selected, setSelected] = useState(0);
  const [commentOpen, setCommentOpen] = useState(false);
  const generate = useGenerateStep(scope);
  const push = usePushScenario(scope);
  const scenarioText = editorText(scenario.content);

  useEffect(() => setSelected(0), [featureName, scenario.name]);

  // The list can shrink under a selection (a step deleted elsewhere): the last step is then the selected one.
  const at = Math.min(selected, steps.length - 1);
  const step = steps[at]!;
  const runGenerate = () =>
    guard(() =>
      generate.mutate(
        { featureName, scenarioName: scenario.name, stepText: step.stepName },
        { onError: (failure) => toast.error(errorMessage(failure)) },
      ),
    );
  const openRecorder = (extra: Record<string, string>, operation: 'recorder' | 'apitest') =>
    guard(() =>
      window.open(
        recorderLink(scope, `${featureName}.feature`, scenario.name, environment, { step_index: String(at), ...extra }, operation),
        '_blank',
      ),
    );

  return (
    <section aria-labelledby="steps-title" className="flex min-w-0 flex-col gap-3">
      <h2 id="steps-title" className="text-sm font-semibold text-slate-800">
        {S.stepsLabel}
      </h2>
      <ol className="flex flex-col gap-1" data-testid="steps">
        {steps.map((s, i) => (
          <li key={`${s.line}-${i}`}>
            <button
              type="button"
              aria-pressed={i === at}
              onClick={() => setSelected(i)}
              className={`focus-ring flex w-full items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm ${
                i === at ? 'border-brand-300 bg-brand-50/60' : 'border-slate-200 bg-white hover:bg-slate-50'
              }`}
            >
              <span className="font-semibold text-brand-700">{s.keyword.trim()}</span>
              <span className="min-w-0 flex-1 truncate text-slate-800">{s.stepName}</span>
              {s.implemented ? (
                <Badge tone="ok">{s.mjsFile === null ? S.builtIn : s.source ? (S.source[s.source] ?? s.source) : S.implemented}</Badge>
              ) : (
                <Badge tone="warn">{S.notImplemented}</Badge>
              )}
            </button>
          </li>
        ))}
      </ol>
      <StepToolbar
        step={step}
        generating={generate.isPending}
        onGenerate={runGenerate}
        onComment={() => guard(() => setCommentOpen(true))}
        onImplementViaApi={() => openRecorder({ stepSource: 'api' }, 'apitest')}
        onViewCode={() => onOpenStep(step)}
      />
      {!step.implemented ? (
        <NoCodePanel generating={generate.isPending} onRecord={() => openRecorder({}, 'recorder')} onGenerate={runGenerate} />
      ) : step.mjsFile === null ? (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{S.builtInText}</p>
      ) : null}
      <CommentDialog
        open={commentOpen}
        onOpenChange={setCommentOpen}
        initial={commentAbove(scenarioText, step, scenario)}
        onPublish={async (comment) => {
          await push.mutateAsync({ feature: featureName, text: withCommentAbove(scenarioText, step, scenario, comment), scenarioIndex });
          saveNotice.success(Messages.changesSaved);
        }}
      />
    </section>
  );
}

function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'muted'; children: ReactNode }) {
  const tones = { ok: 'bg-emerald-50 text-emerald-800', warn: 'bg-amber-50 text-amber-900', muted: 'bg-slate-100 text-slate-700' };
  return <span className={`shrink-0 rounded-full px-2 py-0.5 text-[11px] font-medium ${tones[tone]}`}>{children}</span>;
}
