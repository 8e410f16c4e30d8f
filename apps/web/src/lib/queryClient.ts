import { QueryClient } from '@tanstack/react-query';
import { isClientError } from './api';

/**
 * Server state lives only here. Spec 02 §9: the cache never expires and nothing refetches on
 * window focus. Data is considered fresh for 30 s so moving between screens does not refetch
 * everything; mutations invalidate what they change.
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
