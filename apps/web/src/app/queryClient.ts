import { QueryClient } from '@tanstack/react-query';

const minutes = (n: number) => n * 60_000;

/**
 * Server data timings: one retry on failure, fresh for 5 minutes, kept for 10, no
 * refetch when the window regains focus, no request time-out.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: 1,
        staleTime: minutes(5),
        gcTime: minutes(10),
        refetchOnWindowFocus: false,
      },
    },
  });
}
