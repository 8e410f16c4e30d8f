import type { StepInfo } from '@rehearse/contract';
import type { ReactNode } from 'react';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import type { StepsState } from './panel-props';

/**
 * The steps list and the code output share what shows until there are steps: loading, the load
 * error with Retry, or 'no steps'; with steps, `children` renders them.
 */
export function WhenStepsLoaded({ state, children }: { state: StepsState; children: (steps: StepInfo[]) => ReactNode }) {
  if (state.loading) {
    return (
      <p role="status" className="text-sm text-slate-500">
        {S.stepsLabel}…
      </p>
    );
  }
  if (state.error !== null) return <ErrorPanel title={S.stepsLoadFailed} detail={state.error} onRetry={state.onRetry} />;
  if (!state.steps || state.steps.length === 0) return <p className="text-sm text-slate-500">{S.noSteps}</p>;
  return children(state.steps);
}
