import { runsCalls, workspaceCalls } from '@rehearse/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';

/** Query keys of the dashboard's figures. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  featuresCount: (scope: WorkspaceScope) => [...dashboardKeys.all, 'features-count', scope.projectId, scopeKey(scope)] as const,
  /** Every branch's features count of a project (what a publish makes stale). */
  featuresCountsOf: (projectId: string) => [...dashboardKeys.all, 'features-count', projectId] as const,
  runsDetails: (projectId: string) => [...dashboardKeys.all, 'runs-details', projectId] as const,
  latestRuns: (projectId: string) => [...dashboardKeys.all, 'latest-runs', projectId] as const,
};

export const dashboardQueries = {
  /** Features and scenarios of the branch (spec 02 §7 features-count). */
  featuresCount: (scope: WorkspaceScope) =>
    queryOptions({
      queryKey: dashboardKeys.featuresCount(scope),
      queryFn: async () => {
        const { count, scenarios } = await api.call(workspaceCalls.featuresCount, { body: scopeBody(scope) });
        return { features: count, scenarios };
      },
    }),
};

export function useFeaturesCount(scope: WorkspaceScope) {
  return useQuery({ ...dashboardQueries.featuresCount(scope), enabled: scope.ready });
}

/** A row of the dashboard's Latest executions table (the newest runs). */
export interface ExecutionRow {
  id: string;
  name: string;
  status: 'PASSED' | 'FAILED';
  environment: string;
  startTime: string;
}

/** Passed and failed runs for the Overall runs chart; null while the project has no runs. */
export interface RunTotals {
  passed: number;
  failed: number;
}

export interface RunsOverview {
  /** Null until the latest runs have loaded: "no executions" is said only once it is known. */
  executions: ExecutionRow[] | null;
  totals: RunTotals | null;
  runsLastWeek: number | null;
}

/**
 * The dashboard's runs data from the runs service (project/dashboardDetails and the 5 latest rows
 * of project/getDetails). A project with no runs yet answers "nothing yet" so the cards keep their
 * empty states. Code review items are the Code Review card's own query (features/code-review).
 */
export function useRunsOverview(projectId: string): RunsOverview {
  const details = useQuery({
    queryKey: dashboardKeys.runsDetails(projectId),
    queryFn: () => api.call(runsCalls.dashboardDetails, { query: { projectId } }),
  });
  const latest = useQuery({
    queryKey: dashboardKeys.latestRuns(projectId),
    queryFn: () => api.call(runsCalls.getDetails, { body: { projectId, limit: 5 } }),
  });
  const all = details.data?.projectSummary.runsAndScenarios;
  const hasRuns = (all?.runs ?? 0) > 0;
  return {
    executions: latest.isPending
      ? null
      : (latest.data?.projectSummary.report ?? []).map((row) => ({
          id: row.id,
          name: row.name,
          status: row.status,
          environment: row.env.name,
          startTime: row.startTime,
        })),
    totals: hasRuns && all ? { passed: all.passed, failed: all.failed } : null,
    runsLastWeek: hasRuns ? (details.data?.dashboardDetails.runsCountLastWeek ?? null) : null,
  };
}
