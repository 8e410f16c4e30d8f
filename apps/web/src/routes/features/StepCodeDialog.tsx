import { Messages, type StepInfo } from '@rehearse/contract';
import { AlertTriangle, Pencil } from 'lucide-react';
import { useEffect, useEffectEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { useLicence } from '../../features/licence/LicenceProvider';
import { CodeEditor, DiffView, findSyntaxErrors } from '../../features/scenarios/editor/lazy';
import { useSaveStepFile, useScenarioSteps } from '../../features/scenarios/queries';
import { hasChanges, shownCode } from '../../features/scenarios/step-code-machine';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import type { WorkspaceScope } from '../../features/workspace/scope';
import { errorMessage } from '../../lib/api';
import { AiStepUpdate } from './step-code/AiStepUpdate';
import { StepCodeConfirm } from './step-code/StepCodeConfirm';
import { useStepCodeMachine } from './step-code/useStepCodeMachine';
import { saveNotice } from '../../lib/notify';

/** Spec 02 §9: code validation 1 s after a change. */
export const SYNTAX_CHECK_DELAY_MS = 1000;

interface StepCodeDialogProps {
  scope: WorkspaceScope;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The scenario whose steps with code can be opened here (display feature name). */
  feature: string | null;
  scenario: string | null;
  initial: StepInfo | null;
}

/**
 * The step code viewer/editor (spec 02 §4, §5), driven by the step code machine
 * (`features/scenarios/step-code-machine.ts`, where its rules are): this component shows the
 * machine's state, sends it the user's events and runs its effects (syntax check, save, close).
 */
export function StepCodeDialog({ scope, open, onOpenChange, feature, scenario, initial }: StepCodeDialogProps) {
  const licence = useLicence();
  // Read live, so a save shows the stored code as soon as the list comes back.
  const steps = useScenarioSteps(scope, feature, scenario);
  const withCode = (steps.data ?? []).filter((step) => step.mjsFile !== null);
  const save = useSaveStepFile(scope);
  const stepAt = (index: number) => withCode[Math.min(index, withCode.length - 1)];

  const { state, send } = useStepCodeMachine(
    ({ index }) => ({ original: stepAt(index)?.mjsFileContent ?? '' }),
    (effect, reply) => {
      if (effect.kind === 'close') return onOpenChange(false);
      if (effect.kind === 'checkSyntax')
        return void findSyntaxErrors(effect.code).then((errors) => reply({ type: 'syntaxChecked', errors }));
      const path = stepAt(state.index)?.mjsFile;
      if (!path) return reply({ type: 'saveFailed' });
      save.mutateAsync({ path, content: effect.code }).then(
        () => {
          saveNotice.success(Messages.changesSaved);
          reply({ type: 'saved' });
        },
        (error: unknown) => {
          toast.error(errorMessage(error));
          reply({ type: 'saveFailed' });
        },
      );
    },
  );
  const { index, mode, errors } = state;
  const step = stepAt(index);
  const context = { original: step?.mjsFileContent ?? '' };
  const code = shownCode(state, context);
  const changed = hasChanges(state, context);

  // Opening on a step starts in read-only mode with its code; only when the dialog opens, not
  // when the step list refreshes behind it (an effect event reads the list without depending on it).
  const onOpened = useEffectEvent(() => {
    const at = initial ? withCode.findIndex((s) => s.line === initial.line && s.stepName === initial.stepName) : 0;
    send({ type: 'opened', index: Math.max(0, at) });
  });
  useEffect(() => {
    if (open) onOpened();
  }, [open]);

  // Syntax check 1 s after the last change.
  useEffect(() => {
    if (mode === 'view') return;
    let live = true;
    const timer = setTimeout(() => {
      void findSyntaxErrors(code).then((lines) => live && send({ type: 'linted', errors: lines }));
    }, SYNTAX_CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [code, mode, send]);

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : send({ type: 'leaveRequested', leave: { kind: 'close' } }))}
      title={step ? S.stepCodeTitle(step.stepName) : S.stepCodeLabel}
      description={step?.mjsFile ? S.fileLabel(step.mjsFile) : undefined}
      size="xl"
      testId="step-code-dialog"
      footer={
        step && (
          <>
            {errors.length > 0 && mode !== 'view' && (
              <p role="alert" className="mr-auto flex items-center gap-1.5 text-sm text-red-700" data-testid="syntax-errors">
                <AlertTriangle aria-hidden="true" className="size-4" />
                {S.syntaxErrorsAt(errors)}
              </p>
            )}
            {mode === 'view' && (
              <Button onClick={() => licence.guard(() => send({ type: 'editRequested' }))}>
                <Pencil aria-hidden="true" className="size-4" />
                {S.edit}
              </Button>
            )}
            {mode === 'edit' && (
              <>
                <Button variant="ghost" onClick={() => send({ type: 'leaveRequested', leave: { kind: 'discard' } })}>
                  {S.discard}
                </Button>
                <Button onClick={() => send({ type: 'reviewRequested' })} disabledReason={changed ? null : S.noChanges}>
                  {S.review}
                </Button>
              </>
            )}
            {mode === 'review' && (
              <>
                <Button variant="secondary" onClick={() => send({ type: 'backToEditing' })}>
                  {S.backToEditing}
                </Button>
                <Button
                  onClick={() => send({ type: 'saveRequested' })}
                  disabled={state.busy !== null}
                  disabledReason={changed ? null : S.noChanges}
                >
                  {state.busy?.step === 'saving' ? S.saving : S.save}
                </Button>
              </>
            )}
          </>
        )
      }
    >
      {!step ? (
        <p role="status" className="text-sm text-slate-600">
          {steps.isPending ? S.editorLoading : S.noCodeTitle}
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[14rem_minmax(0,1fr)]">
          <nav aria-label={S.stepsLabel}>
            <ul className="flex flex-col gap-1">
              {withCode.map((s, i) => (
                <li key={`${s.line}-${i}`}>
                  <button
                    type="button"
                    aria-current={i === index ? 'true' : undefined}
                    onClick={() => i !== index && send({ type: 'leaveRequested', leave: { kind: 'switch', index: i } })}
                    className={`focus-ring w-full rounded-lg px-2.5 py-1.5 text-left text-xs ${
                      i === index ? 'bg-brand-50 font-medium text-brand-800' : 'text-slate-700 hover:bg-slate-100'
                    }`}
                  >
                    <span className="font-semibold">{s.keyword.trim()}</span> {s.stepName}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex min-w-0 flex-col gap-3">
            {mode === 'review' ? (
              <>
                <div className="grid grid-cols-2 text-xs font-medium text-slate-500">
                  <span>{S.before}</span>
                  <span>{S.after}</span>
                </div>
                <DiffView original={context.original} modified={code} testId="step-code-diff" />
              </>
            ) : (
              <CodeEditor
                language="javascript"
                value={code}
                onChange={(draft) => send({ type: 'edited', draft })}
                readOnly={mode === 'view'}
                label={S.stepCodeLabel}
                errorLines={mode === 'edit' ? errors : []}
                className="max-h-[45vh] overflow-auto"
                testId="step-code-editor"
              />
            )}
            <AiStepUpdate
              projectId={scope.projectId}
              functionName={step.stepName}
              fileContent={code}
              onResult={(proposed) => send({ type: 'aiProposed', code: proposed })}
            />
          </div>
        </div>
      )}
      <StepCodeConfirm confirm={state.confirm} errors={errors} send={send} />
    </Modal>
  );
}
