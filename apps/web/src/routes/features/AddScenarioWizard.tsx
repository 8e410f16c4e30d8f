import { featureDisplayName, Messages, validateNewFeatureName, type FeatureSummary, type ScenarioIdea } from '@rehearse/contract';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Checkbox';
import { IconButton } from '../../components/IconButton';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useLicence } from '../../features/licence/LicenceProvider';
import { useScenarioCreation, useScenarioIdeas } from '../../features/scenarios/queries';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import type { WorkspaceScope } from '../../features/workspace/scope';
import { errorMessage } from '../../lib/api';

const NEW_FEATURE = '\u0000new';

interface EditableIdea {
  selected: boolean;
  name: string;
  flow: string;
  parameters: { key: string; value: string }[];
}

interface Created {
  name: string;
  steps: string[];
}

function editable(idea: ScenarioIdea): EditableIdea {
  return {
    selected: true,
    name: idea.name,
    flow: idea.flow.join('\n'),
    parameters: Object.entries(idea.parameters).map(([key, value]) => ({ key, value })),
  };
}

/**
 * The ideas rules of spec 02 §5, in order: at least one idea selected; every selected idea has a
 * name no other (selected idea or existing scenario of the feature) has, case-insensitively; a
 * flow; and every parameter key and value filled in.
 */
export function ideasError(ideas: EditableIdea[], existing: readonly string[]): string | null {
  const chosen = ideas.filter((idea) => idea.selected);
  if (chosen.length === 0) return Messages.ideasNoneSelected;
  const seen = new Set(existing.map((n) => n.trim().toLowerCase()));
  for (const idea of chosen) {
    const key = idea.name.trim().toLowerCase();
    if (key === '' || idea.flow.trim() === '' || idea.parameters.some((p) => p.key.trim() === '' || p.value.trim() === '')) {
      return Messages.ideasFieldsMissing;
    }
    if (seen.has(key)) return Messages.scenarioNameExists;
    seen.add(key);
  }
  return null;
}

/**
 * The add-scenario wizard (spec 02 §2): 1 select feature (description required: it is what the AI
 * works from), 2 select scenarios among the AI's ideas (editable), 3 view the generated scenarios.
 */
