import { downloadCalls, recorderCalls, runnerDownloadPath, type CallInput } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { accessTokenKeys } from '../access-tokens/queries';

export type LocalLaunchBody = CallInput<typeof recorderCalls.localLaunch>['body'];

/** Where Download app points when the server lists no runner asset (or could not be asked). */
export const RUNNER_FALLBACK_DOWNLOAD = runnerDownloadPath('latest');

/** Query keys of the caller's cloud recorder sessions. */
export const recorderKeys = {
  mine: () => ['recorder', 'my-sessions'] as const,
};

/** The caller's live cloud sessions in every project (never persisted: they end within the hour). */
export function useMySessions(enabled: boolean) {
  return useQuery({
    queryKey: recorderKeys.mine(),
    queryFn: async () => (await api.call(recorderCalls.mySessions)).sessions,
    enabled,
    meta: { persist: false },
  });
}

/** Ends one of the caller's sessions, then lists what is left. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: string) => api.call(recorderCalls.deleteConnection, { body: { connectionName: connectionId } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: recorderKeys.mine() }),
  });
}

/** Query keys of the client downloads. */
export const downloadKeys = {
  all: ['downloads'] as const,
  latest: () => [...downloadKeys.all, 'latest'] as const,
};

export const downloadQueries = {
  /** The latest release's runner tarball URL (spec 02 §7 latestAssets), else this server's latest. */
  runnerUrl: () =>
    queryOptions({
      queryKey: downloadKeys.latest(),
      queryFn: async () => {
        const { assets } = await api.call(downloadCalls.latestAssets, {});
        return assets[0]?.browser_download_url ?? RUNNER_FALLBACK_DOWNLOAD;
      },
    }),
};

/**
 * The runner download for Download app: the fallback while loading or when the call failed, and
 * whether it failed (the page says so, as the spec does).
 */
export function useRunnerDownloadUrl(): { url: string; failed: boolean } {
  const query = useQuery(downloadQueries.runnerUrl());
  return { url: query.data ?? RUNNER_FALLBACK_DOWNLOAD, failed: query.isError };
}

/**
 * A local launch (issue 18): the server appends the caller's last unused launch key (or makes one)
 * and answers the command and the `rehearse://` link that carry it. A mutation, not a query: a call
 * may make a key, and the answer holds a token, which must never reach the (persisted) query cache.
 */
export function useLocalLaunch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LocalLaunchBody) => api.call(recorderCalls.localLaunch, { body }),
    onSuccess: (_answer, body) => void queryClient.invalidateQueries({ queryKey: accessTokenKeys.list(body.projectId) }),
  });
}
