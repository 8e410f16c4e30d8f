import { ArrowRight, FileCode2, ListChecks, Map as MapIcon, Play } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../features/auth/queries';
import { useCodeReviews } from '../../features/code-review/queries';
import { useFeaturesCount, useRunsOverview } from '../../features/dashboard/queries';
import { envDisplayName } from '../../features/reports/report-rules';
import { useWorkspaceScope } from '../../features/workspace/scope';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCurrentProject } from '../project/current-project';
import { FirstHourNotices } from './FirstHourNotices';

const OverallRunsChart = lazy(() => import('./OverallRunsChart'));

/** Spec 01 §9: the Code Review card shows the 3 latest items. */
const CODE_REVIEW_ITEMS = 3;

/**
 * The project dashboard (spec 01 §2): greeting, application map, three stat cards, Latest
 * executions, Overall runs and Code Review (the 3 latest pending fixes from oversight/list).
 */
export function DashboardPage() {
  const { project } = useCurrentProject();
  const me = useMe();
  const scope = useWorkspaceScope(project);
  const counts = useFeaturesCount(scope);
  useDocumentTitle(`${Strings.navDashboard} · ${project.name}`);

  const { executions, totals: runTotals, runsLastWeek } = useRunsOverview(project.id);

  const countText = (value: number | undefined) => (counts.isError ? '—' : value === undefined ? '…' : String(value));

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-8 py-8">
      <div className="flex items-end justify-between gap-6">
        <div className="min-w-0">
          <p className="text-sm font-medium text-brand-700">{Strings.navDashboard}</p>
          <h1 className="mt-1 truncate text-3xl font-semibold tracking-tight text-slate-900">{project.name}</h1>
          {me.data && <p className="mt-2 text-slate-600">{Strings.dashboardGreeting(me.data.givenName)}</p>}
        </div>
        <Link
          to={`/${project.id}/memory`}
          className="focus-ring inline-flex h-10 shrink-0 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
        >
          <MapIcon aria-hidden="true" className="size-4 text-brand-600" />
          {Strings.dashboardMemory}
        </Link>
      </div>

      <FirstHourNotices projectId={project.id} />

      <div className="grid grid-cols-3 gap-5">
        <StatCard icon={FileCode2} label={Strings.dashboardFeatures} value={countText(counts.data?.features)} testId="stat-features" />
        <StatCard icon={ListChecks} label={Strings.dashboardScenarios} value={countText(counts.data?.scenarios)} testId="stat-scenarios" />
        <StatCard
          icon={Play}
          label={Strings.dashboardRunsLastWeek}
          value={runsLastWeek === null ? '—' : String(runsLastWeek)}
          note={runsLastWeek === null ? Strings.dashboardNoRunsYet : undefined}
          testId="stat-runs"
        />
      </div>

      <div className="grid grid-cols-3 gap-5">
        <Card title={Strings.dashboardLatestExecutions} showAll={`/${project.id}/runs`} className="col-span-2">
          <table className="w-full text-left text-sm" aria-label={Strings.dashboardLatestExecutions}>
            <thead className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr className="border-b border-slate-100">
                <th scope="col" className="py-2 pr-3">
                  {Strings.dashboardExecName}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {Strings.dashboardExecStatus}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {Strings.dashboardExecEnv}
                </th>
                <th scope="col" className="py-2">
                  {Strings.dashboardExecDate}
                </th>
              </tr>
            </thead>
            <tbody>
              {executions === null ? (
                <tr>
                  <td colSpan={4} className="py-10 text-center text-sm text-slate-500" role="status">
                    {Strings.loading}
                  </td>
                </tr>
              ) : executions.length === 0 ? (
                <tr>
                  <td colSpan={4} className="py-10 text-center">
                    <p className="font-medium text-slate-700">{Strings.dashboardNoExecutions}</p>
                    <p className="mt-1 text-sm text-slate-500">{Strings.dashboardNoExecutionsHint}</p>
                  </td>
                </tr>
              ) : (
                executions.map((row) => (
                  <tr key={row.id} className="border-b border-slate-50">
                    <td className="py-2 pr-3">{row.name}</td>
                    <td className="py-2 pr-3">{row.status === 'PASSED' ? Strings.dashboardPassed : Strings.dashboardFailed}</td>
                    <td className="py-2 pr-3">{envDisplayName(row.environment)}</td>
                    <td className="py-2">
                      <time dateTime={row.startTime}>{`${formatDateTime(row.startTime).date} ${formatDateTime(row.startTime).time}`}</time>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </Card>

        <Card title={Strings.dashboardOverallRuns}>
          <div className="flex flex-col items-center gap-3 pt-2">
            <div className="relative aspect-[240/130] w-full max-w-[240px]">
              <Suspense fallback={null}>
                <OverallRunsChart totals={runTotals} />
              </Suspense>
              <p className="absolute inset-x-0 bottom-1 text-center text-sm font-medium text-slate-600">
                {runTotals ? `${runTotals.passed} / ${runTotals.passed + runTotals.failed}` : Strings.dashboardNoRuns}
              </p>
            </div>
            <ul className="flex gap-5 text-xs text-slate-600">
              <li className="flex items-center gap-1.5">
                <span aria-hidden="true" className="size-2.5 rounded-full bg-emerald-500" />
                {Strings.dashboardPassed}
              </li>
              <li className="flex items-center gap-1.5">
                <span aria-hidden="true" className="size-2.5 rounded-full bg-red-500" />
                {Strings.dashboardFailed}
              </li>
            </ul>
          </div>
        </Card>
      </div>

      <Card title={Strings.dashboardCodeReview} showAll={`/${project.id}/ai-oversight`}>
        <CodeReviewCard projectId={project.id} />
      </Card>
    </div>
  );
}

/** The 3 latest pending code reviews (spec 01 §2, §9); a failed load shows the server's words. */
function CodeReviewCard({ projectId }: { projectId: string }) {
  const reviews = useCodeReviews(projectId);
  if (reviews.isPending) return <p className="py-6 text-center text-sm text-slate-500">{Strings.reviewLoading}</p>;
  if (reviews.isError)
    return (
      <div role="alert" className="flex items-center justify-center gap-3 py-6 text-sm text-slate-600">
        <span>
          {Strings.reviewLoadFailed}: {errorMessage(reviews.error)}
        </span>
        <button
          type="button"
          onClick={() => void reviews.refetch()}
          className="focus-ring rounded font-semibold text-brand-700 hover:underline"
        >
          {Strings.retry}
        </button>
      </div>
    );
  if (reviews.data.length === 0) return <p className="py-6 text-center text-sm text-slate-500">{Strings.dashboardNoReviews}</p>;
  return (
    <ul className="divide-y divide-slate-100" data-testid="dashboard-reviews">
      {reviews.data.slice(0, CODE_REVIEW_ITEMS).map((item) => {
        const tc = item.report.testCases[0];
        const at = formatDateTime(item.createdAt);
        return (
          <li key={item._id} className="flex items-center justify-between gap-3 py-2 text-sm">
            <span className="min-w-0 truncate">
              <span className="text-slate-600">{tc?.featureName ?? item.file} · </span>
              <span className="font-medium text-slate-900">{tc?.scenarioName ?? item.name}</span>
            </span>
            <time dateTime={item.createdAt} className="shrink-0 text-xs text-slate-600">
              {at.date}
            </time>
          </li>
        );
      })}
    </ul>
  );
}

function StatCard({
  icon: Icon,
  label,
  value,
  note,
  testId,
}: {
  icon: typeof FileCode2;
  label: string;
  value: string;
  note?: string | undefined;
  testId: string;
}) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs" aria-label={label}>
      <div className="flex items-center gap-2 text-sm font-medium text-slate-600">
        <span className="flex size-8 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <h2>{label}</h2>
      </div>
      <p className="mt-3 text-3xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </p>
      <p className="mt-1 text-xs text-slate-500">{note ?? Strings.dashboardTotal}</p>
    </section>
  );
}

function Card({ title, showAll, className = '', children }: { title: string; showAll?: string; className?: string; children: ReactNode }) {
  return (
    <section className={`flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-xs ${className}`}>
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        {showAll && (
          <Link
            to={showAll}
            aria-label={`${Strings.dashboardShowAll}: ${title}`}
            className="focus-ring inline-flex items-center gap-1 rounded text-sm font-semibold text-brand-700 hover:text-brand-800"
          >
            {Strings.dashboardShowAll}
            <ArrowRight aria-hidden="true" className="size-3.5" />
          </Link>
        )}
      </div>
      {children}
    </section>
  );
}
