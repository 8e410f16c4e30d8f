import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { GettingStarted } from '../../shell/GettingStarted';
import { Header } from '../../shell/Header';
import { Sidebar } from '../../shell/Sidebar';
import { FullPageSpinner } from '../../components/Spinner';
import { TopBar } from '../../shell/TopBar';
import { useCodeReviews } from '../../features/code-review/queries';
import { LicenceProvider } from '../../features/licence/LicenceProvider';
import { useProjects } from '../../features/projects/queries';
import { useProjectEvents } from '../../features/projects/useProjectEvents';
import { useSidebar } from '../../hooks/useSidebar';
import { errorMessage } from '../../lib/api';
import { StorageKeys } from '../../lib/storage-keys';
import { Strings } from '../../lib/strings';
import type { ProjectOutletContext } from './current-project';

const PrivateRepoRequiredPage = lazy(async () => ({
  default: (await import('../settings/PrivateRepositoryPage')).PrivateRepoRequiredPage,
}));

/** Pages a project with an unconfigured private repository still shows (spec 01 §2). */
const OPEN_WITHOUT_REPO = /\/(run-report|runs|scenario-report|execution|executions|settings)(\/|$)/;

/**
 * The shell of every project screen: sidebar (logo, navigation, links, user menu), top bar and
 * the screen. An unknown projectId goes to the first project's dashboard, or shows the
 * getting-started message without projects (spec 01 §2).
 */
export function ProjectLayout() {
  const { projectId } = useParams();
  const projects = useProjects();
  const sidebar = useSidebar();
  const { pathname, search } = useLocation();
  // Spec 01 §2: a first-time user lands on the dashboard with ?newUser=; the tour it promises is
  // on the features page, which they reach through the sidebar (without the parameter).
  useEffect(() => {
    if (new URLSearchParams(search).has('newUser')) localStorage.setItem(StorageKeys.tourPending, '1');
  }, [search]);
  // The Code Review badge (spec 01 §2); no badge while the list is unknown or failed to load.
  const reviews = useCodeReviews(projectId ?? '', Boolean(projectId));
  useProjectEvents(projectId);

  const project = projects.data?.find((p) => p.id === projectId);
  // A list restored from the persisted cache may predate this project (created or joined
  // since): decide only on a list the server has just confirmed.
  const confirming = projects.isFetching || (projects.isError && !project);
  if (projects.data && !project && !confirming) {
    const first = projects.data[0];
    if (first) return <Navigate to={`/${first.id}/dashboard`} replace />;
    return (
      <div className="flex h-full flex-col">
        <Header />
        <main id="main" className="min-h-0 flex-1 overflow-y-auto">
          <GettingStarted />
        </main>
      </div>
    );
  }

  const body = (
    <div className="flex h-full">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:ring-2 focus:ring-brand-500"
      >
        {Strings.skipToContent}
      </a>
      {projectId && <Sidebar projectId={projectId} open={sidebar.open} onToggle={sidebar.toggle} codeReviewCount={reviews.data?.length} />}
      <div className="flex min-w-0 flex-1 flex-col">
        {project && projects.data && <TopBar projects={projects.data} project={project} />}
        <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-y-auto outline-none">
          {projects.isPending || (!project && projects.isFetching) ? (
            <FullPageSpinner />
          ) : projects.isError && !project ? (
            <ErrorPanel title={Strings.projectsLoadFailed} detail={errorMessage(projects.error)} onRetry={() => void projects.refetch()} />
          ) : project && projects.data ? (
            <Suspense fallback={<FullPageSpinner />}>
              {project.privateRepo && !project.configuredPrivateRepo && !OPEN_WITHOUT_REPO.test(pathname) ? (
                <PrivateRepoRequiredPage project={project} />
              ) : (
                <Outlet context={{ project, projects: projects.data } satisfies ProjectOutletContext} />
              )}
            </Suspense>
          ) : null}
        </main>
      </div>
    </div>
  );

  // Always the same element above the shell, with or without the project: a different parent
  // would remount the sidebar and top bar when the list arrives, closing a menu opened meanwhile.
  return <LicenceProvider project={project}>{body}</LicenceProvider>;
}
