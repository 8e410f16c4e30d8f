import { Limits, workspaceCalls, type Project } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Query keys of branches (private-repository projects only, spec 01 §1). */
export const branchKeys = {
  all: ['branches'] as const,
  list: (projectId: string) => [...branchKeys.all, projectId] as const,
};

export interface BranchList {
  branches: string[];
  lastActiveBranch: string;
}

export const branchQueries = {
  list: (projectId: string) =>
    queryOptions({
      queryKey: branchKeys.list(projectId),
      queryFn: async (): Promise<BranchList> => {
        const { branches, lastActiveBranch } = await api.call(workspaceCalls.getAllBranches, {
          body: { projectId, isPrivateRepo: true },
        });
        return { branches, lastActiveBranch };
      },
    }),
};

/** The branches of a private-repository project; never asked for other projects. */
export function useBranches(project: Project) {
  return useQuery({ ...branchQueries.list(project.id), enabled: project.privateRepo });
}

/** Saves a branch as the caller's last active one (spec 01 §4). */
export function useSelectBranch(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (branch: string) =>
      api.call(workspaceCalls.updateLastActiveWorkspace, { body: { projectId, branch, isPrivateRepo: true } }),
    onMutate: (branch) => {
      const previous = queryClient.getQueryData<BranchList>(branchKeys.list(projectId));
      if (previous) queryClient.setQueryData(branchKeys.list(projectId), { ...previous, lastActiveBranch: branch });
      return { previous };
    },
    onError: (_error, _branch, context) => {
      if (context?.previous) queryClient.setQueryData(branchKeys.list(projectId), context.previous);
    },
  });
}

/** Creates a branch from another; the server makes it the caller's active branch. */
export function useCreateBranch(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sourceBranch, newBranch }: { sourceBranch: string; newBranch: string }) =>
      api.call(workspaceCalls.createNewBranch, { body: { projectId, sourceBranch, newBranch, isPrivateRepo: true } }),
    onSuccess: ({ branch }) => {
      const previous = queryClient.getQueryData<BranchList>(branchKeys.list(projectId));
      queryClient.setQueryData<BranchList>(branchKeys.list(projectId), {
        branches: [...new Set([...(previous?.branches ?? [Limits.defaultBranch]), branch])],
        lastActiveBranch: branch,
      });
      void queryClient.invalidateQueries({ queryKey: branchKeys.list(projectId) });
    },
  });
}

/** Deletes a branch that is not the caller's current one (spec 01 §4); the server refuses the current branch and main. */
export function useDeleteBranch(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (branch: string) => api.call(workspaceCalls.deleteBranch, { body: { projectId, branch, isPrivateRepo: true } }),
    onSuccess: (_answer, branch) => {
      queryClient.setQueryData<BranchList>(branchKeys.list(projectId), (previous) =>
        previous ? { ...previous, branches: previous.branches.filter((name) => name !== branch) } : previous,
      );
      void queryClient.invalidateQueries({ queryKey: branchKeys.list(projectId) });
    },
  });
}
