import { runsCalls, type Comment } from '@rehearse/contract';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Rows per page of the reports list: one screenful and a half, the server allows up to 100. */
export const REPORTS_PAGE_SIZE = 50;

export interface ReportsFilter {
  days: number;
  search: string;
  filterType: 'all' | 'passed' | 'failed';
}

/** Query keys of runs and reports. */
export const reportKeys = {
  all: ['reports'] as const,
  list: (projectId: string, filter: ReportsFilter) => [...reportKeys.all, 'list', projectId, filter] as const,
  any: (projectId: string, filter: ReportsFilter) => [...reportKeys.all, 'any', projectId, filter] as const,
  /** Every filter's pages of a project's list (what an upload makes stale). */
  listsOf: (projectId: string) => [...reportKeys.all, 'list', projectId] as const,
  anyOf: (projectId: string) => [...reportKeys.all, 'any', projectId] as const,
  run: (runId: string) => [...reportKeys.all, 'run', runId] as const,
  scenario: (scenarioId: string) => [...reportKeys.all, 'scenario', scenarioId] as const,
  screenshot: (owner: string, testCaseId: string, screenshotId: string) =>
    [...reportKeys.all, 'screenshot', owner, testCaseId, screenshotId] as const,
  memory: (projectId: string) => [...reportKeys.all, 'memory', projectId] as const,
};

/**
 * Big answers (report pages, whole run reports, screenshots) are not written to the persisted
 * cache: serialising them into localStorage every second would cost more than refetching.
 */
const notPersisted = { persist: false } as const;

export const reportQueries = {
  /** The reports list, page by page, newest first (spec 02 §2 "Reports list"). */
  list: (projectId: string, filter: ReportsFilter) =>
    infiniteQueryOptions({
      queryKey: reportKeys.list(projectId, filter),
      initialPageParam: 0,
      queryFn: ({ pageParam }) =>
        api.call(runsCalls.getDetails, {
          body: { projectId, page: pageParam, limit: REPORTS_PAGE_SIZE, sortField: 'publishTime', sortOrder: 'desc', ...filter },
        }),
      getNextPageParam: (last, pages) => (last.projectSummary.report.length < REPORTS_PAGE_SIZE ? undefined : pages.length),
      meta: notPersisted,
    }),
  run: (runId: string) =>
    queryOptions({
      queryKey: reportKeys.run(runId),
      queryFn: async () => (await api.call(runsCalls.getRun, { query: { runId } })).run,
      meta: notPersisted,
    }),
  scenario: (scenarioId: string) =>
    queryOptions({
      queryKey: reportKeys.scenario(scenarioId),
      queryFn: async () => (await api.call(runsCalls.getScenario, { query: { scenarioId } })).scenario,
      meta: notPersisted,
    }),
};

export function useReportsList(projectId: string, filter: ReportsFilter) {
  return useInfiniteQuery(reportQueries.list(projectId, filter));
}

/**
 * Whether any report matches `filter` (one row asked for, not counted): the reports list tells an
 * empty time range from a project with no reports by asking this of the widest range.
 */
export function useAnyReports(projectId: string, filter: ReportsFilter, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.any(projectId, filter),
    enabled,
    queryFn: async () =>
      (await api.call(runsCalls.getDetails, { body: { projectId, page: 0, limit: 1, ...filter } })).projectSummary.report.length > 0,
  });
}

export function useRunReport(runId: string) {
  return useQuery(reportQueries.run(runId));
}

export function useScenarioReport(scenarioId: string) {
  return useQuery(reportQueries.scenario(scenarioId));
}

/** Where a screenshot lives: in a run (run report) or a single scenario execution. */
export type ScreenshotOwner = { kind: 'run'; runId: string } | { kind: 'scenario' };

/** One screenshot as a data URL, fetched only when shown. */
export function useScreenshot(owner: ScreenshotOwner, testCaseId: string, screenshotId: string | undefined) {
  return useQuery({
    queryKey: reportKeys.screenshot(owner.kind === 'run' ? owner.runId : 'scenario', testCaseId, screenshotId ?? ''),
    enabled: Boolean(screenshotId),
    staleTime: Number.POSITIVE_INFINITY,
    meta: notPersisted,
    queryFn: async () => {
      const answer =
        owner.kind === 'run'
          ? await api.call(runsCalls.runScreenshot, { params: { runId: owner.runId, testCaseId, screenshotId: screenshotId! } })
          : await api.call(runsCalls.scenarioScreenshot, { params: { testCaseId, screenshotId: screenshotId! } });
      return `data:${answer.contentType};base64,${answer.image}`;
    },
  });
}

/**
 * Comments of one scenario execution. They arrive with the report; after a change the report is
 * refetched so every reader sees the server's list, not a local guess.
 */
export function useCommentMutations(invalidate: readonly unknown[]) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: invalidate });
  return {
    add: useMutation({
      mutationFn: (input: { testCaseId: string; content: string }) => api.call(runsCalls.addComment, { body: input }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: (input: { comment: Comment; content: string }) =>
        api.call(runsCalls.updateComment, { params: { id: input.comment._id }, body: { content: input.content } }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (comment: Comment) => api.call(runsCalls.deleteComment, { params: { id: comment._id } }),
      onSuccess: refresh,
    }),
  };
}

export function useApplicationMemory(projectId: string) {
  return useQuery({
    queryKey: reportKeys.memory(projectId),
    queryFn: async () => (await api.call(runsCalls.applicationMemory, { query: { projectId } })).memory,
    meta: notPersisted,
  });
}
