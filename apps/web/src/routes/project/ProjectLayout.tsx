import type { Project } from '@rehearse/contract';
import { Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Header } from '../../components/Header';
import { Sidebar } from '../../components/Sidebar';
import { FullPageSpinner } from '../../components/Spinner';
import { TopBar } from '../../components/TopBar';
import { useProjects } from '../../features/projects/queries';
import { useSidebar } from '../../hooks/useSidebar';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';

interface ProjectOutletContext {
  project: Project;
  projects: Project[];
}

/** The current project, for screens under /{projectId}/ (the layout has already checked it). */
export function useCurrentProject(): ProjectOutletContext {
  return useOutletContext<ProjectOutletContext>();
}

/**
 * The shell of every project screen: header, sidebar, top bar and the screen. An unknown
 * projectId goes to the first project's dashboard, or shows an error without projects (spec 01 §2).
 */
export function ProjectLayout() {
  const { projectId } = useParams();
  const projects = useProjects();
  const sidebar = useSidebar();

  const project = projects.data?.find((p) => p.id === projectId);
  if (projects.data && !project) {
    const first = projects.data[0];
    if (first) return <Navigate to={`/${first.id}/dashboard`} replace />;
  }

  return (
    <div className="flex h-full flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:ring-2 focus:ring-brand-500"
      >
        {Strings.skipToContent}
      </a>
      <Header />
      <div className="flex min-h-0 flex-1">
        {projectId && <Sidebar projectId={projectId} open={sidebar.open} onToggle={sidebar.toggle} />}
        <div className="flex min-w-0 flex-1 flex-col">
          {project && projects.data && <TopBar projects={projects.data} project={project} />}
          <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-y-auto outline-none">
            {projects.isPending ? (
              <FullPageSpinner />
            ) : projects.isError ? (
              <ErrorPanel
                title={Strings.projectsLoadFailed}
                detail={errorMessage(projects.error)}
                onRetry={() => void projects.refetch()}
              />
            ) : project ? (
              <Outlet context={{ project, projects: projects.data } satisfies ProjectOutletContext} />
            ) : (
              <ErrorPanel title={Strings.noProjects} />
            )}
          </main>
        </div>
      </div>
    </div>
  );
}
