import { MoreHorizontal, Video } from 'lucide-react';
import { Button } from '../../../components/Button';
import { Menu, MenuItem } from '../../../components/Menu';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { recorderLink } from '../../../features/recorder/recorder-link';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import { GenerateCodeMenu } from './GenerateCodeMenu';
import type { ScenarioPanelProps } from './panel-props';
import { RunScenarioButton } from './RunScenarioButton';
import { ScenarioTags } from './ScenarioTags';

type ScenarioHeaderProps = Pick<ScenarioPanelProps, 'scope' | 'feature' | 'scenario' | 'scenarioIndex' | 'environment' | 'onAction'> & {
  featureName: string;
};

/** The scenario's header: feature and scenario names, tags, edit recording, generate code, Run scenario and the more menu. */
export function ScenarioHeader({ scope, feature, featureName, scenario, scenarioIndex, environment, onAction }: ScenarioHeaderProps) {
  const licence = useLicence();
  return (
    <header className="flex flex-wrap items-start gap-x-4 gap-y-3 border-b border-slate-200 px-6 py-4">
      {/* At least 18rem for the title: on a narrow window the actions go to the next line instead. */}
      <div className="min-w-0 flex-1 basis-72">
        <p className="truncate text-xs font-medium text-slate-500" title={featureName}>
          {featureName}
        </p>
        <h1 className="truncate text-xl font-semibold text-slate-900" title={scenario.name} data-testid="scenario-title">
          {scenario.name}
        </h1>
        <ScenarioTags scope={scope} featureName={featureName} scenarioIndex={scenarioIndex} tags={scenario.tags} />
      </div>
      {/* Wraps at 1024 px once the run status joins the row, rather than pushing the more menu off screen. */}
      <div className="flex max-w-full flex-wrap items-center justify-end gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => licence.guard(() => window.open(recorderLink(scope, feature.name, scenario.name, environment), '_blank'))}
        >
          <Video aria-hidden="true" className="size-3.5" />
          {S.editRecording}
        </Button>
        <GenerateCodeMenu scope={scope} featureName={featureName} scenarioName={scenario.name} />
        <RunScenarioButton scope={scope} featureName={featureName} scenarioName={scenario.name} environment={environment} />
        <Menu
          label={S.scenarioActions}
          align="end"
          button={<MoreHorizontal aria-hidden="true" className="size-4" />}
          buttonClassName="focus-ring flex size-8 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100"
        >
          {/* Spec 01 §4: the licence modal is shown before opening the code editor. */}
          <MenuItem
            onSelect={() =>
              licence.guard(() => window.open(recorderLink(scope, feature.name, scenario.name, environment, {}, 'open_vscode'), '_blank'))
            }
          >
            {S.openInCodeEditor}
          </MenuItem>
          <MenuItem onSelect={() => onAction('renameScenario')}>{S.renameScenario}</MenuItem>
          <MenuItem onSelect={() => onAction('renameFeature')}>{S.renameFeature}</MenuItem>
          <MenuItem onSelect={() => onAction('deleteScenario')}>{S.deleteScenario}</MenuItem>
          <MenuItem onSelect={() => onAction('deleteFeature')}>{S.deleteFeature}</MenuItem>
        </Menu>
      </div>
    </header>
  );
}
