import {
  authCalls,
  executionCalls,
  executionStatusEvent,
  Execution,
  workspaceCalls,
  type ExecutionInput,
  ExecutionStatus,
  ProjectServerEventSchemas,
  type Schedule,
} from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { appSocket, checked } from '../../lib/socket';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';

/** Query keys of executions. */
export const executionKeys = {
  all: ['executions'] as const,
  list: (projectId: string) => [...executionKeys.all, 'list', projectId] as const,
  one: (id: string) => [...executionKeys.all, 'one', id] as const,
  threads: (projectId: string) => [...executionKeys.all, 'threads', projectId] as const,
  features: (scope: WorkspaceScope) => [...executionKeys.all, 'features', scope.projectId, scopeKey(scope)] as const,
  instructions: (projectId: string, options: RunInstructionsOptions) =>
    [
      ...executionKeys.all,
      'instructions',
      projectId,
      options.env ?? '',
      options.branch ?? '',
      options.feature ?? '',
      options.scenario ?? '',
    ] as const,
};

export const executionQueries = {
  list: (projectId: string) =>
    queryOptions({
      queryKey: executionKeys.list(projectId),
      queryFn: async () => (await api.call(executionCalls.list, { query: { projectId } })).executions,
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: executionKeys.one(id),
      queryFn: async () => (await api.call(executionCalls.get, { params: { id } })).execution,
    }),
};

export function useExecutions(projectId: string) {
  return useQuery(executionQueries.list(projectId));
}

export function useExecution(id: string) {
  return useQuery(executionQueries.one(id));
}

/** Threads not taken by running executions, and the project's maximum (spec 02 §2). */
export function useFreeThreads(projectId: string) {
  return useQuery({
    queryKey: executionKeys.threads(projectId),
    queryFn: () => api.call(executionCalls.freeThreadCount, { query: { projectId } }),
  });
}

/** Features with their scenarios and the project's tags, for the planner. */
export function usePlannerFeatures(scope: WorkspaceScope) {
  return useQuery({
    queryKey: executionKeys.features(scope),
    enabled: scope.ready,
    queryFn: async () => {
      const answer = await api.call(workspaceCalls.getFeatureList, { body: scopeBody(scope) });
      return { features: answer.features, allTags: answer.allTags };
    },
  });
}

/** What the CI text is for: an environment (else the project's first), a branch, one scenario. */
export interface RunInstructionsOptions {
  env?: string | undefined;
  branch?: string | undefined;
  feature?: string | undefined;
  scenario?: string | undefined;
}

/** The CI/CD text, from the server: the one source for the CI/CD page and the scenario dialog. */
export function useRunInstructions(projectId: string, options: RunInstructionsOptions) {
  return useQuery({
    queryKey: executionKeys.instructions(projectId, options),
    queryFn: () =>
      api.call(executionCalls.runInstructions, {
        query: {
          projectId,
          ...(options.env ? { env: options.env } : {}),
          ...(options.branch ? { branch: options.branch } : {}),
          ...(options.feature && options.scenario ? { feature: options.feature, scenario: options.scenario } : {}),
        },
      }),
  });
}

/** Spec 02 §6: the creator by member name, else email, else 'Unknown User' ('-' without a user). */
export function useCreatorName(projectId: string): (execution: Pick<Execution, 'userId' | 'creator'>) => string {
  const members = useQuery({
    queryKey: ['members', projectId, 'for-executions'] as const,
    queryFn: async () => (await api.call(authCalls.getMembers, { query: { project_id: projectId } })).members,
  });
  return (execution) => {
    if (!execution.userId) return '-';
    const member = members.data?.find((m) => m.user_id === execution.userId);
    return member?.name || member?.user_email || execution.creator || 'Unknown User';
  };
}

/** The input of an update from a stored execution. */
export function toInput(execution: Execution): ExecutionInput {
  return {
    projectId: execution.projectId,
    name: execution.name,
    env: execution.env,
    branch: execution.branch,
    flows: execution.flows.map((flow) => ({
      viewport: flow.viewport,
      browser: flow.browser,
      scenarioGroups: flow.scenarioGroups.map((g) => ({ name: g.name, threadCount: g.threadCount, tags: g.tags })),
    })),
    schedule: execution.schedule,
    isSingleThreaded: execution.isSingleThreaded,
    enabled: execution.enabled,
  };
}

