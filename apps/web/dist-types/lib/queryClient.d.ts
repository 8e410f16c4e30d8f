import { QueryClient } from '@tanstack/react-query';
/**
 * Server state lives only here. Spec 02 §9: the cache never expires and nothing refetches on
 * window focus. Data is considered fresh for 30 s so moving between screens does not refetch
 * everything; mutations invalidate what they change.
 */
export declare const queryClient: QueryClient;
