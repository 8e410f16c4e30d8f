import { aiCalls, type OversightItem } from '@rehearse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Spec 01 §4: an accepted item leaves the list after 3 seconds. */
export const ACCEPTED_ITEM_LINGER_MS = 3000;

export const codeReviewKeys = {
  all: ['code-review'] as const,
  list: (projectId: string) => [...codeReviewKeys.all, projectId] as const,
};

/** Pending code fixes of the project, newest first (spec 01 §2 "Code Review page"). */
export function useCodeReviews(projectId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: codeReviewKeys.list(projectId),
    queryFn: async () => (await api.call(aiCalls.oversightList, { query: { project_id: projectId } })).items,
    meta: { persist: false },
  });
}

export function useCodeReviewMutations(projectId: string) {
  const client = useQueryClient();
  const drop = (item: OversightItem) =>
    client.setQueryData<OversightItem[]>(codeReviewKeys.list(projectId), (items) => items?.filter((i) => i._id !== item._id));
  return {
    /** Discard: archived on the server, gone from the list at once. */
    archive: useMutation({
      mutationFn: (item: OversightItem) => api.call(aiCalls.archiveOversight, { body: { projectId, scenario_id: item.scenario_id } }),
      onSuccess: (_answer, item) => drop(item),
    }),
    /** Accept: committed to the workspace; the item stays 3 s showing the commit, then leaves. */
    accept: useMutation({
      mutationFn: (item: OversightItem) => api.call(aiCalls.acceptOversight, { body: { projectId, scenario_id: item.scenario_id } }),
      onSuccess: (_answer, item) => {
        setTimeout(() => {
          drop(item);
          void client.invalidateQueries({ queryKey: codeReviewKeys.list(projectId) });
        }, ACCEPTED_ITEM_LINGER_MS);
      },
    }),
  };
}
