import * as Popover from '@radix-ui/react-popover';
import {
  environmentDisplayName,
  featureDisplayName,
  Messages,
  type FeatureSummary,
  type ScenarioSummary,
  type StepInfo,
} from '@rehearse/contract';
import {
  Bot,
  Check,
  ChevronDown,
  Code2,
  MessageSquare,
  MoreHorizontal,
  Pencil,
  Play,
  Plug,
  Plus,
  Sparkles,
  Tag,
  Video,
  X,
} from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { ErrorPanel } from '../../components/ErrorPanel';
import { IconButton } from '../../components/IconButton';
import { Menu, MenuItem } from '../../components/Menu';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { useRunInstructions } from '../../features/executions/queries';
import { useLicence } from '../../features/licence/LicenceProvider';
import { CodeEditor } from '../../features/scenarios/editor/lazy';
import {
  useGenerateStep,
  usePushScenario,
  useRunScenario,
  useScenarioJob,
  useGherkinHelp,
  useScenarioSteps,
  useSetScenarioTags,
} from '../../features/scenarios/queries';
import { FeatureStrings as S } from '../../features/scenarios/strings';
import type { WorkspaceScope } from '../../features/workspace/scope';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { UndefinedSteps } from './UndefinedSteps';

export type PanelAction = 'renameScenario' | 'renameFeature' | 'deleteScenario' | 'deleteFeature';

interface ScenarioPanelProps {
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

/** The recorder opened on this scenario (spec 01 §4 params), in a new tab. */
export function recorderLink(
  scope: WorkspaceScope,
  feature: string,
  scenario: string,
  environment: string | null,
  extra: Record<string, string> = {},
) {
  const params = new URLSearchParams({
    project_id: scope.projectId,
    // A new recording (from 'Create a test scenario') names no feature or scenario yet.
    ...(feature ? { feature_file: feature } : {}),
    ...(scenario ? { scenario_name: scenario } : {}),
    fromMainApp: 'true',
    ...(environment ? { env_name: environment } : {}),
    ...(scope.branch ? { git_branch: scope.branch } : {}),
    ...extra,
  });
  return `/open-recorder/recorder?${params.toString()}`;
}

/** "line 4: inconsistent cell count" → { line: 4, reason }. */
function parserError(message: string): { line: number; reason: string } | null {
  const match = /^line (\d+): (.*)$/s.exec(message);
  return match ? { line: Number(match[1]), reason: match[2]! } : null;
}

/** The scenario text as the editor shows it: its lines without the file's indentation. */
function dedent(text: string): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length));
  return `${lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n')}\n`;
}

/**
 * One scenario: header (title, tags, Add tag, actions, edit recording, Run scenario), the
 * Gherkin file view (view → edit → save/discard) with its steps, and the Code output view.
 */
export function ScenarioPanel(props: ScenarioPanelProps) {
  const { scope, feature, scenario, environment, onOpenStep } = props;
  const featureName = featureDisplayName(feature.name);
  const licence = useLicence();
  const steps = useScenarioSteps(scope, featureName, scenario.name);
  const [view, setView] = useState<'gherkin' | 'code'>('gherkin');

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScenarioHeader {...props} featureName={featureName} />
      <div className="flex items-center gap-1 border-b border-slate-200 px-6" role="tablist" aria-label={S.viewsLabel}>
        {(
          [
            ['gherkin', S.viewGherkin, 'gherkin-tab'],
            ['code', S.viewCode, 'code-tab'],
          ] as const
        ).map(([id, label, tour]) => (
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
              scenarioIndex={props.scenarioIndex}
              environment={environment}
              steps={steps.data}
              loading={steps.isPending}
              error={steps.isError ? errorMessage(steps.error) : null}
              onRetry={() => void steps.refetch()}
              onOpenStep={onOpenStep}
              guard={licence.guard}
            />
          </div>
        ) : (
          <div id="panel-code" role="tabpanel" aria-labelledby="view-code">
            <CodeOutput
              steps={steps.data}
              loading={steps.isPending}
              error={steps.isError ? errorMessage(steps.error) : null}
              onRetry={() => void steps.refetch()}
            />
          </div>
        )}
      </div>
    </div>
  );
}

