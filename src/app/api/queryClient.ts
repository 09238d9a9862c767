import { focusManager, QueryClient } from '@tanstack/react-query';
import { isApiError } from './ApiError';

/**
 * Server state of the app (TanStack Query): credits, libraries, the account, preview tokens,
 * folder listings, transcripts and search answers, each under its key (`queryKeys.ts`). UI state
 * stays in valtio. Emptied whenever the signed-in account changes.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer; a network fault or a 5xx is tried again twice.
      retry: (failures, e) => failures < 2 && !(isApiError(e) && e.status >= 400 && e.status < 500),
      // Only the queries that say so refetch on focus (the credits when stale, the billing tab always).
      refetchOnWindowFocus: false,
    },
  },
});

// A tab shown again, and a window focused again (the billing portal may have opened in a window of
// its own, leaving this one visible): TanStack listens to the first only.
focusManager.setEventListener((handleFocus) => {
  if (typeof window === 'undefined') return undefined;
  const onChange = () => handleFocus();
  window.addEventListener('visibilitychange', onChange, false);
  window.addEventListener('focus', onChange, false);
  return () => {
    window.removeEventListener('visibilitychange', onChange);
    window.removeEventListener('focus', onChange);
  };
});
