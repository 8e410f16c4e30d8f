import { authCalls } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';

/** Query keys of the private repository settings. */
export const privateRepoKeys = {
  all: ['private-repo'] as const,
  detail: (projectId: string) => [...privateRepoKeys.all, projectId] as const,
};

export const privateRepoQueries = {
  /** The repository the project is connected to (never its token), or undefined. */
  detail: (projectId: string) =>
    queryOptions({
      queryKey: privateRepoKeys.detail(projectId),
      queryFn: async () => (await api.call(authCalls.getAllPrivateRepoInAProject, { query: { project_id: projectId } })).repos[0] ?? null,
    }),
};

export function usePrivateRepo(projectId: string) {
  return useQuery(privateRepoQueries.detail(projectId));
}

export interface RepoCredentials {
  username: string;
  token: string;
  url?: string | undefined;
}

/** Connects the workspace to the repository; the page reloads afterwards (spec 01 §4). */
export function useAuthorizePrivateRepo(projectId: string) {
  return useMutation({
    mutationFn: ({ username, token, url }: RepoCredentials) =>
      api.call(authCalls.addPrivateRepo, { body: { project_id: projectId, username, token, ...(url ? { url } : {}) } }),
    onSuccess: () => logActivity({ type: 'privateRepo.authorize' }),
  });
}