function ScenarioHeader({
  scope,
  feature,
  featureName,
  scenario,
  scenarioIndex,
  environment,
  onAction,
}: ScenarioPanelProps & { featureName: string }) {
  const licence = useLicence();
  const setTags = useSetScenarioTags(scope);
  const [tagOpen, setTagOpen] = useState(false);
  const [tagText, setTagText] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);

  const saveTags = async (tags: string[]) => {
    try {
      await setTags.mutateAsync({ featureName, scenarioIndex, tags });
      return true;
    } catch (error) {
      setTagError(errorMessage(error));
      toast.error(`${S.tagsSaveFailed}: ${errorMessage(error)}`);
      return false;
    }
  };

  const addTag = async () => {
    const tag = tagText.trim().replace(/^@?/, '@');
    if (tag === '@') return;
    if (scenario.tags.includes(tag)) {
      setTagOpen(false);
      return;
    }
    if (await saveTags([...scenario.tags, tag])) {
      setTagText('');
      setTagError(null);
      setTagOpen(false);
    }
  };

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
        <ul className="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Tags" data-tour="tags">
          {scenario.tags.map((tag) => (
            <li
              key={tag}
              className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800"
            >
              {tag}
              <button
                type="button"
                aria-label={S.removeTag(tag)}
                onClick={() => licence.guard(() => void saveTags(scenario.tags.filter((t) => t !== tag)))}
                className="focus-ring flex size-4 items-center justify-center rounded-full hover:bg-brand-100"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
          <li>
            <Popover.Root open={tagOpen} onOpenChange={setTagOpen}>
              <Popover.Trigger asChild>
                <button
                  type="button"
                  className="focus-ring flex items-center gap-1 rounded-full border border-dashed border-slate-300 px-2.5 py-0.5 text-xs font-medium text-slate-600 hover:border-brand-400 hover:text-brand-700"
                >
                  <Tag aria-hidden="true" className="size-3" />
                  {S.addTag}
                </button>
              </Popover.Trigger>
              <Popover.Portal>
                <Popover.Content
                  align="start"
                  sideOffset={6}
                  className="z-40 w-64 rounded-xl border border-slate-200 bg-white p-3 shadow-lg"
                  aria-label={S.addTag}
                >
                  <form
                    onSubmit={(event) => {
                      event.preventDefault();
                      licence.guard(() => void addTag());
                    }}
                    className="flex flex-col gap-2"
                  >
                    <label className="text-xs font-medium text-slate-700" htmlFor="new-tag">
                      {S.tagLabel}
                    </label>
                    <input
                      id="new-tag"
                      value={tagText}
                      onChange={(event) => {
                        setTagText(event.target.value);
                        setTagError(null);
                      }}
                      placeholder={S.tagPlaceholder}
                      className="focus-ring h-9 rounded-lg border border-slate-300 px-2 text-sm"
                      aria-invalid={tagError !== null}
                      aria-describedby={tagError ? 'new-tag-error' : undefined}
                    />
                    {tagError && (
                      <p id="new-tag-error" role="alert" className="text-xs text-red-700">
                        {tagError}
                      </p>
                    )}
                    <Button type="submit" size="sm" disabled={tagText.trim() === '' || setTags.isPending}>
                      <Plus aria-hidden="true" className="size-3.5" />
                      {S.addTag}
                    </Button>
                  </form>
                </Popover.Content>
              </Popover.Portal>
            </Popover.Root>
          </li>
        </ul>
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
          <MenuItem onSelect={() => onAction('renameScenario')}>{S.renameScenario}</MenuItem>
          <MenuItem onSelect={() => onAction('renameFeature')}>{S.renameFeature}</MenuItem>
          <MenuItem onSelect={() => onAction('deleteScenario')}>{S.deleteScenario}</MenuItem>
          <MenuItem onSelect={() => onAction('deleteFeature')}>{S.deleteFeature}</MenuItem>
        </Menu>
      </div>
    </header>
  );
}

/**
 * The generate-code menu (spec 02 §2): asks the AI engine for code for every step that has none,
 * one step at a time; the server's error is shown as it is, and nothing is reported done that the
 * server did not write.
 */
function GenerateCodeMenu({ scope, featureName, scenarioName }: { scope: WorkspaceScope; featureName: string; scenarioName: string }) {
  const licence = useLicence();
  const steps = useScenarioSteps(scope, featureName, scenarioName);
  const generate = useGenerateStep(scope);
  const missing = (steps.data ?? []).filter((step) => !step.implemented);
  const run = () =>
    licence.guard(() => {
      if (missing.length === 0) {
        toast.info(S.allImplemented);
        return;
      }
      void (async () => {
        let done = 0;
        for (const step of missing) {
          try {
            await generate.mutateAsync({ featureName, scenarioName, stepText: step.stepName });
            done += 1;
          } catch (error) {
            toast.error(`${S.generateFailed(step.stepName)}: ${errorMessage(error)}`);
            return;
          }
        }
        toast.success(S.generated(done));
      })();
    });
  return (
    <Menu
      label={S.generateMenu}
      align="end"
      button={
        <span className="flex items-center gap-1.5">
          <Sparkles aria-hidden="true" className="size-3.5" />
          {generate.isPending ? S.generating : S.generateMenu}
          <ChevronDown aria-hidden="true" className="size-3.5" />
        </span>
      }
      buttonClassName="focus-ring flex h-8 items-center rounded-lg border border-slate-300 bg-white px-3 text-xs font-medium text-slate-800 shadow-sm hover:bg-slate-50"
    >
      <MenuItem onSelect={run} title={missing.length === 0 ? S.allImplemented : undefined}>
        {S.generateAll} ({missing.length})
      </MenuItem>
    </Menu>
  );
}

/** Run scenario split button (spec 02 §2): runs on the server's workers and follows the job. */
function RunScenarioButton({
  scope,
  featureName,
  scenarioName,
  environment,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenarioName: string;
  environment: string | null;
}) {
  const licence = useLicence();
  const run = useRunScenario(scope);
  const [jobId, setJobId] = useState<string | null>(null);
  const [ciOpen, setCiOpen] = useState(false);
  const job = useScenarioJob(jobId);

  // A new scenario starts with no job shown.
  useEffect(() => setJobId(null), [featureName, scenarioName]);

  const start = (heal = false) =>
    licence.guard(() => {
      if (!environment) return;
      run.mutate(
        { featureName, scenarioName, environment, heal },
        {
          onSuccess: ({ job: queued }) => setJobId(queued.id),
          onError: (error) => toast.error(`${S.runError}: ${errorMessage(error)}`),
        },
      );
    });

  const state = job.data?.state;
  const busy = run.isPending || state === 'queued' || state === 'running';
  return (
    <div className="flex items-center gap-2">
      {job.data && (
        <span
          role="status"
          data-testid="run-status"
          className={`flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ${
            state === 'passed'
              ? 'bg-emerald-50 text-emerald-800'
              : state === 'failed' || state === 'error'
                ? 'bg-red-50 text-red-800'
                : 'bg-slate-100 text-slate-700'
          }`}
          title={job.data.message ?? undefined}
        >
          {state === 'queued'
            ? S.runQueued
            : state === 'running'
              ? S.runRunning
              : state === 'passed'
                ? S.runPassed
                : state === 'failed'
                  ? S.runFailed
                  : S.runError}
          {job.data.runId && (
            <Link to={`/${scope.projectId}/run-report/${job.data.runId}`} className="underline">
              {S.viewReport}
            </Link>
          )}
        </span>
      )}
      <div className="flex">
        <Button
          size="sm"
          className="rounded-r-none"
          onClick={() => start()}
          disabled={busy}
          disabledReason={environment ? null : S.runNeedsEnvironment}
        >
          <Play aria-hidden="true" className="size-3.5" />
          {S.runScenario}
        </Button>
        <Menu
          label={S.runOptions}
          align="end"
          button={<ChevronDown aria-hidden="true" className="size-3.5" />}
          buttonClassName="focus-ring flex h-8 items-center rounded-r-lg border-l border-brand-700 bg-brand-600 px-1.5 text-white hover:bg-brand-700"
        >
          {/* Heals elements no locator finds and files the fix in Code Review (DESIGN §8). */}
          <MenuItem onSelect={() => start(true)}>{S.runWithAi}</MenuItem>
          <MenuItem onSelect={() => setCiOpen(true)}>{S.runViaCi}</MenuItem>
        </Menu>
      </div>
      <Modal open={ciOpen} onOpenChange={setCiOpen} title={S.ciTitle} description={S.ciText} size="lg">
        {ciOpen && <ScenarioCiInstructions scope={scope} featureName={featureName} scenarioName={scenarioName} environment={environment} />}
      </Modal>
    </div>
  );
}

/** The scenario's "Run via CI/CD" text, from the server (the one source of CI text), with a copy button. */
function ScenarioCiInstructions({
  scope,
  featureName,
  scenarioName,
  environment,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenarioName: string;
  environment: string | null;
}) {
  const instructions = useRunInstructions(scope.projectId, {
    env: environment ? environmentDisplayName(environment) : undefined,
    branch: scope.branch,
    feature: featureName,
    scenario: scenarioName,
  });
  if (instructions.isPending) return <Spinner />;
  if (instructions.isError)
    return <ErrorPanel title={S.ciLoadFailed} detail={errorMessage(instructions.error)} onRetry={() => void instructions.refetch()} />;
  const shell = instructions.data.instructions.find((item) => item.id === 'shell');
  if (!shell) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <CopyButton text={shell.content} />
      </div>
      <pre
        className="whitespace-pre-wrap rounded-lg [overflow-wrap:anywhere] bg-slate-900 p-4 text-xs text-slate-100"
        data-testid="ci-instructions"
      >
        {shell.content}
      </pre>
    </div>
  );
}

