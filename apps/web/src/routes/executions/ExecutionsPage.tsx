import { executionCalls, Messages, type Execution, type ExecutionStatus, type Project } from '@rehearse/contract';
import { MoreHorizontal, Play, Search, Square } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Menu, MenuItem } from '../../components/Menu';
import { FullPageSpinner } from '../../components/Spinner';
import { Tooltip } from '../../components/Tooltip';
import { ContactSalesDialog } from '../../features/licence/components/ContactSalesDialog';
import { PlannerDialog } from '../../features/executions/PlannerDialog';
import { useCreatorName, useExecutionMutations, useExecutions, useFreeThreads, useLiveExecutions } from '../../features/executions/queries';
import { hasThreadsToRun } from '../../features/executions/threads';
import { envDisplayName } from '../../features/reports/report-rules';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/**
 * The executions list (spec 02 §2 "Executions list"): Active/All toggle with counts (Active
 * first when something runs), search, CI/CD instructions, the planner, and the two tables. A
 * project without execution threads sees only the 'No threads available' page.
 */
export function ExecutionsPage() {
  const { project } = useCurrentProject();
  useDocumentTitle(`${Strings.execTitle} · ${project.name}`);
  const executions = useExecutions(project.id);
  const list = useMemo(() => executions.data ?? [], [executions.data]);
  const live = useLiveExecutions(
    project.id,
    list.map((e) => e.id),
  );
  const creatorName = useCreatorName(project.id);
  const freeThreads = useFreeThreads(project.id);
  const mutations = useExecutionMutations(project.id);
  const navigate = useNavigate();
  const [view, setView] = useState<'active' | 'all' | null>(null);
  const [term, setTerm] = useState('');
  const [planning, setPlanning] = useState(false);
  const [deleting, setDeleting] = useState<Execution | null>(null);

  if (project.maxExecutionThreads <= 0) return <NoThreadsPage project={project} />;

  const active = list.filter((e) => e.running);
  // Spec 02 §2: Active by default if something runs on first load, else All.
  const shown = view ?? (active.length > 0 ? 'active' : 'all');
  const needle = term.trim().toLowerCase();
  const rows = (shown === 'active' ? active : list).filter((e) => !needle || e.name.toLowerCase().includes(needle));

  const openReport = async (execution: Execution) => {
    try {
      const { reportLink, runId } = await api.call(executionCalls.reportLink, { params: { id: execution.id } });
      if (runId) void navigate(`/${project.id}/run-report/${runId}`);
      else if (reportLink) window.location.assign(reportLink);
      else toast.error(Strings.execReportLinkFailed(execution.id));
    } catch (error) {
      toast.error(`${Strings.execReportLinkFailed(execution.id)}: ${errorMessage(error)}`);
    }
  };
  const act = (promise: Promise<unknown>) => promise.catch((error: unknown) => toast.error(errorMessage(error)));

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-5 px-8 py-8">
      <div className="flex items-center justify-between gap-4">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight text-slate-900">
          {Strings.execTitle}
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-brand-200">
            {Strings.execBeta}
          </span>
        </h1>
        <div className="flex items-center gap-3">
          <Link to={`/${project.id}/runs/instructions`} className="focus-ring rounded text-sm font-semibold text-brand-700 hover:underline">
            {Strings.execHowToCi}
          </Link>
          <Button onClick={() => setPlanning(true)}>{Strings.execPlan}</Button>
        </div>
      </div>

      <div className="flex items-center gap-3">
        <div
          role="radiogroup"
          aria-label={Strings.execTitle}
          className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-xs"
        >
          {(['active', 'all'] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={shown === v}
              onClick={() => setView(v)}
              className={`focus-ring rounded-md px-3 py-1.5 text-sm font-medium ${shown === v ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              {v === 'active' ? Strings.execActive : Strings.execAll} ({v === 'active' ? active.length : list.length})
            </button>
          ))}
        </div>
        <div className="relative w-72">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input
            type="search"
            aria-label={Strings.execFind}
            placeholder={Strings.execFind}
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm shadow-xs outline-none placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
        </div>
      </div>

      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs">
        {executions.isPending ? (
          <FullPageSpinner label={Strings.execLoading} />
        ) : executions.isError ? (
          <ErrorPanel title={Strings.execLoadFailed} detail={errorMessage(executions.error)} onRetry={() => void executions.refetch()} />
        ) : rows.length === 0 ? (
          <p role="status" className="px-4 py-12 text-center text-sm text-slate-600">
            {shown === 'active' ? Strings.execEmptyActive : Strings.execEmptyAll}
          </p>
        ) : (
          <table className="w-full text-left text-sm" aria-label={shown === 'active' ? Strings.execActive : Strings.execAll}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {Strings.execColInfo}
                </th>
                {shown === 'active' && (
                  <th scope="col" className="px-4 py-3">
                    {Strings.execColProgress}
                  </th>
                )}
                <th scope="col" className="px-4 py-3">
                  {Strings.execColSchedule}
                </th>
                {shown === 'active' ? (
                  <th scope="col" className="px-4 py-3 text-right">
                    {Strings.execColActions}
                  </th>
                ) : (
                  <>
                    <th scope="col" className="px-4 py-3">
                      {Strings.execColStatus}
                    </th>
                    <th scope="col" className="px-4 py-3">
                      <span className="sr-only">{Strings.execColRowActions}</span>
                    </th>
                    <th scope="col" className="px-4 py-3">
                      {Strings.execColEnabled}
                    </th>
                  </>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((e) => (
                <tr
                  key={e.id}
                  data-testid="execution-row"
                  className="cursor-pointer hover:bg-slate-50"
                  onClick={(event) => {
                    if ((event.target as HTMLElement).closest('button, a, input, [role="menu"]')) return;
                    void navigate(`/${project.id}/execution/${e.id}`);
                  }}
                >
                  <td className="px-4 py-3">
                    <Link
                      to={`/${project.id}/execution/${e.id}`}
                      className="focus-ring rounded font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {e.name}
                    </Link>
                    <span className="block text-xs text-slate-600">
                      {envDisplayName(e.env)} ·{' '}
                      {Strings.execScenarioCount(
                        e.flows.reduce((n, f) => n + f.scenarioGroups.reduce((m, g) => m + g.scenarios.length, 0), 0),
                      )}{' '}
                      · {Strings.execCreatedBy(creatorName(e))}
                    </span>
                  </td>
                  {shown === 'active' && (
                    <td className="w-72 px-4 py-3">
                      <Progress status={live[e.id]} />
                    </td>
                  )}
                  <td className="px-4 py-3 text-slate-700">{e.scheduleText}</td>
                  {shown === 'active' ? (
                    <td className="px-4 py-3">
                      <span className="flex justify-end gap-2">
                        <Button size="sm" variant="secondary" onClick={() => void openReport(e)}>
                          {Strings.execViewReport}
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => void act(mutations.halt.mutateAsync(e.id))}>
                          <Square aria-hidden="true" className="size-3" />
                          {Strings.execStop}
                        </Button>
                      </span>
                    </td>
                  ) : (
                    <>
                      <td className="px-4 py-3">
                        <span className="flex flex-col items-start gap-1">
                          {/* An execution that ran is no draft (issue 23): its last result takes Draft's place; Planned stays, with the result beside it. */}
                          {!(e.displayStatus === 'Draft' && e.lastRun && e.lastRun.state !== 'running') && (
                            <span
                              data-testid="execution-status"
                              className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700"
                            >
                              {e.displayStatus}
                            </span>
                          )}
                          {e.lastRun && e.lastRun.state !== 'running' && (
                            <LastRun projectId={project.id} lastRun={e.lastRun} asStatus={e.displayStatus === 'Draft'} />
                          )}
                        </span>
                      </td>
                      <td className="px-2 py-3">
                        <span className="flex items-center gap-1">
                          <Button
                            size="sm"
                            variant="secondary"
                            disabledReason={
                              e.running
                                ? Messages.executionRunning
                                : !hasThreadsToRun(e, freeThreads.data?.freeThreads)
                                  ? Messages.insufficientThreads
                                  : null
                            }
                            onClick={() => void act(mutations.run.mutateAsync(e.id).then(() => setView('active')))}
                          >
                            <Play aria-hidden="true" className="size-3" />
                            {Strings.execRun}
                          </Button>
                          <Menu
                            label={Strings.execColRowActions}
                            button={<MoreHorizontal aria-hidden="true" className="size-4" />}
                            buttonClassName="focus-ring rounded-lg p-2 hover:bg-slate-100"
                            align="end"
                          >
                            <MenuItem onSelect={() => void navigate(`/${project.id}/execution/${e.id}`)}>{Strings.execEdit}</MenuItem>
                            <MenuItem onSelect={() => void openReport(e)}>{Strings.execViewReport}</MenuItem>
                            <MenuItem onSelect={() => (e.running ? toast.error(Messages.executionRunning) : setDeleting(e))}>
                              {Strings.execDelete}
                            </MenuItem>
                          </Menu>
                        </span>
                      </td>
                      <td className="px-4 py-3">
                        <EnabledToggle
                          execution={e}
                          onChange={(on) =>
                            void act(on ? mutations.schedule.mutateAsync({ id: e.id }) : mutations.deschedule.mutateAsync(e.id))
                          }
                        />
                      </td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <PlannerDialog project={project} open={planning} onOpenChange={setPlanning} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        what={Strings.execWhat}
        name={deleting?.name ?? ''}
        onConfirm={async () => {
          if (deleting) await mutations.remove.mutateAsync(deleting.id);
        }}
      />
    </div>
  );
}

/** Spec 02 §4: usable only with a schedule ('Schedule is required'); on schedules, off deschedules. */
function EnabledToggle({ execution, onChange }: { execution: Execution; onChange: (on: boolean) => void }) {
  const blocked = !execution.schedule;
  const toggle = (
    <button
      type="button"
      role="switch"
      aria-checked={execution.enabled}
      aria-disabled={blocked || undefined}
      aria-label={Strings.execEnabledLabel(execution.name)}
      onClick={() => !blocked && onChange(!execution.enabled)}
      className={`focus-ring relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${execution.enabled ? 'bg-brand-600' : 'bg-slate-300'} ${blocked ? 'cursor-not-allowed opacity-60' : ''}`}
    >
      <span
        className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${execution.enabled ? 'translate-x-5' : 'translate-x-0.5'}`}
      />
    </button>
  );
  return blocked ? <Tooltip content={Messages.scheduleRequired}>{toggle}</Tooltip> : toggle;
}

/**
 * How the latest run ended, linking to its report: beside Planned, and in Draft's place once an
 * unscheduled execution ran (the spec computes Draft again after a run; the API keeps that value).
 */
function LastRun({
  projectId,
  lastRun,
  asStatus,
}: {
  projectId: string;
  lastRun: NonNullable<Execution['lastRun']>;
  /** In the status badge's place: drawn as a badge. */
  asStatus: boolean;
}) {
  const tone = { passed: 'text-emerald-700', failed: 'text-red-700', halted: 'text-slate-700', running: 'text-slate-700' }[lastRun.state];
  const badge = { passed: 'bg-emerald-50', failed: 'bg-red-50', halted: 'bg-slate-100', running: 'bg-slate-100' }[lastRun.state];
  return (
    <Link
      to={`/${projectId}/run-report/${lastRun.runId}`}
      data-testid="execution-last-run"
      className={`focus-ring text-xs hover:underline ${tone} ${asStatus ? `rounded-full px-2 py-0.5 font-semibold ${badge}` : 'rounded font-medium'}`}
      title={formatDateTime(lastRun.at).date + ' ' + formatDateTime(lastRun.at).time}
    >
      {Strings.execLastRun(lastRun.state)}
    </Link>
  );
}

/** Live progress of a running execution (statusUpdate:{id}). */
function Progress({ status }: { status: ExecutionStatus | undefined }) {
  if (!status || status.totalScenarios === 0) return <span className="text-xs text-slate-600">{Strings.execWaiting}</span>;
  // An errored scenario (infrastructure, after its last attempt) ended, but neither passed nor failed.
  const done = status.scenariosPassed + status.scenariosFailed + status.scenariosErrored;
  const pct = (n: number) => `${(n / status.totalScenarios) * 100}%`;
  return (
    <div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={status.totalScenarios}
        aria-valuenow={done}
        aria-label={Strings.execColProgress}
        className="flex h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <span className="bg-emerald-500" style={{ width: pct(status.scenariosPassed) }} />
        <span className="bg-red-500" style={{ width: pct(status.scenariosFailed) }} />
        <span className="bg-amber-500" style={{ width: pct(status.scenariosErrored) }} />
      </div>
      <p className="mt-1 text-xs text-slate-600" data-testid="execution-progress">
        {Strings.execProgress(done, status.totalScenarios, status.scenariosFailed, status.scenariosErrored)}
      </p>
    </div>
  );
}

/** Spec 02 §2: without execution threads only this page shows, with Contact sales (the prefilled form). */
function NoThreadsPage({ project }: { project: Project }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex h-full flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-xl font-semibold text-slate-900">{Messages.noThreads}</h1>
      <p className="max-w-md text-sm text-slate-600">{Strings.execNoThreadsText}</p>
      <Button onClick={() => setOpen(true)}>{Strings.contactSales}</Button>
      <ContactSalesDialog open={open} onOpenChange={setOpen} project={project} />
    </div>
  );
}
