import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { BillingInfo } from '../../contract';
import { errorMessage } from '../api/errorMessage';
import { creditsQuery } from '../state/credits';
import { session } from '../state/session';

export interface CreditsView {
  info: BillingInfo | null;
  /** 'loading' only while there is nothing to show yet; later refreshes keep the last info on screen. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Message of the last failed fetch (cleared by the next success). */
  error: string | null;
  /** The account (token subject) the info belongs to. */
  accountId: string | null;
}

/**
 * The signed-in account's billing info for a component (the credits query, state/credits.ts).
 * Mounting it asks for nothing more: the query is fetched, followed and refetched on focus for the
 * account whatever shows it; `options` lets a screen ask more of it (the billing tab: on focus even
 * when fresh).
 */
export function useCredits(options: { refetchOnWindowFocus?: 'always' } = {}): CreditsView {
  const { token, claims } = useSnapshot(session);
  const accountId = token ? (claims?.sub ?? null) : null;
  const query = useQuery({
    ...creditsQuery(accountId),
    refetchOnMount: false,
    retryOnMount: false,
    refetchInterval: false,
    refetchOnWindowFocus: options.refetchOnWindowFocus ?? false,
  });
  const info = query.data?.info ?? null;
  const error = query.error ? errorMessage(query.error) : null;
  const status = !accountId ? 'idle' : info ? 'ready' : query.isFetching || !query.isError ? 'loading' : 'error';
  return { info, status, error, accountId };
}