/** The scenario's Gherkin: read-only until Edit; Save writes it, Discard restores it. */
function GherkinView({
  scope,
  featureName,
  scenario,
  scenarioIndex,
  onDirtyChange,
  unsavedPrompt,
  onUnsavedPromptClose,
}: ScenarioPanelProps & { featureName: string }) {
  const licence = useLicence();
  const push = usePushScenario(scope);
  const original = dedent(scenario.content);
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
      toast.success(Messages.changesSaved);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
  };

  const discard = () => {
    setText(original);
    setEditing(false);
    setError(null);
  };

  const parsed = error ? parserError(error) : null;
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
      <Modal
        open={unsavedPrompt}
        onOpenChange={(open) => !open && onUnsavedPromptClose()}
        title={S.unsavedTitle}
        description={S.unsavedText}
        alert
        size="md"
        testId="unsaved-dialog"
        footer={
          <>
            <Button variant="ghost" onClick={onUnsavedPromptClose}>
              {S.keepEditing}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                discard();
                onUnsavedPromptClose();
              }}
            >
              {S.discardChanges}
            </Button>
            <Button
              onClick={() => {
                onUnsavedPromptClose();
                void save();
              }}
            >
              {S.saveChanges}
            </Button>
          </>
        }
      />
    </section>
  );
}

