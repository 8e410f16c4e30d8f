import { mailCalls, workspaceCalls, type MailUser, type TestDataRow } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { api } from '../../lib/api';
import { scopeBody, scopeKey, type WorkspaceScope } from '../workspace/scope';
import { inSubmittedOrder } from './row-order';

/** Query keys of test data (per branch) and mail users (per project). */
export const testDataKeys = {
  all: ['test-data'] as const,
  list: (scope: WorkspaceScope) => [...testDataKeys.all, scope.projectId, scopeKey(scope)] as const,
  totp: (scope: WorkspaceScope, key: string, environment: string) => [...testDataKeys.list(scope), 'totp', environment, key] as const,
  users: (projectId: string) => ['mail-users', projectId] as const,
};

export const testDataQueries = {
  list: (scope: WorkspaceScope) =>
    queryOptions({
      queryKey: testDataKeys.list(scope),
      queryFn: async () =>
        (
          await api.call(workspaceCalls.getTestData, {
            query: {
              projectId: scope.projectId,
              ...(scope.branch ? { branch: scope.branch } : {}),
              ...(scope.isPrivateRepo ? { isPrivateRepo: 'true' } : {}),
            },
          })
        ).testData,
    }),
};

export function useTestData(scope: WorkspaceScope) {
  return useQuery({ ...testDataQueries.list(scope), enabled: scope.ready });
}

/** Replaces all rows (the server keeps masked secrets as stored); the table shows the answer. */
export function useChangeTestData(scope: WorkspaceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: TestDataRow[]) => api.call(workspaceCalls.changeTestData, { body: { ...scopeBody(scope), testData: rows } }),
    onSuccess: ({ testData }, submitted) => {
      queryClient.setQueryData(testDataKeys.list(scope), inSubmittedOrder(testData, submitted));
      logActivity({ type: 'testData.change', detail: { rows: testData.length } });
    },
  });
}

/** The current code of a totp row and the seconds it stays valid; fetched again when it expires. */
export function useTotpCode(scope: WorkspaceScope, key: string, environment: string, enabled: boolean) {
  return useQuery({
    queryKey: testDataKeys.totp(scope, key, environment),
    queryFn: () => api.call(workspaceCalls.getTotpCode, { body: { ...scopeBody(scope), key, environment } }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => Math.max(1, query.state.data?.secondsLeft ?? 30) * 1000,
  });
}

/**
 * Reads one stored secret back (project admin; the server logs it). A mutation, not a query: the
 * plain value must never reach the persisted query cache.
 */
export function useRevealSecret(scope: WorkspaceScope) {
  return useMutation({
    mutationFn: async ({ key, environment }: { key: string; environment: string }) =>
      (await api.call(workspaceCalls.revealTestDataSecret, { body: { ...scopeBody(scope), key, environment } })).value,
  });
}

export function useMailUsers(projectId: string) {
  return useQuery({
    queryKey: testDataKeys.users(projectId),
    queryFn: async (): Promise<MailUser[]> => (await api.call(mailCalls.getUsers, { query: { project_id: projectId } })).users,
  });
}

export interface CredentialInput {
  username: string;
  password: string;
  secretKey: string;
}

/** Adds a user credential, or changes the one named `previous`. */
export function useSaveMailUser(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ previous, input }: { previous: string | null; input: CredentialInput }) => {
      const body = {
        project_id: projectId,
        username: input.username,
        password: input.password,
        ...(input.secretKey ? { secretKey: input.secretKey } : {}),
      };
      return previous === null
        ? api.call(mailCalls.addUser, { body })
        : api.call(mailCalls.updateUser, { body: { ...body, prev_username: previous } });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: testDataKeys.users(projectId) }),
  });
}

export function useDeleteMailUser(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api.call(mailCalls.deleteUser, { body: { project_id: projectId, username } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: testDataKeys.users(projectId) }),
  });
}
