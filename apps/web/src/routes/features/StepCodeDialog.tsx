import { Messages, QUICK_PROMPTS, type StepInfo } from '@rehearse/contract';
import { AlertTriangle, CheckCircle2, Loader2, Pencil, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { useLicence } from '../../features/licence/LicenceProvider';
import { CodeEditor, DiffView, findSyntaxErrors } from '../../features/scenarios/editor/lazy';
import { useGenerateStepCode, useSaveStepFile, useScenarioSteps } from '../../features/scenarios/queries';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import type { WorkspaceScope } from '../../features/workspace/scope';
import { errorMessage } from '../../lib/api';

/** Spec 02 §9: code validation 1 s after a change; AI progress every 1.5 s; AI banners 2 s. */
export const SYNTAX_CHECK_DELAY_MS = 1000;
export const AI_PROGRESS_INTERVAL_MS = 1500;
export const AI_BANNER_MS = 2000;

type Mode = 'view' | 'edit' | 'review';
type Pending = { kind: 'switch'; index: number } | { kind: 'close' } | { kind: 'discard' } | { kind: 'syntax' } | null;

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
 * The step code viewer/editor (spec 02 §4, §5): read-only → edit → review (side-by-side diff) →
 * save. Save is enabled only when the code changed; a syntax check runs 1 s after each change and
 * a save with errors asks 'Save Anyway' or 'Back to editing'. Leaving a changed step (another
 * step, closing) asks to save or discard. The AI step update fills the editor for review.
 */
export function StepCodeDialog({ scope, open, onOpenChange, feature, scenario, initial }: StepCodeDialogProps) {
  const licence = useLicence();
  // Read live, so a save shows the stored code as soon as the list comes back.
  const steps = useScenarioSteps(scope, feature, scenario);
  const withCode = (steps.data ?? []).filter((step) => step.mjsFile !== null);
  const [index, setIndex] = useState(0);
  const [mode, setMode] = useState<Mode>('view');
  const [draft, setDraft] = useState('');
  const [errors, setErrors] = useState<number[]>([]);
  const [pending, setPending] = useState<Pending>(null);
  const save = useSaveStepFile(scope);

  const step = withCode[Math.min(index, withCode.length - 1)];
  const original = step?.mjsFileContent ?? '';
  const changed = mode !== 'view' && draft !== original;

  // Opening on a step starts in read-only mode with its code.
  useEffect(() => {
    if (!open) return;
    const at = initial ? withCode.findIndex((s) => s.line === initial.line && s.stepName === initial.stepName) : 0;
    setIndex(Math.max(0, at));
    setMode('view');
    setErrors([]);
    // Only when the dialog opens, not when the step list refreshes behind it.
  }, [open]);

  // The draft follows the stored code while not editing (also after a save lands).
  useEffect(() => {
    if (mode === 'view') setDraft(original);
  }, [original, mode]);

  // Syntax check 1 s after the last change.
  useEffect(() => {
    if (mode === 'view') return;
    let live = true;
    const timer = setTimeout(() => {
      void findSyntaxErrors(draft).then((lines) => live && setErrors(lines));
    }, SYNTAX_CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [draft, mode]);

  const resetTo = (next: number) => {
    setIndex(next);
    setMode('view');
    setErrors([]);
    setDraft(withCode[next]?.mjsFileContent ?? '');
  };

  const doSave = async () => {
    if (!step?.mjsFile) return false;
    try {
      await save.mutateAsync({ path: step.mjsFile, content: draft });
      toast.success(Messages.changesSaved);
      setMode('view');
      return true;
    } catch (error) {
      toast.error(errorMessage(error));
      return false;
    }
  };

  /** Save, asking first when the code does not parse (checked now, not only after the debounce). */
  const trySave = async () => {
    const lines = await findSyntaxErrors(draft);
    setErrors(lines);
    if (lines.length > 0) {
      setPending({ kind: 'syntax' });
      return false;
    }
    return doSave();
  };

  const leave = (after: Pending) => {
    if (after?.kind === 'switch') resetTo(after.index);
    if (after?.kind === 'close') onOpenChange(false);
    if (after?.kind === 'discard') {
      setDraft(original);
      setMode('view');
      setErrors([]);
    }
  };

  const requestLeave = (next: Pending) => {
    if (changed) setPending(next);
    else leave(next);
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : requestLeave({ kind: 'close' }))}
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
              <Button onClick={() => licence.guard(() => setMode('edit'))}>
                <Pencil aria-hidden="true" className="size-4" />
                {S.edit}
              </Button>
            )}
            {mode === 'edit' && (
              <>
                <Button variant="ghost" onClick={() => requestLeave({ kind: 'discard' })}>
                  {S.discard}
                </Button>
                <Button onClick={() => setMode('review')} disabledReason={changed ? null : S.noChanges}>
                  {S.review}
                </Button>
              </>
            )}
            {mode === 'review' && (
              <>
                <Button variant="secondary" onClick={() => setMode('edit')}>
                  {S.backToEditing}
                </Button>
                <Button onClick={() => void trySave()} disabled={save.isPending} disabledReason={changed ? null : S.noChanges}>
                  {save.isPending ? S.saving : S.save}
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
                    onClick={() => i !== index && requestLeave({ kind: 'switch', index: i })}
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
                <DiffView original={original} modified={draft} testId="step-code-diff" />
              </>
            ) : (
              <CodeEditor
                language="javascript"
                value={draft}
                onChange={setDraft}
                readOnly={mode === 'view'}
                label={S.stepCodeLabel}
                errorLines={mode === 'edit' ? errors : []}
                className="max-h-[45vh] overflow-auto"
                testId="step-code-editor"
              />
            )}
            {
              <AiStepUpdate
                projectId={scope.projectId}
                functionName={step.stepName}
                fileContent={draft}
                onResult={(code) => {
                  setDraft(code);
                  setMode('review');
                }}
              />
            }
          </div>
        </div>
      )}
      <Modal
        open={pending !== null}
        onOpenChange={(next) => !next && setPending(null)}
        alert
        size="sm"
        testId="step-code-confirm"
        title={pending?.kind === 'syntax' ? S.syntaxErrorTitle : pending?.kind === 'discard' ? S.discardTitle : S.unsavedTitle}
        description={
          pending?.kind === 'syntax' ? S.syntaxErrorText(errors) : pending?.kind === 'discard' ? S.discardText : S.unsavedStepText
        }
        footer={
          pending?.kind === 'syntax' ? (
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  setPending(null);
                  setMode('edit');
                }}
              >
                {S.backToEditing}
              </Button>
              <Button
                onClick={() => {
                  setPending(null);
                  void doSave();
                }}
              >
                {S.saveAnyway}
              </Button>
            </>
          ) : pending?.kind === 'discard' ? (
            <>
              <Button variant="ghost" onClick={() => setPending(null)}>
                {S.keepEditing}
              </Button>
              <Button
                variant="danger"
                onClick={() => {
                  setPending(null);
                  leave({ kind: 'discard' });
                }}
              >
                {S.discardChanges}
              </Button>
            </>
          ) : (
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  const next = pending;
                  setPending(null);
                  leave(next);
                }}
              >
                {S.discardChanges}
              </Button>
              <Button
                onClick={() => {
                  const next = pending;
                  setPending(null);
                  void trySave().then((saved) => saved && leave(next));
                }}
              >
                {S.saveChanges}
              </Button>
            </>
          )
        }
      />
    </Modal>
  );
}

