import { environmentDisplayName, systemCalls, type EnvironmentEntry, type Project } from '@rehearse/contract';
import { Circle, LoaderCircle, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '../features/auth/queries';
import { BranchSelector } from '../features/branches/components/BranchSelector';
import { CreateBranchDialog } from '../features/branches/components/CreateBranchDialog';
import { useDeleteBranch } from '../features/branches/queries';
import { EnvironmentDialog, type EnvironmentDialogMode } from '../features/environments/components/EnvironmentDialog';
import { EnvironmentSelector } from '../features/environments/components/EnvironmentSelector';
import { currentEnvironment, useDeleteEnvironment, useEnvironments } from '../features/environments/queries';
import { useLicence } from '../features/licence/LicenceProvider';
import { CreateProjectDialog } from '../features/projects/components/CreateProjectDialog';
import { useDeleteProject } from '../features/projects/queries';
import { RecorderChooserDialog } from '../features/recorder/components/RecorderChooserDialog';
import { recorderUrl, type RecorderOption } from '../features/recorder/recorder-option';
import { useWorkspaceScope } from '../features/workspace/scope';
import { logActivity } from '../lib/activity-log';
import { api } from '../lib/api';
import { Strings } from '../lib/strings';
import { Button } from '../components/Button';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { LicenceCountdown } from './LicenceCountdown';
import { ProjectSelector } from './ProjectSelector';

/**
 * The project top bar (spec 01 §2): project, environment and (private-repository projects only)
 * branch selectors, the Record scenario button and the licence countdown, plus the dialogs they
 * open.
 */
export function TopBar({ projects, project }: { projects: Project[]; project: Project }) {
  const scope = useWorkspaceScope(project);
  const environments = useEnvironments(scope);
  const deleteEnvironment = useDeleteEnvironment(scope);
  const deleteProject = useDeleteProject();
  const deleteBranch = useDeleteBranch(project.id);
  const licence = useLicence();
  const me = useMe();

  const [envDialog, setEnvDialog] = useState<{ open: boolean; mode: EnvironmentDialogMode; thenRecord: boolean }>({
    open: false,
    mode: { kind: 'create' },
    thenRecord: false,
  });
  const [envToDelete, setEnvToDelete] = useState<EnvironmentEntry | null>(null);
  const [projectToDelete, setProjectToDelete] = useState<Project | null>(null);
  const [branchToDelete, setBranchToDelete] = useState<string | null>(null);
  const [createProjectOpen, setCreateProjectOpen] = useState(false);
  const [createBranchOpen, setCreateBranchOpen] = useState(false);
  const [chooserOpen, setChooserOpen] = useState(false);

  const existing = environments.data?.allEnv.map((env) => env.name) ?? [];
  const current = currentEnvironment(environments.data);

  const openCreateEnvironment = (thenRecord = false) =>
    licence.guard(() => setEnvDialog({ open: true, mode: { kind: 'create' }, thenRecord }));

  // Spec 01 §4: disabled until the environment list has loaded; with none, create one first.
  const record = () =>
    licence.guard(() => {
      if (!current) openCreateEnvironment(true);
      else setChooserOpen(true);
    });

  const startRecorder = (option: RecorderOption, envName = current?.name) => {
    setChooserOpen(false);
    if (!envName) return;
    window.open(recorderUrl(option, { projectId: project.id, envName, branch: scope.branch }), '_blank', 'noopener');
    void api.call(systemCalls.storageEvent, { body: { event: 'click_start_recording', project_id: project.id } }).catch(() => undefined);
    logActivity({ type: 'recorder.start', detail: { option } });
  };

  const waitingForEnvironments = !scope.ready || environments.isPending;

  return (
    <div className="flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/80 px-6 backdrop-blur">
      <ProjectSelector projects={projects} current={project} onCreate={() => setCreateProjectOpen(true)} onDelete={setProjectToDelete} />
      <EnvironmentSelector
        scope={scope}
        onAdd={() => openCreateEnvironment()}
        onEdit={(entry) => licence.guard(() => setEnvDialog({ open: true, mode: { kind: 'edit', entry }, thenRecord: false }))}
        onDelete={(entry) => licence.guard(() => setEnvToDelete(entry))}
      />
      {project.privateRepo && (
        <BranchSelector
          project={project}
          onCreate={() => licence.guard(() => setCreateBranchOpen(true))}
          onDelete={(branch) => licence.guard(() => setBranchToDelete(branch))}
        />
      )}
      <div className="ml-auto flex items-center gap-3">
        {/* The server's administration, not the project's: named in words at every width (issue 47). */}
        {me.data?.instanceAdmin && (
          <Link
            to="/admin/users"
            className="focus-ring flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <ShieldCheck aria-hidden="true" className="size-4 text-slate-500" />
            {Strings.navAdministration}
          </Link>
        )}
        <LicenceCountdown project={project} onOpen={licence.openLicence} />
        <Button
          onClick={record}
          disabled={waitingForEnvironments}
          aria-label={waitingForEnvironments ? `${Strings.record} (${Strings.recordWaitingForEnvironment})` : undefined}
        >
          {waitingForEnvironments ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <Circle aria-hidden="true" className="size-3.5 fill-red-400 text-red-400" />
          )}
          {Strings.record}
        </Button>
      </div>

      <EnvironmentDialog
        open={envDialog.open}
        onOpenChange={(open) => setEnvDialog((state) => ({ ...state, open, thenRecord: open && state.thenRecord }))}
        mode={envDialog.mode}
        scope={scope}
        existing={existing}
        onCreated={() => {
          if (envDialog.thenRecord) setChooserOpen(true);
        }}
      />
      <ConfirmDeleteDialog
        open={envToDelete !== null}
        onOpenChange={(open) => !open && setEnvToDelete(null)}
        what={Strings.environmentNoun}
        name={envToDelete?.name ?? ''}
        onConfirm={async () => {
          if (!envToDelete) return;
          await deleteEnvironment.mutateAsync(envToDelete.name);
          toast.success(Strings.environmentDeleted(environmentDisplayName(envToDelete.name)));
          logActivity({ type: 'environment.delete' });
        }}
      />
      <ConfirmDeleteDialog
        open={projectToDelete !== null}
        onOpenChange={(open) => !open && setProjectToDelete(null)}
        what={Strings.projectNoun}
        name={projectToDelete?.name ?? ''}
        onConfirm={async () => {
          if (!projectToDelete) return;
          await deleteProject.mutateAsync(projectToDelete.id);
          toast.success(Strings.projectDeleted(projectToDelete.name));
        }}
      />
      <ConfirmDeleteDialog
        open={branchToDelete !== null}
        onOpenChange={(open) => !open && setBranchToDelete(null)}
        what={Strings.branchNoun}
        name={branchToDelete ?? ''}
        onConfirm={async () => {
          if (branchToDelete === null) return;
          await deleteBranch.mutateAsync(branchToDelete);
          toast.success(Strings.branchDeleted(branchToDelete));
          logActivity({ type: 'branch.delete' });
        }}
      />
      <CreateProjectDialog open={createProjectOpen} onOpenChange={setCreateProjectOpen} />
      {project.privateRepo && <CreateBranchDialog open={createBranchOpen} onOpenChange={setCreateBranchOpen} project={project} />}
      <RecorderChooserDialog
        open={chooserOpen}
        onOpenChange={setChooserOpen}
        onStart={(option) => startRecorder(option)}
        environmentUrl={current?.data.baseUrl}
      />
    </div>
  );
}