function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'muted'; children: ReactNode }) {
  const tones = { ok: 'bg-emerald-50 text-emerald-800', warn: 'bg-amber-50 text-amber-900', muted: 'bg-slate-100 text-slate-700' };
  return <span className={`shrink-0 rounded-full px-2 py-0.5 text-[11px] font-medium ${tones[tone]}`}>{children}</span>;
}

/** Steps of the scenario: implemented or not, their source, and the step toolbar for the selected one. */
function StepsList({
  scope,
  featureName,
  scenario,
  scenarioIndex,
  environment,
  steps,
  loading,
  error,
  onRetry,
  onOpenStep,
  guard,
}: {
  scope: WorkspaceScope;
  featureName: string;
  scenario: ScenarioSummary;
  scenarioIndex: number;
  environment: string | null;
  steps: StepInfo[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  onOpenStep: (step: StepInfo) => void;
  guard: (action: () => void) => void;
}) {
  const [selected, setSelected] = useState(0);
  const [commentOpen, setCommentOpen] = useState(false);
  const generate = useGenerateStep(scope);
  const push = usePushScenario(scope);
  const scenarioText = dedent(scenario.content);

  useEffect(() => setSelected(0), [featureName, scenario.name]);

  if (loading) {
    return (
      <p role="status" className="text-sm text-slate-500">
        {S.stepsLabel}…
      </p>
    );
  }
  if (error !== null) return <ErrorPanel title={S.stepsLoadFailed} detail={error} onRetry={onRetry} />;
  if (!steps || steps.length === 0) return <p className="text-sm text-slate-500">{S.noSteps}</p>;

  const step = steps[Math.min(selected, steps.length - 1)]!;
  const builtIn = step.source === 'user';
  const runGenerate = () =>
    guard(() =>
      generate.mutate(
        { featureName, scenarioName: scenario.name, stepText: step.stepName },
        { onError: (failure) => toast.error(errorMessage(failure)) },
      ),
    );

  return (
    <section aria-labelledby="steps-title" className="flex min-w-0 flex-col gap-3">
      <h2 id="steps-title" className="text-sm font-semibold text-slate-800">
        {S.stepsLabel}
      </h2>
      <ol className="flex flex-col gap-1" data-testid="steps">
        {steps.map((s, i) => (
          <li key={`${s.line}-${i}`}>
            <button
              type="button"
              aria-pressed={i === selected}
              onClick={() => setSelected(i)}
              className={`focus-ring flex w-full items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm ${
                i === selected ? 'border-brand-300 bg-brand-50/60' : 'border-slate-200 bg-white hover:bg-slate-50'
              }`}
            >
              <span className="font-semibold text-brand-700">{s.keyword.trim()}</span>
              <span className="min-w-0 flex-1 truncate text-slate-800">{s.stepName}</span>
              {s.implemented ? (
                <Badge tone="ok">{s.mjsFile === null ? S.builtIn : s.source ? (S.source[s.source] ?? s.source) : S.implemented}</Badge>
              ) : (
                <Badge tone="warn">{S.notImplemented}</Badge>
              )}
            </button>
          </li>
        ))}
      </ol>
      <div
        role="toolbar"
        aria-label={S.toolbarLabel}
        className="flex flex-wrap items-center gap-1 rounded-lg border border-slate-200 bg-white p-1"
      >
        <IconButton label={S.aiGenerate} icon={Sparkles} onClick={runGenerate} disabled={generate.isPending} />
        <IconButton label={S.comment} icon={MessageSquare} onClick={() => guard(() => setCommentOpen(true))} />
        <IconButton
          label={S.implementViaApi}
          icon={Plug}
          disabledReason={builtIn ? S.implementViaApiUser : null}
          onClick={() =>
            guard(() =>
              window.open(
                recorderLink(scope, `${featureName}.feature`, scenario.name, environment, {
                  step_index: String(selected),
                  stepSource: 'api',
                }).replace('/recorder?', '/apitest?'),
                '_blank',
              ),
            )
          }
        />
        <IconButton
          label={S.viewCodeButton}
          icon={Code2}
          onClick={() => onOpenStep(step)}
          disabledReason={step.mjsFile ? null : S.builtInText}
        />
      </div>
      {!step.implemented ? (
        <div
          className="flex flex-col gap-3 rounded-xl border border-dashed border-amber-300 bg-amber-50/60 p-4"
          data-testid="no-code-panel"
        >
          <div className="flex items-center gap-2 text-sm font-semibold text-amber-900">
            <Bot aria-hidden="true" className="size-4" />
            {S.noCodeTitle}
          </div>
          <p className="text-sm text-amber-900">{S.noCodeText}</p>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() =>
                guard(() =>
                  window.open(
                    recorderLink(scope, `${featureName}.feature`, scenario.name, environment, { step_index: String(selected) }),
                    '_blank',
                  ),
                )
              }
            >
              <Video aria-hidden="true" className="size-3.5" />
              {S.record}
            </Button>
            <Button size="sm" onClick={runGenerate} disabled={generate.isPending}>
              <Sparkles aria-hidden="true" className="size-3.5" />
              {generate.isPending ? S.generating : S.generateCode}
            </Button>
          </div>
        </div>
      ) : step.mjsFile === null ? (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{S.builtInText}</p>
      ) : null}
      <CommentDialog
        open={commentOpen}
        onOpenChange={setCommentOpen}
        initial={existingComment(scenarioText, step)}
        onPublish={async (comment) => {
          await push.mutateAsync({ feature: featureName, text: withComment(scenarioText, step, comment), scenarioIndex });
          toast.success(Messages.changesSaved);
        }}
      />
    </section>
  );
}