export function AddScenarioWizard({
  open,
  onOpenChange,
  scope,
  features,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: WorkspaceScope;
  features: FeatureSummary[];
  onCreated: (feature: string, scenario: string) => void;
}) {
  const licence = useLicence();
  const names = features.map((f) => featureDisplayName(f.name));
  const [step, setStep] = useState(0);
  const [feature, setFeature] = useState(NEW_FEATURE);
  const [newFeature, setNewFeature] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [ideas, setIdeas] = useState<EditableIdea[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created[]>([]);
  const ideasCall = useScenarioIdeas(scope.projectId);
  const creation = useScenarioCreation(scope);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (!open) return;
    setStep(0);
    setFeature(NEW_FEATURE);
    setNewFeature('');
    setDescription('');
    setTouched(false);
    setIdeas([]);
    setError(null);
    setCreated([]);
  }, [open]);

  const isNew = feature === NEW_FEATURE;
  const featureCheck = isNew ? validateNewFeatureName(newFeature, names) : null;
  const featureName = isNew ? (featureCheck?.name ?? '') : feature;
  const descriptionError = description.trim() === '' ? S.descriptionRequired : null;
  const existingScenarios = isNew ? [] : (features.find((f) => featureDisplayName(f.name) === feature)?.scenarios.map((s) => s.name) ?? []);

  const next = () => {
    setError(null);
    if (step === 0) {
      setTouched(true);
      if (featureCheck?.error || descriptionError) return;
      ideasCall.mutate(description.trim(), {
        onSuccess: (result) => {
          setIdeas(result.map(editable));
          setStep(1);
        },
        onError: (failure) => setError(errorMessage(failure)),
      });
      return;
    }
    if (step === 1) {
      const problem = ideasError(ideas, existingScenarios);
      if (problem) {
        setError(problem);
        return;
      }
      licence.guard(() => void createAll());
    }
  };

  const createAll = async () => {
    setCreating(true);
    const done: Created[] = [];
    try {
      for (const idea of ideas.filter((i) => i.selected)) {
        const answer = await creation.mutateAsync({
          featureName,
          name: idea.name.trim(),
          flow: idea.flow
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean),
          parameters: Object.fromEntries(idea.parameters.map((p) => [p.key.trim(), p.value])),
        });
        done.push({ name: answer.scenarioName, steps: answer.steps });
      }
      setCreated(done);
      setStep(2);
    } catch (failure) {
      // The spec's sentence, then the server's own words, in the ideas step.
      setError(`${Messages.scenarioCreationFailed} ${errorMessage(failure)}`);
      if (done.length > 0) setCreated(done);
    } finally {
      setCreating(false);
    }
  };

  const update = (at: number, change: Partial<EditableIdea>) =>
    setIdeas((list) => list.map((idea, i) => (i === at ? { ...idea, ...change } : idea)));

  const busy = ideasCall.isPending || creating;
  return (
    <Modal
      open={open}
      onOpenChange={(value) => !busy && onOpenChange(value)}
      title={S.wizardTitle}
      description={`${S.wizardStepOf(step + 1, 3)}: ${S.wizardSteps[step]}`}
      size="lg"
      testId="add-scenario-wizard"
      footer={
        <>
          {step === 1 && (
            <Button variant="ghost" onClick={() => setStep(0)} disabled={busy}>
              {S.back}
            </Button>
          )}
          {step < 2 ? (
            <Button onClick={next} disabled={busy}>
              {ideasCall.isPending ? S.wizardIdeasLoading : creating ? S.creating : step === 0 ? S.wizardGetIdeas : S.create}
            </Button>
          ) : (
            <Button
              onClick={() => {
                onOpenChange(false);
                if (created[0]) onCreated(featureName, created[0].name);
              }}
            >
              {S.done}
            </Button>
          )}
        </>
      }
    >
      <ol className="mb-4 flex gap-2 text-xs" aria-label={S.wizardTitle}>
        {S.wizardSteps.map((label, i) => (
          <li
            key={label}
            aria-current={i === step ? 'step' : undefined}
            className={`flex-1 rounded-full px-3 py-1 text-center font-medium ${i === step ? 'bg-brand-600 text-white' : i < step ? 'bg-brand-50 text-brand-800' : 'bg-slate-100 text-slate-600'}`}
          >
            {label}
          </li>
        ))}
      </ol>
      {step === 0 && (
        <div className="flex flex-col gap-4">
          <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
            {S.featureLabel}
            <select
              value={feature}
              onChange={(event) => setFeature(event.target.value)}
              className="focus-ring h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm font-normal"
            >
              <option value={NEW_FEATURE}>{S.newFeatureOption}</option>
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          {isNew && (
            <TextField
              label={S.featureNameLabel}
              value={newFeature}
              onChange={(event) => setNewFeature(event.target.value)}
              error={touched || newFeature !== '' ? featureCheck?.error : null}
            />
          )}
          <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
            {S.wizardDescribe}
            <textarea
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              rows={3}
              aria-invalid={touched && descriptionError !== null}
              className="focus-ring rounded-lg border border-slate-300 p-2 text-sm font-normal"
            />
            {touched && descriptionError && <span className="text-xs font-normal text-red-600">{descriptionError}</span>}
          </label>
        </div>
      )}
      {step === 1 &&
        (ideas.length === 0 ? (
          <p className="text-sm text-slate-600">{S.wizardNoIdeas}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {ideas.map((idea, i) => (
              <li key={i} className="flex gap-3 rounded-xl border border-slate-200 p-3">
                <Checkbox
                  checked={idea.selected}
                  onChange={(event) => update(i, { selected: event.target.checked })}
                  aria-label={S.wizardSelectIdea(idea.name)}
                  className="mt-8"
                />
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <TextField label={S.scenarioNameLabel} value={idea.name} onChange={(event) => update(i, { name: event.target.value })} />
                  <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
                    {S.wizardFlowLabel}
                    <textarea
                      value={idea.flow}
                      onChange={(event) => update(i, { flow: event.target.value })}
                      rows={3}
                      className="focus-ring rounded-lg border border-slate-300 p-2 font-mono text-xs font-normal"
                    />
                  </label>
                  {idea.parameters.map((param, p) => (
                    <div key={p} className="flex items-end gap-2">
                      <TextField
                        className="flex-1"
                        label={S.wizardParamKey}
                        value={param.key}
                        onChange={(event) =>
                          update(i, { parameters: idea.parameters.map((x, j) => (j === p ? { ...x, key: event.target.value } : x)) })
                        }
                      />
                      <TextField
                        className="flex-1"
                        label={S.wizardParamValue}
                        value={param.value}
                        onChange={(event) =>
                          update(i, { parameters: idea.parameters.map((x, j) => (j === p ? { ...x, value: event.target.value } : x)) })
                        }
                      />
                      <IconButton
                        label={S.wizardRemoveParam(param.key)}
                        icon={Trash2}
                        tone="danger"
                        onClick={() => update(i, { parameters: idea.parameters.filter((_, j) => j !== p) })}
                      />
                    </div>
                  ))}
                  <Button
                    variant="ghost"
                    size="sm"
                    className="self-start"
                    onClick={() => update(i, { parameters: [...idea.parameters, { key: '', value: '' }] })}
                  >
                    <Plus aria-hidden="true" className="size-3.5" />
                    {S.wizardAddParam}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ))}
      {step === 2 && (
        <div className="flex flex-col gap-3" role="status">
          <p className="text-sm font-medium text-slate-800">{S.wizardGenerated(created.length)}</p>
          {created.map((c) => (
            <section key={c.name} className="rounded-xl border border-slate-200 p-3">
              <h3 className="text-sm font-semibold text-slate-900">{c.name}</h3>
              <pre className="mt-1 overflow-x-auto text-xs text-slate-700">{c.steps.join('\n')}</pre>
            </section>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="wizard-error">
          {error}
        </p>
      )}
    </Modal>
  );
}
