import { downloadCalls, recorderCalls, runnerDownloadPath, systemCalls, type CallInput } from '@rehearse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { accessTokenKeys } from '../access-tokens/queries';
import { pickDownload, type VisitorPlatform } from './platform';

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
  latestAssets: () => [...downloadKeys.all, 'latest-assets'] as const,
};

export const downloadQueries = {
  /** The latest release's assets (spec 02 §7 latestAssets). */
  latestAssets: () =>
    queryOptions({
      queryKey: downloadKeys.latestAssets(),
      queryFn: async () => (await api.call(downloadCalls.latestAssets, {})).assets,
    }),
};

/**
 * Download app for the visitor's system (spec 01 §2: a Windows .exe or a macOS x64/arm64 zip from
 * the latest release, else the releases page; here the runner package), the fallback while loading
 * or when the call failed, and whether it failed (the page says so, as the spec does).
 */
export function useAppDownload(platform: VisitorPlatform): { url: string; failed: boolean } {
  const query = useQuery(downloadQueries.latestAssets());
  return { url: pickDownload(query.data ?? [], platform, RUNNER_FALLBACK_DOWNLOAD), failed: query.isError };
}

/** Spec 02 §7 storage event `download_editor`: Download app was clicked (failures ignored). */
export function reportDownload(projectId: string): void {
  void api.call(systemCalls.storageEvent, { body: { event: 'download_editor', project_id: projectId } }).catch(() => undefined);
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