/** The line of `step` in the scenario text (0-based), matched by keyword and text. */
function stepLineIndex(text: string, step: StepInfo): number {
  const wanted = `${step.keyword.trim()} ${step.stepName}`;
  return text.split('\n').findIndex((line) => line.trim() === wanted);
}

/** The comment right above a step (`# ...`), or ''. */
function existingComment(text: string, step: StepInfo): string {
  const lines = text.split('\n');
  const at = stepLineIndex(text, step);
  const above = at > 0 ? lines[at - 1]!.trim() : '';
  return above.startsWith('#') ? above.slice(1).trim() : '';
}

/** The scenario text with `comment` as the `# ...` line right above the step (replacing one there). */
function withComment(text: string, step: StepInfo, comment: string): string {
  const lines = text.split('\n');
  const at = stepLineIndex(text, step);
  if (at < 0) return text;
  const indent = /^\s*/.exec(lines[at]!)![0];
  const line = `${indent}# ${comment.trim().replace(/\s*\n\s*/g, ' ')}`;
  if (at > 0 && lines[at - 1]!.trim().startsWith('#')) lines[at - 1] = line;
  else lines.splice(at, 0, line);
  return lines.join('\n');
}

/**
 * Comment on a step (spec 02 §5: Publish disabled if empty or unchanged): kept in the scenario
 * file as a Gherkin comment above the step, so it travels with the scenario in git.
 */
