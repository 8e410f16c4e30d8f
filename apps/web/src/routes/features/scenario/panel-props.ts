import type { FeatureSummary, ScenarioSummary, StepInfo } from '@rehearse/contract';
import type { WorkspaceScope } from '../../../features/workspace/scope';

/** What the scenario's more menu asks the features page to do (each opens one of the page's dialogs). */
export type PanelAction = 'renameScenario' | 'renameFeature' | 'deleteScenario' | 'deleteFeature';

export interface ScenarioPanelProps {
  scope: WorkspaceScope;
  feature: FeatureSummary;
  scenario: ScenarioSummary;
  scenarioIndex: number;
  /** The current environment's file name, for Run scenario and the recorder. */
  environment: string | null;
  onAction: (action: PanelAction) => void;
  /** Opens the step code viewer/editor on a step. */
  onOpenStep: (step: StepInfo) => void;
  /** Reports whether the Gherkin editor holds unsaved text (the page asks before leaving). */
  onDirtyChange: (dirty: boolean) => void;
  /** Set by the page: a click outside the editor while dirty asks this panel to save or discard. */
  unsavedPrompt: boolean;
  onUnsavedPromptClose: () => void;
}

/** The scenario's steps as the panel's parts receive them: the list once loaded, or why not. */
export interface StepsState {
  steps: StepInfo[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}
