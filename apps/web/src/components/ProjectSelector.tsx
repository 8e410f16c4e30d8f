import type { Project } from '@rehearse/contract';
import { Check, ChevronsUpDown, FolderKanban } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useSelectProject } from '../features/projects/queries';
import { TruncateAt, truncate } from '../lib/format';
import { Strings } from '../lib/strings';
import { Menu, MenuItemRadio } from './Menu';

/**
 * The top bar's project selector: lists the caller's projects; choosing one saves it as the
 * active project and goes to its dashboard (spec 01 §4).
 */
export function ProjectSelector({ projects, current }: { projects: Project[]; current: Project }) {
  const navigate = useNavigate();
  const selectProject = useSelectProject();

  const choose = (project: Project) => {
    if (project.id === current.id) return;
    void navigate(`/${project.id}/dashboard`);
    selectProject.mutate(project.id, { onError: () => toast.error(Strings.projectSelectorSwitchFailed) });
  };

  return (
    <Menu
      label={`${Strings.projectSelectorLabel}: ${current.name}`}
      buttonClassName="flex h-10 items-center gap-2.5 rounded-lg border border-slate-200 bg-white pr-2.5 pl-3 text-sm shadow-xs hover:border-slate-300 hover:bg-slate-50"
      menuClassName="max-h-80 w-72 overflow-y-auto"
      button={
        <>
          <FolderKanban aria-hidden="true" className="size-4 text-brand-600" />
          <span className="text-slate-500">{Strings.projectSelectorLabel}</span>
          <span className="font-semibold text-slate-900" data-testid="current-project" title={current.name}>
            {truncate(current.name, ...TruncateAt.selectorLabel)}
          </span>
          <ChevronsUpDown aria-hidden="true" className="size-4 text-slate-400" />
        </>
      }
    >
      {projects.map((project) => (
        <MenuItemRadio
          key={project.id}
          checked={project.id === current.id}
          title={project.name}
          onSelect={() => choose(project)}
        >
          <span className="min-w-0 flex-1 truncate">{truncate(project.name, ...TruncateAt.menuTitle)}</span>
          {project.id === current.id && <Check aria-hidden="true" className="size-4 shrink-0 text-brand-600" />}
        </MenuItemRadio>
      ))}
    </Menu>
  );
}
