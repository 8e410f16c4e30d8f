import { systemCalls } from '@rehearse/contract';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Link, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel';
import { StandaloneHeader } from '../../shell/StandaloneHeader';
import { FullPageSpinner } from '../../components/Spinner';
import { TabNav } from '../../components/TabNav';
import { UserMenu } from '../../shell/UserMenu';
import { useMe } from '../../features/auth/queries';
import { useLastActiveProject, useProjects } from '../../features/projects/queries';
import { api } from '../../lib/api';
import { Strings } from '../../lib/strings';

export type AdminTab = 'users' | 'projects' | 'workers' | 'sign-up' | 'sessions-and-jobs' | 'activity';

/** The Administration area's address: `/admin/{tab}`, outside every project. */
export function adminPath(tab: AdminTab): string {
  return `/admin/${tab}`;
}

/** Addresses of the area when it lived under a project (`/{projectId}/admin/{tab}`) still lead to it. */
export function LegacyAdminRedirect() {
  const { '*': rest } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/admin/${rest ?? ''}${search}`} replace />;
}

/**
 * Administration (DESIGN §12): the instance administrator's area, in a layout of its own. It
 * concerns the whole server, not a project, so none of a project's chrome (selector, licence
 * countdown, Record scenario) shows; the header says where the user is and leads back to their
 * last project. Tabs Users, Projects, Workers, Sign-up, Sessions & jobs and Activity. Anyone else
 * who types the address is told it is not for them (the server refuses its calls anyway).
 */
export function AdminLayout() {
  const me = useMe();
  // The install's kind is fixed while the server runs: asked once.
  const health = useQuery({ queryKey: ['health'], queryFn: () => api.call(systemCalls.health), staleTime: Infinity });
  const tabs = [
    { to: adminPath('users'), label: Strings.adminTabUsers },
    { to: adminPath('projects'), label: Strings.adminTabProjects },
    { to: adminPath('workers'), label: Strings.adminTabWorkers },
    { to: adminPath('sign-up'), label: Strings.adminTabSignup },
    { to: adminPath('sessions-and-jobs'), label: Strings.adminTabSessionsJobs },
    { to: adminPath('activity'), label: Strings.adminTabActivity },
  ];
  return (
    <div className="flex h-full flex-col">
      <StandaloneHeader>
        <span
          className="flex items-center gap-1.5 rounded-full bg-slate-900 px-3 py-1 text-xs font-semibold text-white"
          data-testid="admin-badge"
        >
          <ShieldCheck aria-hidden="true" className="size-3.5" />
          {Strings.adminBadge}
        </span>
        <BackToProject />
        <UserMenu />
      </StandaloneHeader>
      <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-y-auto bg-slate-50/60 outline-none">
        {me.isPending ? (
          <FullPageSpinner />
        ) : !me.data?.instanceAdmin ? (
          <div className="mx-auto max-w-6xl px-8 py-8">
            <ErrorPanel title={Strings.adminNotAllowed} />
          </div>
        ) : (
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
            <Outlet />
          </div>
        )}
      </main>
    </div>
  );
}

/** The way back: to the project the user last worked in, named, else home. */
function BackToProject() {
  const projects = useProjects();
  const lastActive = useLastActiveProject();
  const project = projects.data?.find((p) => p.id === lastActive.data) ?? projects.data?.[0];
  return (
    <Link
      to={project ? `/${project.id}/dashboard` : '/'}
      className="focus-ring ml-auto flex min-w-0 items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
    >
      <ArrowLeft aria-hidden="true" className="size-4 shrink-0" />
      <span className="max-w-56 truncate">{project ? Strings.adminBackToProject(project.name) : Strings.adminBackToProjects}</span>
    </Link>
  );
}
