import { systemCalls } from '@rehearse/contract';
import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { Outlet } from 'react-router';
import { TabNav } from '../../components/TabNav';
import { ErrorPanel } from '../../components/ErrorPanel';
import { FullPageSpinner } from '../../components/Spinner';
import { useMe } from '../../features/auth/queries';
import { api } from '../../lib/api';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';

/** The Administration area's address under a project: `/{projectId}/admin/{tab}`. */
export function adminPath(projectId: string, tab: 'users' | 'projects' | 'workers' | 'sign-up' | 'sessions-and-jobs' | 'activity'): string {
  return `/${projectId}/admin/${tab}`;
}

/**
 * Administration (DESIGN §12): the instance administrator's screen, beside the project screens so
 * the sidebar stays, with the tabs Users, Projects, Workers, Sign-up, Sessions & jobs and Activity (the audit trail). Its sidebar item shows
 * only to instance administrators; anyone else who types the address is told it is not for them
 * (and the server refuses its calls anyway).
 */
export function AdminLayout() {
  const context = useCurrentProject();
  const me = useMe();
  // The install's kind is fixed while the server runs: asked once.
  const health = useQuery({ queryKey: ['health'], queryFn: () => api.call(systemCalls.health), staleTime: Infinity });
  const projectId = context.project.id;
  if (me.isPending) return <FullPageSpinner />;
  if (!me.data?.instanceAdmin) {
    return (
      <div className="mx-auto max-w-6xl px-8 py-8">
        <ErrorPanel title={Strings.adminNotAllowed} />
      </div>
    );
  }
  const tabs = [
    { to: adminPath(projectId, 'users'), label: Strings.adminTabUsers },
    { to: adminPath(projectId, 'projects'), label: Strings.adminTabProjects },
    { to: adminPath(projectId, 'workers'), label: Strings.adminTabWorkers },
    { to: adminPath(projectId, 'sign-up'), label: Strings.adminTabSignup },
    { to: adminPath(projectId, 'sessions-and-jobs'), label: Strings.adminTabSessionsJobs },
    { to: adminPath(projectId, 'activity'), label: Strings.adminTabActivity },
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-8 py-8">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{Strings.adminTitle}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{Strings.adminIntro}</p>
      </div>
      {health.data?.install === 'local-single-user' && (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="local-install"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {Strings.adminLocalInstall}
        </p>
      )}
      <TabNav label={Strings.adminTabs} tabs={tabs} />
      <Outlet context={context} />
    </div>
  );
}
