import { Navigate, useSearchParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { GettingStarted } from '../../shell/GettingStarted';
import { Header } from '../../shell/Header';
import { FullPageSpinner } from '../../components/Spinner';
import { useLastActiveProject, useProjects } from '../../features/projects/queries';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';

/** Where `?redirect=` may send the user in the project (spec 02 §2); anything else is the dashboard. */
export function redirectTarget(redirect: string | null): 'features' | 'dashboard' {
  return redirect === 'features' ? 'features' : 'dashboard';
}

/**
 * Home, the last-active-project redirect: loads the projects (the server creates "Default" for a
 * user without any), then goes to the last active project, else the first: to its features page
 * with `?redirect=features`, to its dashboard otherwise (spec 01 §2, spec 02 §2).
 */
export function HomePage() {
  const [search] = useSearchParams();
  const projects = useProjects();
  const lastActive = useLastActiveProject();

  if (projects.isError) {
    return <ErrorPanel title={Strings.projectsLoadFailed} detail={errorMessage(projects.error)} onRetry={() => void projects.refetch()} />;
  }
  // A failed last-active lookup is not worth stopping for: the first project will do.
  // Cached answers may be old (restored from the last visit): wait for the server's.
  if (projects.isPending || projects.isFetching || lastActive.isFetching || (lastActive.isPending && !lastActive.isError)) {
    return <FullPageSpinner />;
  }

  const target = projects.data.find((p) => p.id === lastActive.data) ?? projects.data[0];
  if (!target) {
    return (
      <div className="flex h-full flex-col">
        <Header />
        <main id="main" className="min-h-0 flex-1 overflow-y-auto">
          <GettingStarted />
        </main>
      </div>
    );
  }
  return <Navigate to={`/${target.id}/${redirectTarget(search.get('redirect'))}`} replace />;
}
