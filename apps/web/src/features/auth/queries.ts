import { authCalls, type CallInput } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { session } from '../../lib/session';
import { StorageKeys } from '../../lib/storage-keys';

/** Query keys of the signed-in user. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

export const authQueries = {
  me: () =>
    queryOptions({
      queryKey: authKeys.me(),
      queryFn: async () => (await api.call(authCalls.me)).user,
    }),
};

/** Whether the server offers single sign-on, and its button's name (asked before anyone signs in). */
export function useSsoConfig() {
  return useQuery({ queryKey: [...authKeys.all, 'sso'], queryFn: () => api.call(authCalls.ssoConfig), staleTime: Infinity });
}

/** Two-factor sign-in of the caller's own account: its status, and the steps that change it. */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: [...authKeys.me(), 'two-factor'], queryFn: () => api.call(authCalls.twoFactorStatus) });
}

export function useTwoFactorChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...authKeys.me(), 'two-factor'] });
  return {
    begin: useMutation({ mutationFn: () => api.call(authCalls.twoFactorBegin) }),
    enable: useMutation({ mutationFn: (code: string) => api.call(authCalls.twoFactorEnable, { body: { code } }), onSuccess: refresh }),
    disable: useMutation({ mutationFn: (code: string) => api.call(authCalls.twoFactorDisable, { body: { code } }), onSuccess: refresh }),
  };
}

/** The signed-in user (name for the user menu, remaining project count, ...). */
export function useMe() {
  return useQuery(authQueries.me());
}

export type LoginBody = CallInput<typeof authCalls.login>['body'];
export type SignupBody = CallInput<typeof authCalls.signup>['body'];

/** Signs in; on success the previous user's cache is dropped and the new token stored. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api.call(authCalls.login, { body }),
    onSuccess: ({ token }) => {
      queryClient.clear();
      session.signIn(token);
    },
  });
}

/**
 * Creates the account (and, on the server, its Default project) and signs in. A new user's guided
 * tour now waits on Features; `onAccount` hears the new project before the session starts, so the
 * page that follows can be chosen for it.
 */
export function useSignup({ onAccount }: { onAccount?: (answer: { projectId: string; isNewUser: boolean }) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignupBody) => api.call(authCalls.signup, { body }),
    onSuccess: ({ token, project, isNewUser }) => {
      queryClient.clear();
      if (isNewUser) {
        try {
          localStorage.setItem(StorageKeys.tourPending, '1');
        } catch {
          // Private mode: the tour still starts on the page the sign-up lands on.
        }
      }
      onAccount?.({ projectId: project._id, isNewUser });
      session.signIn(token);
    },
  });
}

/**
 * Ends the session on the server, then forgets it here whatever the server said: a user who asks
 * to log out is logged out on this device even when the server cannot be reached.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      session.beginSignOut();
      await api.call(authCalls.logout);
    },
    onSettled: () => {
      session.signOut();
      queryClient.clear();
      // The persisted copy of the cache (members, projects) must not outlive the session.
      try {
        localStorage.removeItem(StorageKeys.queryCache);
      } catch {
        // Storage unavailable: nothing was persisted either.
      }
    },
  });
}
