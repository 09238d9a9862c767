import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './ApiError';

/**
 * Server state of the screens (TanStack Query): the folder listings and search answers, cached by
 * what was asked. UI state stays in valtio. Emptied whenever the signed-in account changes.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer; a network fault or a 5xx is tried again twice.
      retry: (failures, e) => failures < 2 && !(isApiError(e) && e.status >= 400 && e.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