/** Every execution call the screens make; each refreshes the list it changes. */
export function useExecutionMutations(projectId: string) {
  const client = useQueryClient();
  const patchList = (execution: Execution) =>
    client.setQueryData<Execution[]>(executionKeys.list(projectId), (list) => list?.map((e) => (e.id === execution.id ? execution : e)));
  const refresh = () => client.invalidateQueries({ queryKey: executionKeys.all });
  return {
    create: useMutation({
      mutationFn: (input: ExecutionInput) => api.call(executionCalls.create, { body: input }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: (input: { id: string; body: ExecutionInput; scheduleChanged: boolean }) =>
        api.call(executionCalls.update, {
          params: { id: input.id },
          query: input.scheduleChanged ? { wasScheduleUpdated: 'true' } : {},
          body: input.body,
        }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call(executionCalls.remove, { params: { id } }),
      onSuccess: refresh,
    }),
    // Spec 02 §4: the Enabled toggle updates the list locally at once, then from the server's answer.
    schedule: useMutation({
      mutationFn: (input: { id: string; schedule?: Schedule }) =>
        api.call(executionCalls.schedule, { params: { id: input.id }, body: input.schedule ? { schedule: input.schedule } : {} }),
      onMutate: ({ id }) =>
        client.setQueryData<Execution[]>(executionKeys.list(projectId), (list) =>
          list?.map((e) => (e.id === id ? { ...e, enabled: true } : e)),
        ),
      onSuccess: ({ execution }) => patchList(execution),
      onError: refresh,
    }),
    deschedule: useMutation({
      mutationFn: (id: string) => api.call(executionCalls.deschedule, { params: { id } }),
      onMutate: (id) =>
        client.setQueryData<Execution[]>(executionKeys.list(projectId), (list) =>
          list?.map((e) => (e.id === id ? { ...e, enabled: false } : e)),
        ),
      onSuccess: ({ execution }) => patchList(execution),
      onError: refresh,
    }),
    run: useMutation({
      mutationFn: (id: string) => api.call(executionCalls.run, { params: { id } }),
      onSuccess: ({ execution }) => {
        patchList(execution);
        void refresh();
      },
    }),
    halt: useMutation({
      mutationFn: (id: string) => api.call(executionCalls.halt, { params: { id } }),
      onSuccess: ({ execution }) => {
        patchList(execution);
        void refresh();
      },
    }),
  };
}

/**
 * Live updates of spec 02 §4: `crudUpdate` replaces the list, `statusUpdate:{id}` carries each
 * running execution's counters. Answers the latest counters per execution id.
 */
export function useLiveExecutions(projectId: string, executionIds: string[]): Record<string, ExecutionStatus> {
  const client = useQueryClient();
  const [status, setStatus] = useState<Record<string, ExecutionStatus>>({});
  const idsKey = executionIds.join(',');

  useEffect(() => {
    const socket = appSocket();
    const subscribe = () => {
      socket.emit('subscribeToExecutionStatus', { projectId }, () => undefined);
      socket.emit('subscribeToExecutionCrud', { projectId }, () => undefined);
    };
    const onCrud = checked(ProjectServerEventSchemas.crudUpdate, (payload) => {
      if (payload.projectId !== projectId) return;
      const parsed = Execution.array().safeParse(payload.executions);
      if (parsed.success) client.setQueryData(executionKeys.list(projectId), parsed.data);
      else void client.invalidateQueries({ queryKey: executionKeys.list(projectId) });
      // A start or an end elsewhere takes or frees threads, which the Run buttons read.
      void client.invalidateQueries({ queryKey: executionKeys.threads(projectId) });
    });
    if (socket.connected) subscribe();
    socket.on('connect', subscribe);
    socket.on('crudUpdate', onCrud);
    return () => {
      socket.off('connect', subscribe);
      socket.off('crudUpdate', onCrud);
    };
  }, [projectId, client]);

  useEffect(() => {
    const socket = appSocket();
    const ids = idsKey ? idsKey.split(',') : [];
    const handlers = ids.map((id) => {
      const handler = checked(ExecutionStatus, (payload) => {
        setStatus((prev) => ({ ...prev, [id]: payload }));
        // The run finished: the list's running flag and report link change with it.
        if (!payload.running) {
          void client.invalidateQueries({ queryKey: executionKeys.list(projectId) });
          void client.invalidateQueries({ queryKey: executionKeys.threads(projectId) });
        }
      });
      socket.on(executionStatusEvent(id), handler);
      return [id, handler] as const;
    });
    return () => {
      for (const [id, handler] of handlers) socket.off(executionStatusEvent(id), handler);
    };
  }, [idsKey, projectId, client]);

  return status;
}