function CommentDialog({
  open,
  onOpenChange,
  initial,
  onPublish,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initial: string;
  onPublish: (comment: string) => Promise<void>;
}) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setText(initial);
      setError(null);
    }
  }, [open, initial]);
  const unchanged = text.trim() === '' || text.trim() === initial.trim();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={S.commentTitle}
      description={S.commentHint}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            disabled={unchanged || busy}
            onClick={() => {
              setBusy(true);
              setError(null);
              onPublish(text)
                .then(() => onOpenChange(false))
                .catch((failure: unknown) => setError(errorMessage(failure)))
                .finally(() => setBusy(false));
            }}
          >
            {S.publish}
          </Button>
        </>
      }
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-700">
        {S.commentLabel}
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          className="focus-ring rounded-lg border border-slate-300 p-2 text-sm font-normal"
        />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}

function lastGenerated(iso: string | null): string {
  if (!iso) return S.lastGeneratedNoData;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return S.lastGeneratedInvalid;
  const { date, time } = formatDateTime(iso);
  return S.lastGenerated(`${date} ${time}`);
}

/** Code output (spec 02 §2): the code behind each step, grouped by file, with its date and errors. */
function CodeOutput({
  steps,
  loading,
  error,
  onRetry,
}: {
  steps: StepInfo[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  if (loading)
    return (
      <p role="status" className="text-sm text-slate-500">
        {S.stepsLabel}…
      </p>
    );
  if (error !== null) return <ErrorPanel title={S.stepsLoadFailed} detail={error} onRetry={onRetry} />;
  if (!steps || steps.length === 0) return <p className="text-sm text-slate-500">{S.noSteps}</p>;
  const files = new Map<string, StepInfo[]>();
  for (const step of steps) if (step.mjsFile) files.set(step.mjsFile, [...(files.get(step.mjsFile) ?? []), step]);
  const builtIns = steps.filter((step) => !step.mjsFile);
  return (
    <div className="flex flex-col gap-5" data-testid="code-output">
      {[...files.entries()].map(([file, fileSteps]) => {
        const first = fileSteps[0]!;
        return (
          <section key={file} className="rounded-xl border border-slate-200 bg-white">
            <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2.5">
              <h2 className="font-mono text-sm font-medium text-slate-800">{file}</h2>
              <span className="ml-auto text-xs text-slate-500">{lastGenerated(first.implemented_at)}</span>
            </header>
            <ul className="flex flex-col gap-1 px-4 py-2 text-sm text-slate-700">
              {fileSteps.map((step, i) => (
                <li key={`${step.line}-${i}`}>
                  <span className="font-semibold text-brand-700">{step.keyword.trim()}</span> {step.stepName}
                </li>
              ))}
            </ul>
            {fileSteps.some((step) => step.isNotValid) && (
              <p role="alert" className="mx-4 mb-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                {S.codeErrors}
              </p>
            )}
            <pre className="max-h-96 overflow-auto border-t border-slate-100 bg-slate-50 px-4 py-3 font-mono text-xs text-slate-800">
              {first.mjsFileContent ?? ''}
            </pre>
          </section>
        );
      })}
      {builtIns.length > 0 && (
        <section className="rounded-xl border border-slate-200 bg-white px-4 py-3">
          <h2 className="mb-1 text-sm font-semibold text-slate-800">{S.builtIn}</h2>
          <ul className="flex flex-col gap-1 text-sm text-slate-700">
            {builtIns.map((step, i) => (
              <li key={`${step.line}-${i}`}>
                <span className="font-semibold text-brand-700">{step.keyword.trim()}</span> {step.stepName}
                {!step.implemented && <span className="ml-2 text-xs text-amber-800">({S.notImplemented})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
