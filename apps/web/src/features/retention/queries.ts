import { retentionCalls, type RunRetention } from '@rehearse/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';

/** Query keys of a project's run retention. */
export const retentionKeys = {
  all: ['retention'] as const,
  overview: (projectId: string) => [...retentionKeys.all, projectId, 'overview'] as const,
  preview: (projectId: string, rule: RunRetention) => [...retentionKeys.all, projectId, 'preview', rule] as const,
};

export const retentionQueries = {
  /** The rule, what the project stores, and what the rule would delete now. */
  overview: (projectId: string) =>
    queryOptions({
      queryKey: retentionKeys.overview(projectId),
      queryFn: () => api.call(retentionCalls.getRetention, { query: { projectId } }),
    }),
  /** The dry run of a rule being typed: what it would delete now. */
  preview: (projectId: string, rule: RunRetention) =>
    queryOptions({
      queryKey: retentionKeys.preview(projectId, rule),
      queryFn: async () => (await api.call(retentionCalls.previewRetention, { body: { projectId, ...rule } })).wouldDelete,
      // While the next answer comes, the last one stays on screen instead of a spinner per keystroke.
      placeholderData: keepPreviousData,
    }),
};

export function useRetention(projectId: string) {
  return useQuery(retentionQueries.overview(projectId));
}

export function useRetentionPreview(projectId: string, rule: RunRetention | null) {
  return useQuery({ ...retentionQueries.preview(projectId, rule ?? { keepDays: null, keepRuns: null }), enabled: rule !== null });
}

/** Saves the rule; the answer (the rule and its dry run) patches the overview instead of a refetch. */
export function useSaveRetention(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: RunRetention) => api.call(retentionCalls.setRetention, { body: { projectId, ...rule } }),
    onSuccess: ({ retention, wouldDelete }) => {
      client.setQueryData(retentionKeys.overview(projectId), (current) => current && { ...current, retention, wouldDelete });
      logActivity({ type: 'retention.save' });
    },
  });
}
