import { authCalls, type AccessKey } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';

/** Query keys of access tokens. */
export const accessTokenKeys = {
  all: ['access-tokens'] as const,
  list: (projectId: string) => [...accessTokenKeys.all, projectId] as const,
};

export const accessTokenQueries = {
  /** The project's tokens, masked: the whole token is only ever in the create answer. */
  list: (projectId: string) =>
    queryOptions({
      queryKey: accessTokenKeys.list(projectId),
      queryFn: async () => (await api.call(authCalls.getAccessKeys, { query: { project_id: projectId } })).accessKeys,
    }),
};

export function useAccessTokens(projectId: string) {
  return useQuery(accessTokenQueries.list(projectId));
}

/**
 * Creates a token. The answer holds the whole token; it is handed to the caller and never put
 * in the (persisted) query cache — the list is refetched, masked.
 */
export function useCreateAccessToken(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => (await api.call(authCalls.createAccessKey, { body: { name, projectId } })).accessKey,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accessTokenKeys.list(projectId) });
      logActivity({ type: 'accessToken.create' });
    },
  });
}

export function useDeleteAccessToken(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(authCalls.deleteAccessKey, { body: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<AccessKey[]>(accessTokenKeys.list(projectId), (keys) => keys?.filter((key) => key.id !== id));
      void queryClient.invalidateQueries({ queryKey: accessTokenKeys.list(projectId) });
      logActivity({ type: 'accessToken.delete' });
    },
  });
}
