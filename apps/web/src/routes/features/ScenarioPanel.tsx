import { featureDisplayName } from '@rehearse/contract';
import { useState } from 'react';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useScenarioSteps } from '../../features/scenarios/queries';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { errorMessage } from '../../lib/api';
import { CodeOutput } from './scenario/CodeOutput';
import { GherkinView } from './scenario/GherkinView';
import type { ScenarioPanelProps, StepsState } from './scenario/panel-props';
import { ScenarioHeader } from './scenario/ScenarioHeader';
import { StepsList } from './scenario/StepsList';

export type { PanelAction } from './scenario/panel-props';

const VIEWS = [
  ['gherkin', S.viewGherkin, 'gherkin-tab'],
  ['code', S.viewCode, 'code-tab'],
] as const;

/**
 * One scenario: header (title, tags, Add tag, actions, edit recording, Run scenario), the
 * Gherkin file view (view → edit → save/discard) with its steps, and the Code output view.
 */
export function ScenarioPanel(props: ScenarioPanelProps) {
  const { scope, feature, scenario, scenarioIndex, environment, onOpenStep } = props;
  const featureName = featureDisplayName(feature.name);
  const licence = useLicence();
  const steps = useScenarioSteps(scope, featureName, scenario.name);
  const [view, setView] = useState<'gherkin' | 'code'>('gherkin');
  const stepsState: StepsState = {
    steps: steps.data,
    loading: steps.isPending,
    error: steps.isError ? errorMessage(steps.error) : null,
    onRetry: () => void steps.refetch(),
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScenarioHeader {...props} featureName={featureName} />
      <div className="flex items-center gap-1 border-b border-slate-200 px-6" role="tablist" aria-label={S.viewsLabel}>
        {VIEWS.map(([id, label, tour]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`view-${id}`}
            aria-selected={view === id}
            aria-controls={`panel-${id}`}
            data-tour={tour}
            onClick={() => setView(id)}
            className={`focus-ring -mb-px border-b-2 px-3 py-2.5 text-sm font-medium ${
              view === id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-6">
        {view === 'gherkin' ? (
          <div
            id="panel-gherkin"
            role="tabpanel"
            aria-labelledby="view-gherkin"
            className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
          >
            <GherkinView {...props} featureName={featureName} />
            <StepsList
              scope={scope}
              featureName={featureName}
              scenario={scenario}
              scenarioIndex={scenarioIndex}
              environment={environment}
              state={stepsState}
              onOpenStep={onOpenStep}
              guard={licence.guard}
            />
          </div>
        ) : (
          <div id="panel-code" role="tabpanel" aria-labelledby="view-code">
            <CodeOutput scope={scope} state={stepsState} />
          </div>
        )}
      </div>
    </div>
  );
}
