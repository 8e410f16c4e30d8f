import { Messages, scenarioHasAnyTag, type ExecutionInput, type Project, type Schedule, type TaggedScenario } from '@rehearse/contract';
import { Eye } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Checkbox';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useEnvironments } from '../environments/queries';
import { envDisplayName } from '../reports/report-rules';
import { useWorkspaceScope } from '../workspace/scope';
import { useExecutionMutations, useFreeThreads, usePlannerFeatures } from './queries';
import { defaultSchedule } from './schedule';
import { ScheduleEditor } from './ScheduleEditor';
import { DEFAULT_THREADS } from './threads';
import { saveNotice } from '../../lib/notify';

export interface PlannerValue {
  name: string;
  env: string;
  branch: string;
  tags: string[];
  /** The scenario group's threads (spec 02 §5: from 0 to the available maximum). */
  threadCount: number;
  schedule: Schedule | null;
}

/** Spec 02 §3: a feature's display name drops its 8-character '.feature' suffix. */
export function featureDisplayName(name: string): string {
  return name.endsWith('.feature') ? name.slice(0, -8) : name;
}

/** Scenarios having any of the tags (spec 02 §4: a group's scenarios follow its tags). */
export function scenariosWithTags(features: { name: string; scenarios: ({ name: string } & TaggedScenario)[] }[], tags: string[]) {
  return features.flatMap((f) => f.scenarios.filter((s) => scenarioHasAnyTag(s, tags)).map((s) => ({ feature: f.name, scenario: s.name })));
}

const STEPS = [Strings.plannerStep1, Strings.plannerStep2, Strings.plannerStep3];

/**
 * The planner (spec 02 §2 "Planner dialog", §4): Define an execution → Select scenarios →
 * Schedule execution, with Back after step 1, Cancel that closes and resets, 'Skip for now' that
 * clears the schedule, and Apply that saves the new execution. In edit mode (`editStep`) only that
 * step is shown, with Save and Cancel; the schedule step can also remove the schedule
 * (`onRemoveSchedule`). Step 2 sets the group's thread count, from 0 to `threadMax` (default: the
 * project's free threads).
 */
