import { authCalls, type Project } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Query keys of projects (Actual Budget style key factory). */
export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
  lastActive: () => [...projectKeys.all, 'last-active'] as const,
};

export const projectQueries = {
  /** The caller's projects; the server creates "Default" when there are none (spec 01 §2). */
  list: () =>
    queryOptions({
      queryKey: projectKeys.list(),
      queryFn: async () => (await api.call(authCalls.getProjects)).projects,
    }),
  lastActive: () =>
    queryOptions({
      queryKey: projectKeys.lastActive(),
      queryFn: async () => (await api.call(authCalls.getLastActiveProject)).project_id,
    }),
};

export function useProjects() {
  return useQuery(projectQueries.list());
}

/** One project of the list, by id; `undefined` while loading or when the id is not the caller's. */
export function useProject(projectId: string | undefined) {
  return useQuery({
    ...projectQueries.list(),
    select: (projects: Project[]) => projects.find((p) => p.id === projectId),
  });
}

export function useLastActiveProject() {
  return useQuery(projectQueries.lastActive());
}

/** Saves a project as the active one (spec 01 §4: selecting a project saves it as active). */
export function useSelectProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) =>
      api.call(authCalls.updateLastActiveProjectId, { body: { project_id: projectId } }),
    onSuccess: (_answer, projectId) => {
      queryClient.setQueryData(projectKeys.lastActive(), projectId);
    },
  });
}
