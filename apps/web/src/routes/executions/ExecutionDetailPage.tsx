import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { BROWSERS, Messages, scheduleText, VIEWPORTS, type Execution, type ExecutionInput, type Schedule } from '@rehearse/contract';
import { ArrowLeft, ChevronDown, ChevronRight, Copy, GripVertical, Minus, MoreHorizontal, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Menu, MenuHeader, MenuItem } from '../../components/Menu';
import { Modal } from '../../components/Modal';
import { FullPageSpinner } from '../../components/Spinner';
import { useEnvironments } from '../../features/environments/queries';
import { PlannerDialog, scenariosWithTags } from '../../features/executions/PlannerDialog';
import { toInput, useExecution, useExecutionMutations, useFreeThreads, usePlannerFeatures } from '../../features/executions/queries';
import { defaultSchedule } from '../../features/executions/schedule';
import { DEFAULT_THREADS, groupThreadMax, hasThreadsToRun } from '../../features/executions/threads';
import { envDisplayName } from '../../features/reports/report-rules';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { saveNotice } from '../../lib/notify';

type Group = ExecutionInput['flows'][number]['scenarioGroups'][number] & { key: string };
type Flow = { viewport: string; browser: string; groups: Group[]; key: string; open: boolean };

let keySeq = 0;
const nextKey = () => `k${(keySeq += 1)}`;

/**
 * Execution detail (spec 02 §2 "Execution detail"): flows of scenario groups, groups reordered by
 * drag and drop within their flow, thread counters, environment, Save. The planner's steps open in
 * edit mode (spec 02 §3): Define (name, environment), Select scenarios (a group's tags and
 * threads) and Schedule (which can also remove the schedule). Cancel with unsaved changes asks.
 */
export function ExecutionDetailPage() {
  const { execId = '' } = useParams();
  const execution = useExecution(execId);
  useDocumentTitle(execution.data?.name ?? Strings.execTitle);
  if (execution.isPending) return <FullPageSpinner label={Strings.execLoading} />;
  if (execution.isError)
    return <ErrorPanel title={Strings.execLoadFailed} detail={errorMessage(execution.error)} onRetry={() => void execution.refetch()} />;
  return <Editor key={execution.data.id} execution={execution.data} />;
}

