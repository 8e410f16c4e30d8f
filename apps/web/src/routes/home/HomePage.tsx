import { Navigate } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
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
    return (
      <ErrorPanel
        title={Strings.projectsLoadFailed}
        detail={errorMessage(projects.error)}
        onRetry={() => void projects.refetch()}
      />
    );
  }
  // A failed last-active lookup is not worth stopping for: the first project will do.
  if (projects.isPending || (lastActive.isPending && !lastActive.isError)) return <FullPageSpinner />;

  const target = projects.data.find((p) => p.id === lastActive.data) ?? projects.data[0];
  if (!target) return <ErrorPanel title={Strings.noProjects} />;
  return <Navigate to={`/${target.id}/dashboard`} replace />;
}
