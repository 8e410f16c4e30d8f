import { Messages, type AdminProject } from '@rehearse/contract';
import { format } from 'date-fns';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/Checkbox';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { useAdminProjects, useExtendLicence, useUpdateProject } from '../../features/admin/queries';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { DialogActions } from './DialogActions';
import { SectionHeading } from '../settings/SettingsLayout';
import { saveNotice } from '../../lib/notify';

/** The query parameter that opens the extend dialog of one project (the expired dialog links here). */
export const EXTEND_PARAM = 'extend';

const day = (iso: string) => format(new Date(iso), 'MMM dd, yyyy');

/** Administration → Projects: every project's license, threads and private repository integration. */
export function AdminProjectsPage() {
  useDocumentTitle(`${Strings.adminTabProjects} · ${Strings.adminTitle}`);
  const projects = useAdminProjects();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<AdminProject | null>(null);
  const extendId = params.get(EXTEND_PARAM);
  const extending = projects.data?.find((project) => project.id === extendId) ?? null;
  const openExtend = (projectId: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (projectId) next.set(EXTEND_PARAM, projectId);
        else next.delete(EXTEND_PARAM);
        return next;
      },
      { replace: true },
    );

  const columns: Column<AdminProject>[] = [
    {
      id: 'project',
      header: Strings.adminProjectColumn,
      cell: (project) => (
        <div className="flex max-w-40 min-w-0 flex-col xl:max-w-60" title={project.adminEmail ?? undefined}>
          <span className="truncate font-medium text-slate-900">{project.name}</span>
          <span className="truncate text-slate-600">{Strings.adminProjectOwner(project.adminEmail, project.members)}</span>
        </div>
      ),
    },
    {
      id: 'license',
      header: Strings.adminProjectLicense,
      className: 'whitespace-nowrap',
      cell: (project) => (
        <div className="flex flex-col">
          <span className={project.is_expired ? 'font-semibold text-red-700' : 'text-slate-900'}>
            {/* Days shown as the project's own countdown shows them: days left plus one (spec 01 §4). */}
            {project.is_expired ? Strings.adminLicenseExpired : Strings.adminLicenseDays(project.daysLeft + 1)}
            {!project.licensed && <span className="font-normal text-slate-500"> · {Strings.adminLicenseTrial}</span>}
          </span>
          <span className="text-slate-600">{Strings.adminLicenseUntil(day(project.expiresAt))}</span>
        </div>
      ),
    },
    { id: 'threads', header: Strings.adminProjectThreads, cell: (project) => project.maxExecutionThreads },
    {
      id: 'repo',
      header: Strings.adminProjectRepo,
      cell: (project) =>
        project.privateRepo
          ? project.configuredPrivateRepo
            ? Strings.adminRepoConnected
            : Strings.adminRepoEnabled
          : Strings.adminRepoDisabled,
    },
    {
      id: 'stored',
      header: Strings.adminProjectStored,
      className: 'whitespace-nowrap',
      cell: (project) => (
        <div className="flex flex-col">
          <span className="text-slate-900">{formatBytes(project.stored.artifactBytes)}</span>
          <span className="text-slate-600">{Strings.adminProjectStoredRuns(project.stored.runs, project.stored.testCases)}</span>
        </div>
      ),
    },
    {
      id: 'actions',
      header: Strings.adminUserActions,
      srOnlyHeader: true,
      className: 'text-right whitespace-nowrap',
      cell: (project) => (
        // Stacked below 1280 px so both actions stay in view beside the other columns at 1024 px.
        <div className="flex flex-col items-end gap-2 xl:flex-row xl:justify-end">
          <Button size="sm" variant="secondary" aria-label={Strings.adminEditProject(project.name)} onClick={() => setEditing(project)}>
            {Strings.adminEdit}
          </Button>
          <Button
            size="sm"
            variant={project.is_expired ? 'primary' : 'secondary'}
            aria-label={Strings.adminExtendProject(project.name)}
            onClick={() => openExtend(project.id)}
          >
            {Strings.adminExtend}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="admin-projects-title" className="flex flex-col gap-5">
      <SectionHeading id="admin-projects-title" title={Strings.adminProjectsTitle} intro={Strings.adminProjectsIntro} />
      {projects.isError ? (
        <ErrorPanel title={Strings.adminLoadFailed} detail={errorMessage(projects.error)} onRetry={() => void projects.refetch()} />
      ) : (
        <DataTable
          page={Strings.adminProjectsPage}
          label={Strings.adminProjectsTitle}
          columns={columns}
          rows={projects.data}
          rowKey={(project) => project.id}
          searchText={(project) => `${project.name} ${project.adminEmail ?? ''}`}
          filter={{
            label: Strings.adminProjectLicense,
            options: [
              { value: 'all', label: Strings.adminFilterAll, test: () => true },
              { value: 'expired', label: Strings.adminLicenseExpired, test: (project) => project.is_expired },
              { value: 'active', label: Strings.adminFilterActive, test: (project) => !project.is_expired },
            ],
          }}
          loading={projects.isPending}
          testId="admin-projects"
        />
      )}
      {extending && <ExtendDialog key={extending.id} project={extending} onClose={() => openExtend(null)} />}
      {editing && <EditProjectDialog key={editing.id} project={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

const WHOLE = /^\d{1,4}$/;

function ExtendDialog({ project, onClose }: { project: AdminProject; onClose: () => void }) {
  const extend = useExtendLicence();
  const [days, setDays] = useState('30');
  const ok = WHOLE.test(days.trim()) && Number(days) >= 1 && Number(days) <= 3650;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ok || extend.isPending) return;
    extend.mutate(
      { projectId: project.id, days: Number(days.trim()) },
      {
        onSuccess: ({ project: extended }) => {
          toast.success(Strings.adminExtended(extended.name, day(extended.expiresAt)));
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={Strings.adminExtendTitle(project.name)}
      description={Strings.adminExtendText(day(project.expiresAt), project.is_expired)}
      testId="admin-extend-dialog"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <TextField
          label={Strings.adminExtendDays}
          inputMode="numeric"
          value={days}
          onChange={(event) => setDays(event.target.value)}
          error={ok ? null : Messages.adminLicenceDays}
          autoFocus
        />
        <DialogActions onCancel={onClose} submitLabel={Strings.adminExtendConfirm} pending={extend.isPending} disabled={!ok} />
      </form>
    </Modal>
  );
}

function EditProjectDialog({ project, onClose }: { project: AdminProject; onClose: () => void }) {
  const update = useUpdateProject();
  const [threads, setThreads] = useState(String(project.maxExecutionThreads));
  const [privateRepo, setPrivateRepo] = useState(project.privateRepo);
  const ok = WHOLE.test(threads.trim()) && Number(threads) <= 64;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ok || update.isPending) return;
    update.mutate(
      { projectId: project.id, changes: { maxExecutionThreads: Number(threads.trim()), privateRepo } },
      {
        onSuccess: () => {
          saveNotice.success(Strings.adminProjectSaved);
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={Strings.adminEditProject(project.name)}
      description={Strings.adminProjectDialogText}
      testId="admin-project-dialog"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <TextField
          label={Strings.adminThreadsLabel}
          inputMode="numeric"
          value={threads}
          onChange={(event) => setThreads(event.target.value)}
          error={ok ? null : Messages.adminThreads}
          hint={Strings.adminThreadsHint}
        />
        <label className="flex items-center gap-3 text-sm text-slate-800">
          <Checkbox checked={privateRepo} onChange={(event) => setPrivateRepo(event.target.checked)} />
          {Strings.adminRepoLabel}
        </label>
        <DialogActions onCancel={onClose} submitLabel={Strings.adminSave} pending={update.isPending} disabled={!ok} />
      </form>
    </Modal>
  );
}