/**
 * AI step update (spec 02 §4, §8, §9): a free-text request or a quick prompt; while the engine
 * works the progress messages take turns every 1.5 s; then 'Done! Review the changes' (the diff
 * opens) or the error, each banner for 2 s.
 */
function AiStepUpdate({
  projectId,
  functionName,
  fileContent,
  onResult,
}: {
  projectId: string;
  functionName: string;
  fileContent: string;
  onResult: (code: string) => void;
}) {
  const licence = useLicence();
  const generate = useGenerateStepCode(projectId);
  const [request, setRequest] = useState('');
  const [progress, setProgress] = useState(0);
  const [banner, setBanner] = useState<{ tone: 'done' | 'error'; text: string } | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!generate.isPending) return;
    setProgress(0);
    const timer = setInterval(() => setProgress((n) => Math.min(n + 1, S.aiProgress.length - 1)), AI_PROGRESS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [generate.isPending]);

  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  const show = (next: { tone: 'done' | 'error'; text: string }) => {
    setBanner(next);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), AI_BANNER_MS);
  };

  const send = (text: string) =>
    licence.guard(() =>
      generate.mutate(
        { request: text, functionName, fileContent },
        {
          onSuccess: (code) => {
            show({ tone: 'done', text: S.aiDone });
            onResult(code);
          },
          onError: (error) => show({ tone: 'error', text: `${Messages.aiStepUpdateFailed} (${errorMessage(error)})` }),
        },
      ),
    );

  return (
    <section aria-labelledby="ai-update-title" className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-slate-50/70 p-3">
      <h3 id="ai-update-title" className="flex items-center gap-1.5 text-sm font-semibold text-slate-800">
        <Sparkles aria-hidden="true" className="size-4 text-brand-600" />
        {S.aiTitle}
      </h3>
      <div className="flex flex-wrap gap-1.5" aria-label={S.aiQuickPrompts} role="group">
        {QUICK_PROMPTS.map((prompt) => (
          <button
            key={prompt}
            type="button"
            disabled={generate.isPending}
            onClick={() => send(prompt)}
            className="focus-ring rounded-full border border-slate-300 bg-white px-2.5 py-1 text-xs text-slate-700 hover:border-brand-400 hover:text-brand-700 disabled:opacity-50"
          >
            {prompt}
          </button>
        ))}
      </div>
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (request.trim()) send(request.trim());
        }}
      >
        <input
          value={request}
          onChange={(event) => setRequest(event.target.value)}
          aria-label={S.aiRequestLabel}
          placeholder={S.aiRequestPlaceholder}
          className="focus-ring h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2.5 text-sm placeholder:text-slate-500"
        />
        <Button type="submit" size="sm" className="h-9" disabled={generate.isPending || request.trim() === ''}>
          {S.aiSend}
        </Button>
      </form>
      {generate.isPending && (
        <p role="status" className="flex items-center gap-1.5 text-sm text-slate-700" data-testid="ai-progress">
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          {S.aiProgress[progress]}
        </p>
      )}
      {banner && (
        <p
          role={banner.tone === 'error' ? 'alert' : 'status'}
          data-testid="ai-banner"
          className={`flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm ${
            banner.tone === 'done' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'
          }`}
        >
          {banner.tone === 'done' ? (
            <CheckCircle2 aria-hidden="true" className="size-4" />
          ) : (
            <AlertTriangle aria-hidden="true" className="size-4" />
          )}
          {banner.text}
        </p>
      )}
    </section>
  );
}
