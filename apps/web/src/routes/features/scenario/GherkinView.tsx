import { Messages } from '@rehearse/contract';
import { Check, Pencil } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { useLicence } from '../../../features/licence/LicenceProvider';
import { CodeEditor } from '../../../features/scenarios/editor/lazy';
import { useGherkinHelp, usePushScenario } from '../../../features/scenarios/queries';
import { editorText, parserErrorOf } from '../../../features/scenarios/scenario-text';
import { FeatureStrings as S } from '../../../features/scenarios/strings';
import { errorMessage } from '../../../lib/api';
import { UndefinedSteps } from '../UndefinedSteps';
import type { ScenarioPanelProps } from './panel-props';
import { saveNotice } from '../../../lib/notify';

type GherkinViewProps = Pick<
  ScenarioPanelProps,
  'scope' | 'scenario' | 'scenarioIndex' | 'onDirtyChange' | 'unsavedPrompt' | 'onUnsavedPromptClose'
> & { featureName: string };

/** The scenario's Gherkin: read-only until Edit; Save writes it, Discard restores it. */
export function GherkinView({
  scope,
  featureName,
  scenario,
  scenarioIndex,
  onDirtyChange,
  unsavedPrompt,
  onUnsavedPromptClose,
}: GherkinViewProps) {
  const licence = useLicence();
  const push = usePushScenario(scope);
  const original = editorText(scenario.content);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(original);
  const help = useGherkinHelp(scope, text);
  const [error, setError] = useState<string | null>(null);
  const dirty = editing && text !== original;

  // Another scenario, or a saved one coming back from the server: show its text.
  useEffect(() => {
    setText(original);
    setEditing(false);
    setError(null);
  }, [original, featureName, scenarioIndex]);

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const save = async () => {
    setError(null);
    try {
      await push.mutateAsync({ feature: featureName, text, scenarioIndex });
      setEditing(false);
      saveNotice.success(Messages.changesSaved);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const discard = () => {
    setText(original);
    setEditing(false);
    setError(null);
  };

  const parsed = error ? parserErrorOf(error) : null;
  return (
    <section aria-label={S.gherkinEditorLabel} className="flex min-w-0 flex-col gap-3" data-gherkin-editor>
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold text-slate-800">{S.viewGherkin}</h2>
        <div className="ml-auto flex items-center gap-2">
          <Link
            to={`/${scope.projectId}/steps-reference`}
            className="focus-ring rounded text-xs font-medium text-brand-700 hover:underline"
          >
            {S.referenceLink}
          </Link>
          {editing ? (
            <>
              <Button variant="secondary" size="sm" onClick={discard} disabled={push.isPending}>
                {S.discard}
              </Button>
              <Button size="sm" onClick={() => void save()} disabled={!dirty || push.isPending}>
                <Check aria-hidden="true" className="size-3.5" />
                {push.isPending ? S.saving : S.save}
              </Button>
            </>
          ) : (
            <Button variant="secondary" size="sm" onClick={() => licence.guard(() => setEditing(true))}>
              <Pencil aria-hidden="true" className="size-3.5" />
              {S.edit}
            </Button>
          )}
        </div>
      </div>
      <CodeEditor
        language="gherkin"
        value={text}
        onChange={setText}
        readOnly={!editing}
        label={S.gherkinEditorLabel}
        errorLines={parsed ? [parsed.line] : []}
        help={help}
        testId="gherkin-editor"
      />
      {editing && <UndefinedSteps help={help} text={text} onChange={setText} projectId={scope.projectId} />}
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="gherkin-error">
          {parsed ? S.parserErrorAt(parsed.line, parsed.reason) : error}
        </p>
      )}
      <UnsavedGherkinDialog open={unsavedPrompt} onClose={onUnsavedPromptClose} onDiscard={discard} onSave={() => void save()} />
    </section>
  );
}

/** Asked when the user clicks outside the editor with unsaved text: keep editing, discard, or save. */
function UnsavedGherkinDialog({
  open,
  onClose,
  onDiscard,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onDiscard: () => void;
  onSave: () => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={S.unsavedTitle}
      description={S.unsavedText}
      alert
      size="md"
      testId="unsaved-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {S.keepEditing}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              onDiscard();
              onClose();
            }}
          >
            {S.discardChanges}
          </Button>
          <Button
            onClick={() => {
              onClose();
              onSave();
            }}
          >
            {S.saveChanges}
          </Button>
        </>
      }
    />
  );
}
