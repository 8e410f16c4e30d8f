import { CalendarClock, LayoutDashboard } from 'lucide-react';
import { useMe } from '../../features/auth/queries';
import { licenceView } from '../../features/projects/licence';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/ProjectLayout';

/** The project dashboard; for now its heading, a greeting and the licence (full screen: spec 01 §2). */
export function DashboardPage() {
  const { project } = useCurrentProject();
  const me = useMe();
  const licence = licenceView(project);
  useDocumentTitle(`${Strings.navDashboard} · ${project.name}`);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-8 py-8">
      <div>
        <p className="text-sm font-medium text-brand-700">{Strings.navDashboard}</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{project.name}</h1>
        {me.data && <p className="mt-2 text-slate-600">{Strings.dashboardGreeting(me.data.givenName)}</p>}
      </div>

      <div className="grid grid-cols-3 gap-5">
        <section
          aria-labelledby="licence-card-title"
          className={`rounded-2xl border bg-white p-6 shadow-xs ${licence.warning ? 'border-orange-200' : 'border-slate-200'}`}
        >
          <div className="flex items-center gap-2 text-sm font-medium text-slate-500">
            <CalendarClock aria-hidden="true" className="size-4" />
            <h2 id="licence-card-title">{Strings.dashboardLicence}</h2>
          </div>
          <p
            data-testid="licence-days"
            className={`mt-3 text-3xl font-semibold ${licence.warning ? 'text-orange-600' : 'text-slate-900'}`}
          >
            {licence.expired ? Strings.licenceExpiredTitle : Strings.dashboardLicenceActive(licence.daysShown)}
          </p>
          {!licence.expired && <p className="mt-1 text-sm text-slate-500">{licence.title}</p>}
        </section>

        <section className="col-span-2 flex items-center gap-4 rounded-2xl border border-dashed border-slate-300 bg-white/60 p-6">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
            <LayoutDashboard aria-hidden="true" className="size-5" />
          </span>
          <p className="text-sm text-slate-600">{Strings.dashboardComingSoon}</p>
        </section>
      </div>
    </div>
  );
}
