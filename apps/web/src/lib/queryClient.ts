import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { isClientError } from './api';
import { StorageKeys } from './storage-keys';

/**
 * Server state lives only here. Spec 02 §9: the cache never expires, nothing refetches on
 * window focus, and the cache is persisted locally. Data is considered fresh for 30 s so moving
 * between screens does not refetch everything; mutations invalidate what they change.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: Number.POSITIVE_INFINITY,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx (including the 401 that opens Session Expired) will not get better by asking again.
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
    },
    mutations: { retry: false },
  },
});

function safeStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The cache is written to localStorage (throttled) and restored on the next load, so a reload
 * paints the last known projects and environments at once. `buster` drops caches written by
 * another build, whose query shapes may differ.
 */
export const persistOptions: Omit<PersistQueryClientOptions, 'queryClient'> = {
  persister: createSyncStoragePersister({ storage: safeStorage(), key: StorageKeys.queryCache, throttleTime: 1000 }),
  maxAge: Number.POSITIVE_INFINITY,
  buster: typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : import.meta.env.MODE,
  // Queries marked `meta: { persist: false }` (whole run reports, report pages, screenshots)
  // stay in memory only: writing megabytes to localStorage every second would stall the page.
  dehydrateOptions: {
    shouldDehydrateQuery: (query) => query.state.status === 'success' && query.meta?.persist !== false,
  },
};

/**
 * After a restore everything is shown at once but checked again: what was cached may have
 * changed while the tab was closed (another member, the CLI, another tab).
 */
export function revalidateAfterRestore(): Promise<void> {
  return queryClient.invalidateQueries();
}
