import { authCalls, environmentFileName, systemCalls, workspaceCalls, type Project } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';
import { authKeys } from '../auth/queries';
import { projectCreationWaitMs, wait } from './creation';

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

export function useLastActiveProject() {
  return useQuery(projectQueries.lastActive());
}

/** Saves a project as the active one (spec 01 §4: selecting a project saves it as active). */
export function useSelectProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => api.call(authCalls.updateLastActiveProjectId, { body: { project_id: projectId } }),
    onSuccess: (_answer, projectId) => {
      queryClient.setQueryData(projectKeys.lastActive(), projectId);
    },
  });
}

export interface NewProject {
  name: string;
  url: string;
  demo: boolean;
}

/**
 * Creates a project the way spec 01 §4 describes: create it, wait while its repository is
 * prepared, set its default.json environment as the current one, then hand back the project. The
 * spec's wait (30 s, 10 s for the demo) is the upper bound: the screen moves on as soon as the
 * workspace is ready, usually well under a second. The project list gains it and the remaining
 * project count goes down.
 */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, signal }: { input: NewProject; signal?: AbortSignal }) => {
      const { project } = await api.call(authCalls.createProject, {
        body: { name: input.name, url: input.url, demo: input.demo },
      });
      // Product analytics are best effort (spec 02 §7: failures ignored).
      void api.call(systemCalls.storageEvent, { body: { event: 'create_project', project_id: project.id } }).catch(() => undefined);
      // A failure to prepare the workspace before the wait ends is shown; after it, the dashboard
      // opens as the spec has it and the workspace is made on first use.
      await Promise.race([
        wait(projectCreationWaitMs(input.demo), signal),
        api.call(authCalls.createWorkspace, { body: { projectId: project.id } }),
      ]);
      await api
        .call(workspaceCalls.updateLastActiveWorkspace, {
          body: { projectId: project.id, env: environmentFileName('default') },
        })
        .catch(() => undefined);
      return project;
    },
    onSuccess: (project) => {
      queryClient.setQueryData<Project[]>(projectKeys.list(), (projects) =>
        projects ? [...projects.filter((p) => p.id !== project.id), project] : [project],
      );
      queryClient.setQueryData(projectKeys.lastActive(), project.id);
      void queryClient.invalidateQueries({ queryKey: projectKeys.list() });
      void queryClient.invalidateQueries({ queryKey: authKeys.me() });
      logActivity({ type: 'project.create', detail: { projectId: project.id, demo: project.demo } });
    },
  });
}

/** Deletes a project (ADMIN, and only users allowed to delete projects). */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => api.call(authCalls.deleteProject, { body: { project_id: projectId } }),
    onSuccess: (_answer, projectId) => {
      queryClient.setQueryData<Project[]>(projectKeys.list(), (projects) => projects?.filter((p) => p.id !== projectId));
      void queryClient.invalidateQueries({ queryKey: projectKeys.list() });
      logActivity({ type: 'project.delete', detail: { projectId } });
    },
  });
}