export function PlannerDialog({
  project,
  open,
  onOpenChange,
  editStep,
  initial,
  onSaveEdit,
  onRemoveSchedule,
  threadMax,
}: {
  project: Project;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editStep?: 0 | 1 | 2;
  initial?: PlannerValue;
  onSaveEdit?: (value: PlannerValue) => void;
  onRemoveSchedule?: () => void;
  threadMax?: number;
}) {
  const scope = useWorkspaceScope(project);
  const environments = useEnvironments(scope);
  const features = usePlannerFeatures(scope);
  const { create } = useExecutionMutations(project.id);
  const freeThreads = useFreeThreads(project.id);
  const maxThreads = threadMax ?? freeThreads.data?.freeThreads ?? DEFAULT_THREADS;
  const blank = (): PlannerValue => ({ name: '', env: '', branch: 'main', tags: [], threadCount: 1, schedule: defaultSchedule() });
  const [value, setValue] = useState<PlannerValue>(initial ?? blank());
  const [step, setStep] = useState<number>(editStep ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { env: useId(), branch: useId() };

  // Opening starts over from what the caller gives; nothing else resets it (an effect event reads
  // the caller's props without making them reasons to start over).
  const startOver = useEffectEvent(() => {
    setValue(initial ?? blank());
    setStep(editStep ?? 0);
    setErrors({});
    create.reset();
  });
  useEffect(() => {
    if (open) startOver();
  }, [open]);

  // The environment defaults to the first one once the list arrives.
  const envs = environments.data?.allEnv ?? [];
  const firstEnv = environments.data?.allEnv[0]?.name;
  const lastActiveEnv = environments.data?.lastActiveEnv;
  useEffect(() => {
    if (open && !value.env && firstEnv) setValue((v) => ({ ...v, env: lastActiveEnv ?? firstEnv }));
  }, [open, firstEnv, value.env, lastActiveEnv]);

  const matching = useMemo(() => scenariosWithTags(features.data?.features ?? [], value.tags), [features.data, value.tags]);

  const validate = (at: number): boolean => {
    const next: Record<string, string> = {};
    if (at === 0) {
      if (!value.name.trim()) next.name = Messages.executionNameRequired;
      if (!value.env) next.env = Messages.executionEnvRequired;
      if (!value.branch) next.branch = Messages.executionBranchRequired;
    }
    if (at === 1 && value.tags.length === 0) next.tags = Messages.groupTagRequired;
    if (at === 1 && !(Number.isInteger(value.threadCount) && value.threadCount >= 0 && value.threadCount <= maxThreads)) {
      next.threadCount = Messages.threadCountInvalid;
    }
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const save = (schedule: Schedule | null) => {
    const body: ExecutionInput = {
      projectId: project.id,
      name: value.name.trim(),
      env: value.env,
      branch: value.branch,
      flows: [
        {
          viewport: 'Desktop - 1024px',
          browser: 'Chromium',
          scenarioGroups: [{ name: 'Scenario Group 1', threadCount: value.threadCount, tags: value.tags }],
        },
      ],
      schedule,
      isSingleThreaded: false,
      enabled: schedule !== null,
    };
    create.mutate(body, {
      onSuccess: () => {
        saveNotice.success(Messages.executionSaved);
        onOpenChange(false);
      },
    });
  };

  const editing = editStep !== undefined;
  const footer = editing ? (
    <>
      {step === 2 && onRemoveSchedule && (
        <Button
          variant="ghost"
          className="mr-auto text-red-700"
          onClick={() => {
            onRemoveSchedule();
            onOpenChange(false);
          }}
        >
          {Strings.detailRemoveSchedule}
        </Button>
      )}
      <Button variant="secondary" onClick={() => onOpenChange(false)}>
        {Strings.commentCancel}
      </Button>
      <Button
        onClick={() => {
          if (!validate(step)) return;
          onSaveEdit?.(value);
          onOpenChange(false);
        }}
      >
        {Strings.commentSave}
      </Button>
    </>
  ) : (
    <>
      <Button variant="ghost" onClick={() => onOpenChange(false)} className="mr-auto">
        {Strings.commentCancel}
      </Button>
      {step > 0 && (
        <Button variant="secondary" onClick={() => setStep(step - 1)}>
          {Strings.plannerBack}
        </Button>
      )}
      {step < 2 ? (
        <Button onClick={() => validate(step) && setStep(step + 1)}>{Strings.plannerNext}</Button>
      ) : (
        <>
          <Button variant="secondary" disabled={create.isPending} onClick={() => save(null)}>
            {Strings.plannerSkip}
          </Button>
          <Button disabled={create.isPending} onClick={() => save(value.schedule)}>
            {Strings.plannerApply}
          </Button>
        </>
      )}
    </>
  );

  const selectClass =
    'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 disabled:bg-slate-50 disabled:text-slate-500';

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? STEPS[step] : Strings.plannerTitle}
      size="lg"
      footer={footer}
      testId="planner"
    >
      {!editing && (
        <ol className="mb-5 flex items-center gap-2 text-sm" aria-label={Strings.plannerProgress}>
          {STEPS.map((label, i) => (
            <li key={label} aria-current={i === step ? 'step' : undefined} className="flex items-center gap-2">
              <span
                className={`flex size-6 items-center justify-center rounded-full text-xs font-semibold ${i <= step ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700'}`}
              >
                {i + 1}
              </span>
              <span className={i === step ? 'font-semibold text-slate-900' : 'text-slate-600'}>{label}</span>
              {i < 2 && <span aria-hidden="true" className="mx-1 h-px w-6 bg-slate-300" />}
            </li>
          ))}
        </ol>
      )}
      {step === 0 && (
        <div className="flex flex-col gap-4">
          <TextField
            label={Strings.execName}
            value={value.name}
            error={errors.name}
            onChange={(e) => setValue({ ...value, name: e.target.value })}
            autoFocus
          />
          <div>
            <label htmlFor={ids.env} className="mb-1.5 block text-sm font-medium text-slate-700">
              {Strings.execEnvironment}
            </label>
            <select
              id={ids.env}
              className={selectClass}
              value={value.env}
              onChange={(e) => setValue({ ...value, env: e.target.value })}
              aria-invalid={Boolean(errors.env)}
            >
              {envs.length === 0 && <option value="">{environments.isPending ? Strings.loading : '-'}</option>}
              {envs.map((env) => (
                <option key={env.name} value={env.name}>
                  {envDisplayName(env.name)}
                </option>
              ))}
            </select>
            {errors.env && <p className="mt-1 text-sm text-red-700">{errors.env}</p>}
          </div>
          <div>
            <label htmlFor={ids.branch} className="mb-1.5 block text-sm font-medium text-slate-700">
              {Strings.execBranch}
            </label>
            {/* Spec 02 §5: the branch picker is disabled; executions run main. */}
            <select id={ids.branch} className={selectClass} value={value.branch} disabled>
              <option value="main">main</option>
            </select>
          </div>
        </div>
      )}
      {step === 1 && (
        <div className="flex flex-col gap-4">
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-700">{Strings.execTags}</legend>
            {features.isPending ? (
              <p className="text-sm text-slate-500">{Strings.loading}</p>
            ) : features.isError ? (
              <p role="alert" className="text-sm text-red-700">
                {errorMessage(features.error)}
              </p>
            ) : (features.data?.allTags.length ?? 0) === 0 ? (
              <p className="text-sm text-slate-600">{Strings.execNoTags}</p>
            ) : (
              <div className="flex flex-wrap gap-2">
                {(features.data?.allTags ?? []).map((tag) => (
                  <label
                    key={tag}
                    className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
                  >
                    <Checkbox
                      checked={value.tags.includes(tag)}
                      onChange={() =>
                        setValue({ ...value, tags: value.tags.includes(tag) ? value.tags.filter((t) => t !== tag) : [...value.tags, tag] })
                      }
                    />
                    {tag}
                  </label>
                ))}
              </div>
            )}
            {errors.tags && <p className="mt-2 text-sm text-red-700">{errors.tags}</p>}
          </fieldset>
          <TextField
            label={Strings.execThreadCount}
            type="number"
            inputMode="numeric"
            min={0}
            max={maxThreads}
            step={1}
            className="w-56"
            value={Number.isNaN(value.threadCount) ? '' : String(value.threadCount)}
            error={errors.threadCount}
            hint={Strings.execThreadCountHint(maxThreads)}
            onChange={(e) => setValue({ ...value, threadCount: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
          />
          <section aria-label={Strings.execMatching}>
            <h3 className="mb-2 text-sm font-medium text-slate-700">
              {Strings.execMatching} ({matching.length})
            </h3>
            <ul
              className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
              data-testid="planner-scenarios"
            >
              {matching.length === 0 ? (
                <li className="px-3 py-4 text-center text-sm text-slate-500">{Strings.execNoMatching}</li>
              ) : (
                matching.map((m) => (
                  <li key={`${m.feature}/${m.scenario}`} className="flex items-center gap-2 px-3 py-2 text-sm">
                    <span className="min-w-0 flex-1 truncate">
                      <span className="text-slate-500">{featureDisplayName(m.feature)} · </span>
                      {m.scenario}
                    </span>
                    <a
                      href={`/${project.id}/features?feature=${encodeURIComponent(m.feature)}&scenario=${encodeURIComponent(m.scenario)}`}
                      target="_blank"
                      rel="noreferrer"
                      aria-label={Strings.execViewScenario(m.scenario)}
                      className="focus-ring rounded p-1 text-slate-500 hover:text-brand-700"
                    >
                      <Eye aria-hidden="true" className="size-4" />
                    </a>
                  </li>
                ))
              )}
            </ul>
          </section>
        </div>
      )}
      {step === 2 && (
        <ScheduleEditor value={value.schedule ?? defaultSchedule()} onChange={(schedule) => setValue({ ...value, schedule })} />
      )}
      {create.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {Messages.executionSaveFailed}: {errorMessage(create.error)}
        </p>
      )}
    </Modal>
  );
}
