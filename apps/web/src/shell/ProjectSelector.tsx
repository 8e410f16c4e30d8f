import { Messages, type Project } from '@rehearse/contract';
import { FolderKanban, FolderPlus, Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '../features/auth/queries';
import { projectLimitReason } from '../features/projects/components/CreateProjectForm';
import { useSelectProject } from '../features/projects/queries';
import { logActivity } from '../lib/activity-log';
import { TruncateAt, truncate } from '../lib/format';
import { Strings } from '../lib/strings';
import { IconButton } from '../components/IconButton';
import { SelectorAction, SelectorOption, SelectorPopover, useCloseSelector } from '../components/SelectorPopover';

/**
 * The top bar's project selector: lists the caller's projects; choosing one saves it as the
 * active project and goes to its dashboard (spec 01 §4). It also creates projects (disabled when
 * the remaining project count is 0 or less) and deletes them (spec 01 §6: only for users who may
 * delete projects, never the current project, and only by its admin).
 */
export function ProjectSelector({
  projects,
  current,
  onCreate,
  onDelete,
}: {
  projects: Project[];
  current: Project;
  onCreate: () => void;
  onDelete: (project: Project) => void;
}) {
  const navigate = useNavigate();
  const selectProject = useSelectProject();
  const me = useMe();
  const mayDelete = me.data?.customAttributes.allowDeleteProjects === true;

  const choose = (project: Project) => {
    if (project.id === current.id) return;
    void navigate(`/${project.id}/dashboard`);
    selectProject.mutate(project.id, { onError: () => toast.error(Strings.projectSelectorSwitchFailed) });
    logActivity({ type: 'project.select', detail: { projectId: project.id } });
  };

  return (
    <SelectorPopover
      label={Strings.projectSelectorLabel}
      icon={FolderKanban}
      testId="project-selector"
      value={<span data-testid="current-project">{truncate(current.name, ...TruncateAt.selectorLabel)}</span>}
      valueText={current.name}
      title={current.name}
      footer={
        <SelectorAction
          icon={FolderPlus}
          onSelect={onCreate}
          disabledReason={projectLimitReason(me.data?.customAttributes.allowedProjectsCount)}
        >
          {Strings.projectNew}
        </SelectorAction>
      }
    >
      {projects.map((project) => (
        <SelectorOption
          key={project.id}
          selected={project.id === current.id}
          title={project.name}
          onSelect={() => choose(project)}
          actions={mayDelete && project.id !== current.id ? <DeleteProjectButton project={project} onDelete={onDelete} /> : undefined}
        >
          {truncate(project.name, ...TruncateAt.menuTitle)}
        </SelectorOption>
      ))}
    </SelectorPopover>
  );
}

function DeleteProjectButton({ project, onDelete }: { project: Project; onDelete: (project: Project) => void }) {
  const close = useCloseSelector();
  return (
    <IconButton
      label={Strings.projectDelete(project.name)}
      icon={Trash2}
      tone="danger"
      disabledReason={project.role === 'ADMIN' ? null : Messages.deleteProjectNotAllowed}
      onClick={() => {
        close();
        onDelete(project);
      }}
    />
  );
}
