import { workspaceCalls, type StepDefinitionRef } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';

/** Query keys of unused step definitions, per project and branch. */
export const unusedStepKeys = {
  all: ['unused-steps'] as const,
  list: (scope: WorkspaceScope) => [...unusedStepKeys.all, scope.projectId, scopeKey(scope)] as const,
};

export const unusedStepQueries = {
  list: (scope: WorkspaceScope) =>
    queryOptions({
      queryKey: unusedStepKeys.list(scope),
      queryFn: async () => (await api.call(workspaceCalls.getUnusedStepDefinitions, { body: scopeBody(scope) })).stepDefRefs,
      // Always fresh on arrival: the list changes whenever scenarios or step files do.
      staleTime: 0,
    }),
};

export function useUnusedSteps(scope: WorkspaceScope) {
  return useQuery({ ...unusedStepQueries.list(scope), enabled: scope.ready });
}

/** One step's identity: the same pattern may exist in two files or twice in one. */
export function stepKey(step: StepDefinitionRef): string {
  return `${step.uri}:${step.line}:${step.pattern}`;
}

/**
 * Removes unused step definitions; an empty list removes every unused one (spec 01 §4). The
 * list drops them at once, then is fetched again.
 */
export function useRemoveUnusedSteps(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (steps: StepDefinitionRef[]) => api.call(workspaceCalls.removeUnusedSteps, { body: { ...scopeBody(scope), input: steps } }),
    onSuccess: ({ removed }, steps) => {
      const gone = new Set(steps.map(stepKey));
      queryClient.setQueryData<StepDefinitionRef[]>(unusedStepKeys.list(scope), (list) =>
        steps.length === 0 ? [] : list?.filter((step) => !gone.has(stepKey(step))),
      );
      void queryClient.invalidateQueries({ queryKey: unusedStepKeys.list(scope) });
      logActivity({ type: 'steps.removeUnused', detail: { removed } });
    },
  });
}
