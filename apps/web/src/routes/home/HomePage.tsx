import { Navigate } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { GettingStarted } from '../../components/GettingStarted';
import { Header } from '../../components/Header';
import { FullPageSpinner } from '../../components/Spinner';
import { useLastActiveProject, useProjects } from '../../features/projects/queries';
import { errorMessage } from '../../lib/api';
import { Strings } from '../../lib/strings';

/**
 * Home: loads the projects (the server creates "Default" for a user without any), then goes to
 * the last active project's dashboard, else the first project's (spec 01 §2).
 */
export function HomePage() {
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
  return <Navigate to={`/${target.id}/dashboard`} replace />;
}
