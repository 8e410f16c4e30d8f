import { workspaceCalls } from '@rehearse/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';

/** Query keys of the dashboard's figures. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  featuresCount: (scope: WorkspaceScope) => [...dashboardKeys.all, 'features-count', scope.projectId, scopeKey(scope)] as const,
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

/**
 * A row of the dashboard's Latest executions table. The runs service (project/getDetails) is a
 * later issue; until it exists the table receives no rows and shows its empty state.
 */
export interface ExecutionRow {
  id: string;
  name: string;
  status: 'PASSED' | 'FAILED';
  environment: string;
  startTime: string;
}

/** Passed and failed runs for the Overall runs chart; null until the runs service exists. */
export interface RunTotals {
  passed: number;
  failed: number;
}

/** An item of the Code Review card (oversight/list, a later issue). */
export interface CodeReviewItem {
  id: string;
  featureName: string;
  scenarioName: string;
  createdAt: string;
}

export interface RunsOverview {
  executions: ExecutionRow[];
  totals: RunTotals | null;
  runsLastWeek: number | null;
  reviews: CodeReviewItem[];
}

/**
 * The dashboard's runs and code-review data. The runs service (project/getDetails,
 * project/dashboardDetails) and oversight/list come in later issues; until then this answers
 * "nothing yet" so the cards show their empty states, and the issue that adds the calls only
 * replaces this body with queries.
 */
export function useRunsOverview(_projectId: string): RunsOverview {
  return { executions: [], totals: null, runsLastWeek: null, reviews: [] };
}
