import {
  type aiCalls,
  featureDisplayName,
  Messages,
  validateNewFeatureName,
  type CallResponse,
  type FeatureSummary,
} from '@rehearse/contract';
import { Bot, FileCode2, MessageSquareText } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useLicence } from '../../features/licence/LicenceProvider';
import { usePushScenario, useScenarioCreation, useScenarioReading } from '../../features/scenarios/queries';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import type { WorkspaceScope } from '../../features/workspace/scope';
import { errorMessage } from '../../lib/api';
import { recorderLink } from '../../features/recorder/recorder-link';
import { saveNotice } from '../../lib/notify';

const NEW_FEATURE = '\u0000new';

/** One line of the flow as the server read it; `picked` holds the steps chosen for its questions here. */
type FlowRead = CallResponse<typeof aiCalls.scenarioReading>['lines'][number] & { picked?: string[] };

/**
 * The questions about a flow: each line that nothing reads with the steps it may have meant (one
 * click puts the step in its place), and what the other lines read as, so every reading is visible.
 */
function FlowQuestions({ reads, onPick }: { reads: FlowRead[]; onPick: (line: string, clause: string, step: string) => void }) {
  const open = reads.filter((read) => read.questions.length > 0).length;
  const resolved = reads.some((read) => read.resolved.length > 0);
  const panel = useRef<HTMLElement>(null);
  // The questions open below the lines typed: bring them into the dialog's view once, when asked.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <section
      ref={panel}
      aria-label={open === 0 && resolved ? S.resolvedTitle : S.questionsTitle(open)}
      className={`flex max-h-60 flex-col gap-2 overflow-y-auto rounded-lg border p-3 text-sm ${open > 0 ? 'border-amber-300 bg-amber-50' : 'border-sky-300 bg-sky-50'}`}
    >
      {open > 0 && <h3 className="font-semibold text-amber-900">{S.questionsTitle(open)}</h3>}
      {open === 0 && resolved && <h3 className="font-semibold text-sky-900">{S.resolvedTitle}</h3>}
      <ol className="flex flex-col gap-2">
        {reads.map((read, index) => (
          <li key={`${index}:${read.line}`} className="flex flex-col gap-1">
            <span className="font-mono text-slate-800">{read.line}</span>
            {read.steps.length > 0 && (
              <span className="text-xs text-slate-600">
                {S.readsAs} <code className="text-slate-800">{read.steps.join(' · ')}</code>
              </span>
            )}
            {read.resolved.map((resolution) => (
              <span key={resolution.from} className="text-xs text-sky-800">
                {S.readOnMap} {resolution.why}
              </span>
            ))}
            {read.picked?.map((step) => (
              <span key={step} className="text-xs text-emerald-800">
                {S.questionPicked} <code>{step}</code>
              </span>
            ))}
            {read.questions.map((question) => (
              <div key={question.clause} role="group" aria-label={question.clause} className="flex flex-col gap-1 pl-3">
                {question.why && <span className="text-xs text-amber-900">{question.why}</span>}
                {question.candidates.length > 0 ? (
                  <>
                    <span className="text-xs font-medium text-amber-900">
                      {read.questions.length > 1 || question.clause !== read.line ? `“${question.clause}”: ` : ''}
                      {S.didYouMean}
                    </span>
                    <div className="flex flex-wrap gap-1.5">
                      {question.candidates.map((candidate) => (
                        <button
                          key={candidate}
                          type="button"
                          className="focus-ring rounded-md border border-amber-400 bg-white px-2 py-1 font-mono text-xs text-slate-800 hover:bg-amber-100"
                          onClick={() => onPick(read.line, question.clause, candidate)}
                        >
                          {candidate}
                        </button>
                      ))}
                    </div>
                  </>
                ) : (
                  <span className="text-xs text-amber-900">{S.noCandidates}</span>
                )}
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

type Step = 'choose' | 'bdd' | 'plain';

interface CreateScenarioDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: WorkspaceScope;
  features: FeatureSummary[];
  environment: string | null;
  /** The feature selected in the tree, preselected here. */
  currentFeature: string | null;
  /** Called with the created scenario so the page selects it. */
  onCreated: (feature: string, scenario: string, edit: boolean) => void;
  /** Opens the add-scenario wizard (AI). */
  onOpenWizard: () => void;
}

/**
 * 'Create a test scenario' (spec 02 §2): AI Recorder (recommended), Write BDD scenario, and Add a
 * scenario with plain English (Beta). BDD creates the scenario and opens it in the Gherkin editor.
 */
export function CreateScenarioDialog(props: CreateScenarioDialogProps) {
  const { open, onOpenChange, scope, environment } = props;
  const licence = useLicence();
  const [step, setStep] = useState<Step>('choose');
  useEffect(() => {
    if (open) setStep('choose');
  }, [open]);

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={step === 'plain' ? S.plainTitle : step === 'bdd' ? S.createBdd : S.createTitle}
      size={step === 'choose' ? 'lg' : 'md'}
      testId="create-scenario-dialog"
    >
      {step === 'choose' && (
        <div className="flex flex-col gap-3">
          <Choice
            icon={<Bot aria-hidden="true" className="size-5" />}
            title={S.createRecorder}
            badge={S.recommended}
            text={S.createRecorderHint}
            onClick={() =>
              licence.guard(() => {
                window.open(recorderLink(scope, '', '', environment), '_blank');
                onOpenChange(false);
              })
            }
          />
          <Choice
            icon={<FileCode2 aria-hidden="true" className="size-5" />}
            title={S.createBdd}
            text={S.createBddHint}
            onClick={() => setStep('bdd')}
          />
          <Choice
            icon={<MessageSquareText aria-hidden="true" className="size-5" />}
            title={S.createPlain}
            badge={S.beta}
            text={S.createPlainHint}
            onClick={() => setStep('plain')}
          />
        </div>
      )}
      {step !== 'choose' && <ScenarioForm {...props} mode={step} onBack={() => setStep('choose')} />}
    </Modal>
  );
}

function Choice({
  icon,
  title,
  text,
  badge,
  onClick,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  badge?: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="focus-ring flex items-start gap-3 rounded-xl border border-slate-200 p-4 text-left hover:border-brand-400 hover:bg-brand-50/40"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">{icon}</span>
      <span className="flex flex-col gap-0.5">
        <span className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          {title}
          {badge && <span className="rounded-full bg-brand-600 px-2 py-0.5 text-[11px] font-medium text-white">{badge}</span>}
        </span>
        <span className="text-sm text-slate-600">{text}</span>
      </span>
    </button>
  );
}

/** The shared form of BDD and plain-English creation: feature (existing or new), scenario name, and for plain English the lines. */
function ScenarioForm({
  mode,
  onBack,
  onOpenChange,
  scope,
  features,
  currentFeature,
  onCreated,
  onOpenWizard,
}: CreateScenarioDialogProps & { mode: 'bdd' | 'plain'; onBack: () => void }) {
  const licence = useLicence();
  const names = features.map((f) => featureDisplayName(f.name));
  const [feature, setFeature] = useState(currentFeature ?? names[0] ?? NEW_FEATURE);
  const [newFeature, setNewFeature] = useState('');
  const [description, setDescription] = useState('');
  const [name, setName] = useState('');
  const [lines, setLines] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const push = usePushScenario(scope);
  const creation = useScenarioCreation(scope);
  const reading = useScenarioReading(scope);
  /** The lines as last read, while some clause of them is still a question (issue 44: ask, never refuse). */
  const [reads, setReads] = useState<FlowRead[] | null>(null);
  /** The flow whose map-resolved reading was shown: Create again then saves it (a step the user has not seen is never saved). */
  const [shownReading, setShownReading] = useState<string | null>(null);

  const isNew = feature === NEW_FEATURE || names.length === 0;
  const featureCheck = isNew ? validateNewFeatureName(newFeature, names) : null;
  const nameError = name.trim() === '' ? S.scenarioNameRequired : null;
  const flow = lines
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const flowError = mode === 'plain' && flow.length === 0 ? Messages.plainEnglishFlowEmpty : null;
  const invalid = (featureCheck?.error ?? nameError ?? flowError) !== null;
  const busy = push.isPending || creation.isPending || reading.isPending;
  const featureName = isNew ? (featureCheck?.name ?? '') : feature;

  const submit = () =>
    licence.guard(() => {
      setTouched(true);
      if (invalid) return;
      setError(null);
      const wanted = name.trim();
      const done = (scenarioName: string) => {
        // Spec 02 §9: a duplicate-name warning stays as long as a save's notice (4 s).
        if (scenarioName !== wanted) saveNotice.warning(S.duplicateRenamed(scenarioName));
        onOpenChange(false);
        onCreated(featureName, scenarioName, mode === 'bdd');
      };
      if (mode === 'bdd') {
        push.mutate(
          {
            feature: featureName,
            text: S.scenarioTemplate(wanted),
            ...(isNew && description.trim() ? { description: description.trim() } : {}),
          },
          {
            onSuccess: ({ feature: saved, scenarioIndex }) => done(saved.scenarios[scenarioIndex]?.name ?? wanted),
            onError: (failure) => setError(errorMessage(failure)),
          },
        );
      } else {
        // Read first: a line nothing reads becomes a question with candidates, and nothing is saved
        // until every line reads as steps.
        reading.mutate(flow, {
          onSuccess: (answer) => {
            if (answer.lines.some((line) => line.questions.length > 0)) {
              setReads(answer.lines);
              return;
            }
            // A line the app's map read differently from its words is shown once before it is saved.
            const flowKey = flow.join('\n');
            if (answer.lines.some((line) => line.resolved.length > 0) && shownReading !== flowKey) {
              setReads(answer.lines);
              setShownReading(flowKey);
              return;
            }
            setReads(null);
            creation.mutate(
              { featureName, name: wanted, flow, parameters: {} },
              {
                onSuccess: (created) => done(created.scenarioName),
                onError: (failure) => setError(`${Messages.scenarioCreationFailed} ${errorMessage(failure)}`),
              },
            );
          },
          onError: (failure) => setError(errorMessage(failure)),
        });
      }
    });

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
        {S.featureLabel}
        <select
          value={isNew ? NEW_FEATURE : feature}
          onChange={(event) => setFeature(event.target.value)}
          className="focus-ring h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm font-normal"
        >
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          <option value={NEW_FEATURE}>{S.newFeatureOption}</option>
        </select>
      </label>
      {isNew && (
        <>
          <TextField
            label={S.featureNameLabel}
            value={newFeature}
            onChange={(event) => setNewFeature(event.target.value)}
            error={touched || newFeature !== '' ? featureCheck?.error : null}
          />
          <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
            {S.descriptionLabel}
            <textarea
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              rows={2}
              className="focus-ring rounded-lg border border-slate-300 p-2 text-sm font-normal"
            />
          </label>
          <button type="button" className="focus-ring self-start text-sm font-medium text-brand-700 underline" onClick={onOpenWizard}>
            {S.useAi}
          </button>
        </>
      )}
      <TextField
        label={S.scenarioNameLabel}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={touched ? nameError : null}
      />
      {mode === 'plain' && (
        <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
          {S.plainStepsLabel}
          <textarea
            value={lines}
            onChange={(event) => setLines(event.target.value)}
            rows={5}
            placeholder={S.plainStepsHint}
            className="focus-ring rounded-lg border border-slate-300 p-2 font-mono text-sm font-normal placeholder:text-slate-500"
          />
          {touched && flowError && <span className="text-xs font-normal text-red-600">{flowError}</span>}
        </label>
      )}
      {mode === 'plain' && (
        // A new tab, so the lines typed here stay while the user looks up the words.
        <a
          href={`/${scope.projectId}/steps-reference`}
          target="_blank"
          rel="noreferrer"
          className="focus-ring w-fit rounded text-xs font-medium text-brand-700 hover:underline"
        >
          {S.referenceLink}
        </a>
      )}
      {mode === 'plain' && reads && (
        <FlowQuestions
          reads={reads}
          onPick={(line, clause, step) => {
            // The picked step takes the clause's place in its line; the other lines stay as typed.
            const next = line.replace(clause, step);
            setLines((text) =>
              text
                .split('\n')
                .map((typed) => (typed.trim() === line ? typed.replace(line, next) : typed))
                .join('\n'),
            );
            setReads(
              (current) =>
                current?.map((read) =>
                  read.line === line
                    ? {
                        ...read,
                        line: next,
                        questions: read.questions.filter((question) => question.clause !== clause),
                        picked: [...(read.picked ?? []), step],
                      }
                    : read,
                ) ?? null,
            );
          }}
        />
      )}
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onBack} disabled={busy}>
          {S.back}
        </Button>
        <Button type="submit" disabled={busy || (touched && invalid)}>
          {reading.isPending ? S.reading : busy ? S.creating : S.create}
        </Button>
      </div>
    </form>
  );
}
