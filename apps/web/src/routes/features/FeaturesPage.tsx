import { featureDisplayName, validateFeatureRename, validateScenarioRename, type StepInfo } from '@rehearse/contract';
import { FilePlus2, ListTree } from 'lucide-react';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { useEnvironments } from '../../features/environments/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import {
  useDeleteFeature,
  useDeleteScenario,
  useFeatureList,
  useRememberScenario,
  useRenameFeature,
  useRenameScenario,
} from '../../features/scenarios/queries';
import { resolveSelection } from '../../features/scenarios/selection';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import { buildTreeIndex } from '../../features/scenarios/tree';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { StorageKeys } from '../../lib/storage-keys';
import { useCurrentProject } from '../project/current-project';
import { AddScenarioWizard } from './AddScenarioWizard';
import { CreateScenarioDialog } from './CreateScenarioDialog';
import { FeatureTree } from './FeatureTree';
import { GuidedTour, TourPreview } from './GuidedTour';
import { RenameDialog } from './RenameDialog';
import { ScenarioPanel, type PanelAction } from './ScenarioPanel';
import { StepCodeDialog } from './StepCodeDialog';

/** Where a click may go while the Gherkin editor has unsaved text without asking first. */
const INSIDE_EDITOR =
  '[data-gherkin-editor], [role="dialog"], [role="alertdialog"], [data-radix-popper-content-wrapper], [data-sonner-toaster]';

/**
 * The features page (spec 02 §2): `/{projectId}/features?feature=…&scenario=…`. The tree on the
 * left, the selected scenario on the right; the URL always names what is shown.
 */
