import { environmentFileName, workspaceCalls, type EnvironmentEntry } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';

/** Query keys of environments: one list per project and branch. */
export const environmentKeys = {
  all: ['environments'] as const,
  project: (projectId: string) => [...environmentKeys.all, projectId] as const,
  list: (scope: WorkspaceScope) => [...environmentKeys.project(scope.projectId), scopeKey(scope)] as const,
};

export interface EnvironmentList {
  allEnv: EnvironmentEntry[];
  /** File name (`staging.json`) of the caller's current environment, or null when there is none. */
  lastActiveEnv: string | null;
}

export const environmentQueries = {
  list: (scope: WorkspaceScope) =>
    queryOptions({
      queryKey: environmentKeys.list(scope),
      queryFn: async (): Promise<EnvironmentList> => {
        const { allEnv, lastActiveEnv } = await api.call(workspaceCalls.getEnvList, { body: scopeBody(scope) });
        return { allEnv, lastActiveEnv };
      },
    }),
};

/** The environments of the scope's branch and the caller's current one. */
export function useEnvironments(scope: WorkspaceScope) {
  return useQuery({ ...environmentQueries.list(scope), enabled: scope.ready });
}

/** The current environment entry, if any. */
export function currentEnvironment(list: EnvironmentList | undefined): EnvironmentEntry | undefined {
  if (!list?.lastActiveEnv) return undefined;
  return list.allEnv.find((env) => env.name === list.lastActiveEnv);
}

function useSetList(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return {
    get: () => queryClient.getQueryData<EnvironmentList>(environmentKeys.list(scope)),
    set: (list: EnvironmentList) => queryClient.setQueryData(environmentKeys.list(scope), list),
    refresh: () => queryClient.invalidateQueries({ queryKey: environmentKeys.list(scope) }),
  };
}

/** Saves an environment (file name) as the caller's last active one; the selector updates at once. */
export function useSelectEnvironment(scope: WorkspaceScope) {
  const list = useSetList(scope);
  return useMutation({
    mutationFn: (fileName: string) => api.call(workspaceCalls.updateLastActiveWorkspace, { body: { ...scopeBody(scope), env: fileName } }),
    onMutate: (fileName) => {
      const previous = list.get();
      if (previous) list.set({ ...previous, lastActiveEnv: fileName });
      return { previous };
    },
    onError: (_error, _fileName, context) => {
      if (context?.previous) list.set(context.previous);
    },
  });
}

export interface EnvironmentInput {
  name: string;
  baseUrl: string;
}

/** Creates an environment and makes it the current one. */
export function useCreateEnvironment(scope: WorkspaceScope) {
  const list = useSetList(scope);
  return useMutation({
    mutationFn: async ({ name, baseUrl }: EnvironmentInput) => {
      const { env } = await api.call(workspaceCalls.pushEnv, { body: { ...scopeBody(scope), name, data: { name, baseUrl } } });
      await api.call(workspaceCalls.updateLastActiveWorkspace, { body: { ...scopeBody(scope), env: env.name } });
      return env;
    },
    onSuccess: (env) => {
      const previous = list.get();
      if (previous) list.set({ allEnv: [...previous.allEnv, env], lastActiveEnv: env.name });
      void list.refresh();
    },
  });
}

/** Changes an environment's URL and/or name; answers the server's rename warning, if any. */
export function useEditEnvironment(scope: WorkspaceScope) {
  const list = useSetList(scope);
  return useMutation({
    mutationFn: ({ fileName, name, baseUrl }: EnvironmentInput & { fileName: string }) => {
      const renamed = environmentFileName(name) !== fileName;
      return api.call(workspaceCalls.editEnv, {
        body: { ...scopeBody(scope), name: fileName, ...(renamed ? { newName: name } : {}), newData: { name, baseUrl } },
      });
    },
    onSuccess: ({ env }, { fileName }) => {
      const previous = list.get();
      if (previous) {
        list.set({
          allEnv: previous.allEnv.map((entry) => (entry.name === fileName ? env : entry)),
          lastActiveEnv: previous.lastActiveEnv === fileName ? env.name : previous.lastActiveEnv,
        });
      }
      void list.refresh();
    },
  });
}

/**
 * Deletes an environment. Deleting the current one selects the first remaining one, or none
 * (spec 01 §4); the server records that choice too.
 */
export function useDeleteEnvironment(scope: WorkspaceScope) {
  const list = useSetList(scope);
  return useMutation({
    mutationFn: (fileName: string) => api.call(workspaceCalls.deleteEnv, { body: { ...scopeBody(scope), name: fileName } }),
    onSuccess: (_answer, fileName) => {
      const previous = list.get();
      if (previous) {
        const allEnv = previous.allEnv.filter((entry) => entry.name !== fileName);
        const lastActiveEnv =
          previous.lastActiveEnv === fileName || previous.lastActiveEnv === null ? (allEnv[0]?.name ?? null) : previous.lastActiveEnv;
        list.set({ allEnv, lastActiveEnv });
      }
      void list.refresh();
    },
  });
}