function Editor({ execution }: { execution: Execution }) {
  const { project } = useCurrentProject();
  const navigate = useNavigate();
  const scope = useWorkspaceScope(project);
  const environments = useEnvironments(scope);
  const features = usePlannerFeatures(scope);
  const threads = useFreeThreads(project.id);
  const { update, run } = useExecutionMutations(project.id);
  const [name, setName] = useState(execution.name);
  const [env, setEnv] = useState(execution.env);
  const [schedule, setSchedule] = useState<Schedule | null>(execution.schedule);
  const [editing, setEditing] = useState<{ step: 0 } | { step: 1; flow: number; group: number } | { step: 2 } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [flows, setFlows] = useState<Flow[]>(() =>
    execution.flows.map((f) => ({
      viewport: f.viewport,
      browser: f.browser,
      key: nextKey(),
      open: true,
      groups: f.scenarioGroups.map((g) => ({ name: g.name, threadCount: g.threadCount, tags: g.tags, key: nextKey() })),
    })),
  );
  useEffect(() => {
    if (threads.isError) toast.error(Strings.execThreadsFailed);
  }, [threads.isError]);

  const available = threads.data?.freeThreads ?? DEFAULT_THREADS;
  const scenarioCount = (tags: string[]) => scenariosWithTags(features.data?.features ?? [], tags).length;
  const setFlow = (i: number, change: (f: Flow) => Flow) => setFlows((all) => all.map((f, j) => (j === i ? change(f) : f)));
  const runnable = hasThreadsToRun(
    { isSingleThreaded: execution.isSingleThreaded, flows: flows.map((f) => ({ scenarioGroups: f.groups })) },
    threads.data?.freeThreads,
  );
  const envs = environments.data?.allEnv ?? [];

  const body = (): ExecutionInput => ({
    ...toInput(execution),
    name,
    env,
    schedule,
    // Without a schedule nothing can be enabled; a schedule given to a draft enables it, as the planner does.
    enabled: schedule !== null && (execution.enabled || execution.schedule === null),
    flows: flows.map((f) => ({
      viewport: f.viewport as ExecutionInput['flows'][number]['viewport'],
      browser: f.browser as ExecutionInput['flows'][number]['browser'],
      scenarioGroups: f.groups.map(({ name, threadCount, tags }) => ({ name, threadCount, tags })),
    })),
  });
  // What Save would send, as first shown: Cancel asks only when it differs (collapsing a flow is no change).
  const [pristine] = useState(() => JSON.stringify(body()));
  const dirty = JSON.stringify(body()) !== pristine;
  const leave = (event?: MouseEvent) => {
    event?.preventDefault();
    if (dirty) setLeaving(true);
    else void navigate(`/${project.id}/executions`);
  };
  // mutateAsync, not mutate's callbacks: saving refetches the execution, and the toast and the
  // navigation must happen even if this editor re-renders from the fresh data first.
  const save = async () => {
    try {
      await update.mutateAsync({
        id: execution.id,
        body: body(),
        scheduleChanged: JSON.stringify(schedule) !== JSON.stringify(execution.schedule),
      });
      saveNotice.success(Messages.executionSaved);
      void navigate(`/${project.id}/executions`);
    } catch (error) {
      saveNotice.error(`${Messages.executionSaveFailed}: ${errorMessage(error)}`);
    }
  };
  const newGroup = (f: Flow): Group => ({
    name: Strings.detailGroupName(f.groups.length + 1),
    threadCount: 0,
    tags: f.groups[0]?.tags ?? [],
    key: nextKey(),
  });
  const editingGroup = editing?.step === 1 ? flows[editing.flow]?.groups[editing.group] : undefined;
  const planned = { name, env, branch: execution.branch, tags: [], threadCount: 0, schedule };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-5 px-8 py-6">
      <Link
        to={`/${project.id}/executions`}
        onClick={leave}
        className="focus-ring inline-flex w-fit items-center gap-1 rounded text-sm text-slate-600 hover:text-brand-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {Strings.detailBack}
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <div className="flex min-w-0 items-center gap-1">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900">{name}</h1>
            <Button size="icon" variant="ghost" aria-label={Strings.detailRename} onClick={() => setEditing({ step: 0 })}>
              <Pencil aria-hidden="true" className="size-4" />
            </Button>
          </div>
          <button
            type="button"
            onClick={() => setEditing({ step: 2 })}
            aria-label={`${Strings.detailScheduleEdit}: ${scheduleText(schedule)}`}
            className="focus-ring mt-1 rounded text-sm text-brand-700 hover:underline"
          >
            {schedule ? scheduleText(schedule) : Strings.detailNoSchedule}
          </button>
          <p className="mt-1 text-xs text-slate-600" data-testid="threads-available">
            {Strings.detailThreads(available)}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor="exec-env">
            {Strings.execEnvironment}
          </label>
          <select
            id="exec-env"
            value={env}
            onChange={(e) => setEnv(e.target.value)}
            className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm"
          >
            {!envs.some((e) => e.name === env) && <option value={env}>{envDisplayName(env)}</option>}
            {envs.map((e) => (
              <option key={e.name} value={e.name}>
                {envDisplayName(e.name)}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            disabledReason={!runnable ? Messages.insufficientThreads : execution.running ? Messages.executionRunning : null}
            onClick={() =>
              run.mutate(execution.id, {
                onSuccess: () => void navigate(`/${project.id}/executions`),
                onError: (e) => toast.error(errorMessage(e)),
              })
            }
          >
            {Strings.execRun}
          </Button>
          <Button variant="secondary" onClick={() => leave()}>
            {Strings.detailCancel}
          </Button>
          <Button onClick={() => void save()} disabled={update.isPending}>
            {Strings.detailSave}
          </Button>
        </div>
      </div>

      <div className="flex gap-2">
        <Button size="sm" variant="ghost" onClick={() => setFlows((all) => all.map((f) => ({ ...f, open: true })))}>
          {Strings.detailExpandAll}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setFlows((all) => all.map((f) => ({ ...f, open: false })))}>
          {Strings.detailCollapseAll}
        </Button>
      </div>

      {flows.map((flow, fi) => (
        <section
          key={flow.key}
          aria-label={Strings.detailFlow(fi + 1)}
          className="rounded-xl border border-slate-200 bg-white shadow-xs"
          data-testid="flow"
        >
          <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
            <button
              type="button"
              aria-expanded={flow.open}
              onClick={() => setFlow(fi, (f) => ({ ...f, open: !f.open }))}
              className="focus-ring flex items-center gap-1 rounded font-semibold text-slate-900"
            >
              {flow.open ? <ChevronDown aria-hidden="true" className="size-4" /> : <ChevronRight aria-hidden="true" className="size-4" />}
              {Strings.detailFlow(fi + 1)}
            </button>
            {/* Spec 02 §5: browser and viewport pickers are disabled (Chromium, Desktop - 1024px). */}
            <select
              aria-label={Strings.detailBrowser}
              value={flow.browser}
              disabled
              className="h-8 rounded-md border border-slate-300 bg-slate-50 px-2 text-xs text-slate-700"
            >
              {BROWSERS.map((b) => (
                <option key={b}>{b}</option>
              ))}
            </select>
            <select
              aria-label={Strings.detailViewport}
              value={flow.viewport}
              disabled
              className="h-8 rounded-md border border-slate-300 bg-slate-50 px-2 text-xs text-slate-700"
            >
              {VIEWPORTS.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
            <span className="ml-auto flex gap-1">
              <Button
                size="icon"
                variant="ghost"
                aria-label={Strings.detailAddGroup}
                onClick={() => setFlow(fi, (f) => ({ ...f, open: true, groups: [...f.groups, newGroup(f)] }))}
              >
                <Plus aria-hidden="true" className="size-4" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={Strings.detailDuplicateFlow(fi + 1)}
                onClick={() =>
                  setFlows((all) => [
                    ...all.slice(0, fi + 1),
                    { ...flow, key: nextKey(), groups: flow.groups.map((g) => ({ ...g, key: nextKey() })) },
                    ...all.slice(fi + 1),
                  ])
                }
              >
                <Copy aria-hidden="true" className="size-4" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={Strings.detailDeleteFlow(fi + 1)}
                disabled={flows.length === 1}
                onClick={() => setFlows((all) => all.filter((_, j) => j !== fi))}
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </Button>
            </span>
          </div>
          {flow.open && (
            <div className="flex flex-col gap-2 p-4">
              <GroupList
                flow={flow}
                max={groupThreadMax(available, flows, fi)}
                scenarioCount={scenarioCount}
                onChange={(groups) => setFlow(fi, (f) => ({ ...f, groups }))}
                onEdit={(gi) => setEditing({ step: 1, flow: fi, group: gi })}
              />
              <Button
                size="sm"
                variant="secondary"
                className="w-fit"
                onClick={() => setFlow(fi, (f) => ({ ...f, groups: [...f.groups, newGroup(f)] }))}
              >
                <Plus aria-hidden="true" className="size-3.5" />
                {Strings.detailAddGroup}
              </Button>
            </div>
          )}
        </section>
      ))}
      <Button
        variant="secondary"
        className="w-fit"
        onClick={() =>
          setFlows((all) => [
            ...all,
            {
              viewport: 'Desktop - 1024px',
              browser: 'Chromium',
              key: nextKey(),
              open: true,
              groups: [{ name: Strings.detailGroupName(1), threadCount: 0, tags: all[0]?.groups[0]?.tags ?? [], key: nextKey() }],
            },
          ])
        }
      >
        <Plus aria-hidden="true" className="size-4" />
        {Strings.detailAddFlow}
      </Button>

      {editing?.step === 0 && (
        <PlannerDialog
          project={project}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          editStep={0}
          initial={planned}
          onSaveEdit={(value) => {
            setName(value.name.trim());
            setEnv(value.env);
          }}
        />
      )}
      {editing?.step === 1 && editingGroup && (
        <PlannerDialog
          project={project}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          editStep={1}
          initial={{ ...planned, tags: editingGroup.tags, threadCount: editingGroup.threadCount }}
          threadMax={groupThreadMax(available, flows, editing.flow)}
          onSaveEdit={(value) =>
            setFlow(editing.flow, (f) => ({
              ...f,
              groups: f.groups.map((g, j) => (j === editing.group ? { ...g, tags: value.tags, threadCount: value.threadCount } : g)),
            }))
          }
        />
      )}
      {editing?.step === 2 && (
        <PlannerDialog
          project={project}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          editStep={2}
          initial={{ ...planned, schedule: schedule ?? defaultSchedule() }}
          onSaveEdit={(value) => setSchedule(value.schedule)}
          {...(schedule ? { onRemoveSchedule: () => setSchedule(null) } : {})}
        />
      )}
      <Modal
        open={leaving}
        onOpenChange={setLeaving}
        title={Strings.detailUnsavedTitle}
        description={Strings.detailUnsavedText}
        alert
        size="md"
        testId="unsaved-dialog"
        footer={
          <>
            <Button variant="ghost" onClick={() => setLeaving(false)}>
              {Strings.detailKeepEditing}
            </Button>
            <Button variant="danger" onClick={() => void navigate(`/${project.id}/executions`)}>
              {Strings.detailDiscard}
            </Button>
          </>
        }
      />
    </div>
  );
}

function GroupList({
  flow,
  max,
  scenarioCount,
  onChange,
  onEdit,
}: {
  flow: Flow;
  max: number;
  scenarioCount: (tags: string[]) => number;
  onChange: (groups: Group[]) => void;
  onEdit: (index: number) => void;
}) {
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = useMemo(() => flow.groups.map((g) => g.key), [flow.groups]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange(arrayMove(flow.groups, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className="flex flex-col gap-2">
          {flow.groups.map((g, gi) => (
            <GroupRow
              key={g.key}
              group={g}
              max={max}
              count={scenarioCount(g.tags)}
              onThreads={(n) => onChange(flow.groups.map((x, j) => (j === gi ? { ...x, threadCount: n } : x)))}
              onEdit={() => onEdit(gi)}
              onDelete={() => onChange(flow.groups.filter((_, j) => j !== gi))}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function GroupRow({
  group,
  max,
  count,
  onThreads,
  onEdit,
  onDelete,
}: {
  group: Group;
  max: number;
  count: number;
  onThreads: (n: number) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const sortable = useSortable({ id: group.key });
  const style = {
    transform: sortable.transform ? `translate3d(${sortable.transform.x}px, ${sortable.transform.y}px, 0)` : undefined,
    transition: sortable.transition,
  };
  const value = Math.min(group.threadCount, max);
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      data-testid="scenario-group"
      className={`flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 ${sortable.isDragging ? 'z-10 shadow-lg' : ''}`}
    >
      <button
        type="button"
        aria-label={Strings.detailDrag(group.name)}
        className="focus-ring cursor-grab rounded p-1 text-slate-500"
        {...sortable.attributes}
        {...sortable.listeners}
      >
        <GripVertical aria-hidden="true" className="size-4" />
      </button>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-slate-900">{group.name}</span>
        <span className="block truncate text-xs text-slate-600">
          {group.tags.join(', ') || '-'} · {Strings.execScenarioCount(count)}
        </span>
      </span>
      <span className="flex items-center gap-1" role="group" aria-label={Strings.detailThreadsOf(group.name)}>
        <Button
          size="icon"
          variant="secondary"
          aria-label={Strings.detailThreadsLess}
          disabled={value <= 0}
          onClick={() => onThreads(value - 1)}
        >
          <Minus aria-hidden="true" className="size-3.5" />
        </Button>
        <output className="w-14 text-center text-sm tabular-nums" data-testid="thread-count">
          {value}
          {value >= max && <span className="ml-1 text-xs text-slate-600">{Strings.detailMax}</span>}
        </output>
        <Button
          size="icon"
          variant="secondary"
          aria-label={Strings.detailThreadsMore}
          disabled={value >= max}
          onClick={() => onThreads(value + 1)}
        >
          <Plus aria-hidden="true" className="size-3.5" />
        </Button>
      </span>
      <Menu
        label={Strings.detailGroupMenu(group.name)}
        button={<MoreHorizontal aria-hidden="true" className="size-4" />}
        buttonClassName="focus-ring rounded-lg p-2 hover:bg-slate-100"
        align="end"
      >
        <MenuHeader>
          <span className="text-sm font-medium text-slate-900" data-testid="menu-thread-count">
            {Strings.detailMenuThreads(value, max)}
          </span>
        </MenuHeader>
        <MenuItem disabled={value >= max} onSelect={() => onThreads(value + 1)}>
          <Plus aria-hidden="true" className="size-4" />
          {Strings.detailMenuThreadMore}
        </MenuItem>
        <MenuItem disabled={value <= 0} onSelect={() => onThreads(value - 1)}>
          <Minus aria-hidden="true" className="size-4" />
          {Strings.detailMenuThreadLess}
        </MenuItem>
        <MenuItem onSelect={onEdit}>{Strings.execEdit}</MenuItem>
        <MenuItem onSelect={onDelete}>{Strings.execDelete}</MenuItem>
      </Menu>
    </li>
  );
}