export function FeaturesPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${S.pageTitle} · ${project.name}`);
  const scope = useWorkspaceScope(project);
  const list = useFeatureList(scope);
  const environments = useEnvironments(scope);
  const licence = useLicence();
  const remember = useRememberScenario(scope);
  const [params, setParams] = useSearchParams();

  const [action, setAction] = useState<PanelAction | null>(null);
  const [creating, setCreating] = useState(false);
  const [wizard, setWizard] = useState(false);
  const [stepDialog, setStepDialog] = useState<{ step: StepInfo; feature: string; scenario: string } | null>(null);
  const [dirty, setDirty] = useState(false);
  const [unsavedPrompt, setUnsavedPrompt] = useState(false);

  const renameFeature = useRenameFeature(scope);
  const renameScenario = useRenameScenario(scope);
  const deleteScenario = useDeleteScenario(scope);
  const deleteFeature = useDeleteFeature(scope);

  const features = useMemo(() => list.data?.features ?? [], [list.data]);
  const index = useMemo(() => buildTreeIndex(features), [features]);

  // The shown scenario: the URL's, else the last active one, else the first.
  const selection = useMemo(
    () =>
      resolveSelection(features, params.get('feature'), params.get('scenario'), {
        featureIndex: list.data?.lastActiveFeatureIndex ?? null,
        scenarioIndex: list.data?.lastActiveScenarioIndex ?? null,
      }),
    [features, params, list.data],
  );

  const feature = selection ? features[selection.featureIndex] : undefined;
  const scenario = feature && selection && selection.scenarioIndex >= 0 ? feature.scenarios[selection.scenarioIndex] : undefined;

  const select = useCallback(
    (featureName: string, scenarioName: string | null, replace = false) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('feature', featureName);
          if (scenarioName === null) next.delete('scenario');
          else next.set('scenario', scenarioName);
          return next;
        },
        { replace },
      );
    },
    [setParams],
  );

  // Keep the URL naming what is shown (first visit, renamed or deleted items).
  useEffect(() => {
    // Not while a fresher list is on its way: a just-renamed scenario is not in the old one.
    if (!feature || list.isFetching) return;
    // Nor while a navigation of ours is still rendering: react-router moves in a transition, so a
    // render caused by the list can still hold the old params, and "correcting" them would undo
    // the move (a rename's new name, seen as missing, sent the page to the first scenario).
    if (new URLSearchParams(window.location.search).toString() !== params.toString()) return;
    const featureName = featureDisplayName(feature.name);
    if (params.get('feature') !== featureName || (scenario && params.get('scenario') !== scenario.name)) {
      select(featureName, scenario?.name ?? null, true);
    }
  }, [feature, scenario, params, select, list.isFetching]);

  // Remember the last scenario the user looked at (the page reopens there).
  // Once per scenario opened, not on every render that rebuilds the selection object.
  const rememberSelection = useEffectEvent(() => {
    if (selection && selection.scenarioIndex >= 0) remember.mutate(selection);
  });
  useEffect(() => rememberSelection(), [selection?.featureIndex, selection?.scenarioIndex]);

  // A click outside the Gherkin editor while it holds unsaved text asks first (spec 02 §4).
  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (!target || target.closest(INSIDE_EDITOR)) return;
      event.preventDefault();
      event.stopPropagation();
      setUnsavedPrompt(true);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirty]);

  const envName = environments.data?.lastActiveEnv ?? null;
  // The tour shows for ?newUser= here, or when the dashboard received it (ProjectLayout).
  const [tourPending, setTourPending] = useState(() => localStorage.getItem(StorageKeys.tourPending) === '1');
  const newUser = params.has('newUser') || tourPending;
  const finishTour = useCallback(() => {
    localStorage.removeItem(StorageKeys.tourPending);
    setTourPending(false);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('newUser');
        return next;
      },
      { replace: true },
    );
  }, [setParams]);

  if (list.isPending) return <FullPageSpinner label={S.pageTitle} />;
  if (list.isError) {
    return (
      <div className="p-8">
        <ErrorPanel title={S.loadFailed} detail={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      </div>
    );
  }

  const featureName = feature ? featureDisplayName(feature.name) : '';
  const startCreate = () => licence.guard(() => setCreating(true));

  return (
    <div className="flex h-full min-h-0">
      <aside className="flex w-72 shrink-0 flex-col border-r border-slate-200 bg-white xl:w-80" aria-label={S.treeLabel}>
        <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-3">
          <ListTree aria-hidden="true" className="size-4 text-brand-600" />
          <h1 className="text-base font-semibold text-slate-900">{S.pageTitle}</h1>
          <Button size="sm" className="ml-auto" onClick={startCreate}>
            <FilePlus2 aria-hidden="true" className="size-3.5" />
            {S.newScenario}
          </Button>
        </div>
        <FeatureTree
          index={index}
          allTags={list.data.allTags}
          selected={
            selection
              ? { featureIndex: selection.featureIndex, scenarioIndex: selection.scenarioIndex >= 0 ? selection.scenarioIndex : null }
              : null
          }
          onSelect={({ featureIndex, scenarioIndex }) => {
            const f = features[featureIndex]!;
            select(featureDisplayName(f.name), f.scenarios[scenarioIndex]!.name);
          }}
        />
      </aside>
      <section className="flex min-w-0 flex-1 flex-col bg-slate-50/50" aria-label={scenario?.name ?? S.pageTitle}>
        {features.length === 0 ? (
          <div role="status" className="m-auto flex flex-col items-center gap-3 p-8 text-center">
            <p className="text-sm text-slate-600">{S.noFeatures}</p>
            <Button onClick={startCreate}>{S.newScenario}</Button>
            {newUser && <TourPreview />}
          </div>
        ) : feature && scenario && selection ? (
          <ScenarioPanel
            scope={scope}
            feature={feature}
            scenario={scenario}
            scenarioIndex={selection.scenarioIndex}
            environment={envName}
            onAction={(next) => licence.guard(() => setAction(next))}
            onOpenStep={(step) => setStepDialog({ step, feature: featureName, scenario: scenario.name })}
            onDirtyChange={setDirty}
            unsavedPrompt={unsavedPrompt}
            onUnsavedPromptClose={() => setUnsavedPrompt(false)}
          />
        ) : (
          <p className="m-auto text-sm text-slate-600">{S.pickScenario}</p>
        )}
      </section>

      {feature && scenario && selection && (
        <>
          <RenameDialog
            open={action === 'renameScenario'}
            onOpenChange={(open) => !open && setAction(null)}
            title={S.renameScenario}
            oldName={scenario.name}
            validate={(name) =>
              validateScenarioRename(
                name,
                scenario.name,
                feature.scenarios.map((s) => s.name),
              )
            }
            onRename={async (newName) => {
              await renameScenario.mutateAsync({ featureName, scenarioIndex: selection.scenarioIndex, newName });
              select(featureName, newName, true);
            }}
          />
          <RenameDialog
            open={action === 'renameFeature'}
            onOpenChange={(open) => !open && setAction(null)}
            title={S.renameFeature}
            oldName={featureName}
            validate={(name) =>
              validateFeatureRename(
                name,
                featureName,
                features.map((f) => f.name),
              )
            }
            failureMessage={(error) => `${S.renameFeatureFailed}: ${errorMessage(error)}`}
            onRename={async (newName) => {
              await renameFeature.mutateAsync({ oldName: featureName, newName });
              select(newName, scenario.name, true);
            }}
          />
          <ConfirmDeleteDialog
            open={action === 'deleteScenario'}
            onOpenChange={(open) => !open && setAction(null)}
            what={S.scenarioNoun}
            name={scenario.name}
            failureMessage={() => S.deleteScenarioFailed}
            onConfirm={async () => {
              await deleteScenario.mutateAsync({ featureName, scenarioIndex: selection.scenarioIndex });
              select(featureName, null, true);
            }}
          />
          <ConfirmDeleteDialog
            open={action === 'deleteFeature'}
            onOpenChange={(open) => !open && setAction(null)}
            what={S.featureNoun}
            name={feature.name}
            failureMessage={() => S.deleteFeatureFailed}
            onConfirm={async () => {
              await deleteFeature.mutateAsync(featureName);
              setParams(new URLSearchParams(), { replace: true });
            }}
          />
        </>
      )}
      <CreateScenarioDialog
        open={creating}
        onOpenChange={setCreating}
        scope={scope}
        features={features}
        environment={envName}
        currentFeature={feature ? featureName : null}
        onCreated={(f, s) => select(f, s)}
        onOpenWizard={() => {
          setCreating(false);
          setWizard(true);
        }}
      />
      <AddScenarioWizard open={wizard} onOpenChange={setWizard} scope={scope} features={features} onCreated={(f, s) => select(f, s)} />
      <StepCodeDialog
        scope={scope}
        open={stepDialog !== null}
        onOpenChange={(open) => !open && setStepDialog(null)}
        feature={stepDialog?.feature ?? null}
        scenario={stepDialog?.scenario ?? null}
        initial={stepDialog?.step ?? null}
      />
      {newUser && <GuidedTour onFinish={finishTour} />}
    </div>
  );
}
