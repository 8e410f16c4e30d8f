import { adminCalls, type InstanceSettingsChange, type InstanceSettingsView, type SsoSettingsChange } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { logActivity } from '../../lib/activity-log';
import { toast } from 'sonner';
import { api, errorMessage } from '../../lib/api';
import { authKeys } from '../auth/queries';
import { projectKeys } from '../projects/queries';

/** Query keys of instance administration. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  projects: () => [...adminKeys.all, 'projects'] as const,
  workers: () => [...adminKeys.all, 'workers'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  activity: () => [...adminKeys.all, 'activity'] as const,
};

/** The settings, their sources and the environment's values of a settings answer (without its status). */
const settingsView = ({ settings, sources, environment }: InstanceSettingsView): InstanceSettingsView => ({
  settings,
  sources,
  environment,
});

const adminQueries = {
  users: () => queryOptions({ queryKey: adminKeys.users(), queryFn: async () => (await api.call(adminCalls.listUsers)).users }),
  projects: () => queryOptions({ queryKey: adminKeys.projects(), queryFn: async () => (await api.call(adminCalls.listProjects)).projects }),
  // Agents come and go: the list is read again every 10 s while the tab is open.
  workers: () => queryOptions({ queryKey: adminKeys.workers(), queryFn: () => api.call(adminCalls.listWorkers), refetchInterval: 10_000 }),
  settings: () =>
    queryOptions({ queryKey: adminKeys.settings(), queryFn: async () => settingsView(await api.call(adminCalls.getSettings)) }),
  activity: () =>
    queryOptions({
      queryKey: adminKeys.activity(),
      queryFn: async () => (await api.call(adminCalls.listActivity, { query: { limit: ACTIVITY_SHOWN } })).activity,
      // Any change on the other tabs adds an entry: read again each time the tab opens.
      staleTime: 0,
      refetchOnMount: 'always',
    }),
};

/** The audit entries the Activity tab shows, newest first (the call's own maximum). */
export const ACTIVITY_SHOWN = 500;

export const useAdminUsers = () => useQuery(adminQueries.users());
export const useAdminProjects = () => useQuery(adminQueries.projects());
export const useAdminWorkers = () => useQuery(adminQueries.workers());
/** The instance settings; `enabled` false asks nothing (the dashboard's note, for administrators only). */
export const useInstanceSettings = (enabled = true) => useQuery({ ...adminQueries.settings(), enabled });
export const useAdminActivity = () => useQuery(adminQueries.activity());

/** Every administration change but a revoke (its confirm dialog says it) reports a failure the same way. */
const toastFailure = (error: unknown) => void toast.error(errorMessage(error));

/** Lifts the blocks failed sign-ins put on an account (all browsers, and the account-wide guard). */
export function useClearSignInBlocks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.call(adminCalls.clearSignInBlocks, { params: { userId } }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.user.clearSignInBlocks' });
      await client.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

/** Turns off a user's two-factor sign-in (they lost their phone and their recovery codes). */
export function useResetTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.call(adminCalls.resetTwoFactor, { params: { userId } }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.user.resetTwoFactor' });
      await client.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

/** Single sign-on as configured (never its secret), and the changes an administrator makes to it. */
export function useSingleSignOn() {
  return useQuery({ queryKey: [...adminKeys.settings(), 'sso'], queryFn: async () => (await api.call(adminCalls.getSingleSignOn)).sso });
}

export function useSingleSignOnChanges() {
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: [...adminKeys.settings(), 'sso'] });
    await client.invalidateQueries({ queryKey: adminKeys.activity() });
  };
  return {
    save: useMutation({
      mutationFn: (body: SsoSettingsChange) => api.call(adminCalls.updateSingleSignOn, { body }),
      onSuccess: refresh,
    }),
    clear: useMutation({ mutationFn: () => api.call(adminCalls.clearSingleSignOn), onError: toastFailure, onSuccess: refresh }),
  };
}

type UserChanges = { disabled?: boolean; instanceAdmin?: boolean; allowedProjectsCount?: number; allowDeleteProjects?: boolean };

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, changes }: { userId: string; changes: UserChanges }) =>
      api.call(adminCalls.updateUser, { params: { userId }, body: changes }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.user.update' });
      await client.invalidateQueries({ queryKey: adminKeys.users() });
      // The signed-in administrator may have changed their own allowance.
      await client.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

export function useExtendLicence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, days }: { projectId: string; days: number }) =>
      api.call(adminCalls.extendLicence, { params: { projectId }, body: { days } }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.project.extendLicence' });
      // The administrator's own projects (an expired one they are in) read the new licence at once.
      await Promise.all([
        client.invalidateQueries({ queryKey: adminKeys.projects() }),
        client.invalidateQueries({ queryKey: projectKeys.all }),
      ]);
    },
  });
}

export function useUpdateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, changes }: { projectId: string; changes: { maxExecutionThreads?: number; privateRepo?: boolean } }) =>
      api.call(adminCalls.updateProject, { params: { projectId }, body: changes }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.project.update' });
      await Promise.all([
        client.invalidateQueries({ queryKey: adminKeys.projects() }),
        client.invalidateQueries({ queryKey: projectKeys.all }),
      ]);
    },
  });
}

export function useCreateWorkerToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.call(adminCalls.createWorkerToken, { body: { name } }),
    onError: toastFailure,
    onSuccess: async () => {
      logActivity({ type: 'admin.workerToken.create' });
      await client.invalidateQueries({ queryKey: adminKeys.workers() });
    },
  });
}

export function useDeleteWorkerToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api.call(adminCalls.deleteWorkerToken, { params: { tokenId } }),
    onSuccess: async () => {
      logActivity({ type: 'admin.workerToken.delete' });
      await client.invalidateQueries({ queryKey: adminKeys.workers() });
    },
  });
}

export function useSaveInstanceSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: InstanceSettingsChange) => api.call(adminCalls.updateSettings, { body: change }),
    onError: toastFailure,
    onSuccess: (answer) => {
      logActivity({ type: 'admin.settings.update' });
      client.setQueryData(adminKeys.settings(), settingsView(answer));
    },
  });
}
