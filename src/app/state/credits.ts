import { isCancelledError, QueryObserver, queryOptions, type QueryState } from '@tanstack/react-query';
import { subscribeKey } from 'valtio/utils';
import { MSG, type BillingInfo } from '../../contract';
import { isApiError } from '../api/ApiError';
import { billingApi } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { CREDITS_FOLLOW, creditsChanged, nextFollowDelay } from './creditsFollow';
import { session } from './session';
import { showToast } from './toasts';

/**
 * The signed-in account's billing info (balance, plan, storage, credit notes), shown by the
 * header's credits box, the billing tab and the pricing page, as server state (TanStack Query,
 * `queryKeys.credits(account)`). It belongs to one account: it is fetched when an account signs in,
 * invalidated after purchases, uploads and downloads (`invalidateCredits`) and when another tab
 * changes the session, and removed with the account's other queries when the session ends. It
 * follows every charge: while the server reports charges on their way (media being indexed, renders
 * being made, whatever screen or device started them) it is refetched every few seconds
 * (`refetchInterval`, creditsFollow.ts), and a tab shown again refetches figures older than 15 s.
 */
export interface CreditsData {
  info: BillingInfo;
  /** Fetches in a row, this one included, that found nothing changed (see `nextFollowDelay`). */
  unchanged: number;
  /** The query's failed fetches when this one answered: each failure since counts as unchanged too. */
  failuresBefore: number;
}

/** The long credits message needs more than the default 3 seconds to be read. */
const FAILURE_TOAST_MS = 10_000;

/** A checkout's return: its account's credits are followed until they change, or until `until` (epoch ms). */
let awaiting: { accountId: string; until: number } | null = null;

/** What the follow reads of the credits query (the options' callbacks are handed the query). */
interface FollowedQuery {
  queryKey: readonly unknown[];
  state: QueryState<CreditsData, Error>;
}

/** When the follow refetches next (ms), or null when nothing is on its way and no change is awaited. */
export function followDelay(data: CreditsData | undefined, failures: number, accountId: string, now = Date.now()): number | null {
  const awaitingChange = awaiting !== null && awaiting.accountId === accountId && now <= awaiting.until;
  const unchanged = (data?.unchanged ?? 0) + failures - (data ? data.failuresBefore : 0);
  return nextFollowDelay(data?.info ?? null, unchanged - 1, awaitingChange);
}

const delayOf = (query: FollowedQuery) => followDelay(query.state.data, query.state.errorUpdateCount, String(query.queryKey[1]));

/**
 * The credits query of an account (null: no session, nothing fetched). One request at a time; not
 * retried (the follow asks again); a failure keeps the last figures on screen.
 */
export const creditsQuery = (accountId: string | null) =>
  queryOptions({
    queryKey: queryKeys.credits(accountId ?? ''),
    queryFn: async (): Promise<CreditsData> => {
      const key = queryKeys.credits(accountId!);
      const before = queryClient.getQueryState<CreditsData>(key);
      const info = await billingApi.info();
      const changed = creditsChanged(before?.data?.info ?? null, info);
      if (changed && awaiting?.accountId === accountId) awaiting = null;
      const unchanged = changed
        ? 0
        : (before?.data?.unchanged ?? 0) + (before?.errorUpdateCount ?? 0) - (before?.data?.failuresBefore ?? 0) + 1;
      return { info, unchanged, failuresBefore: before?.errorUpdateCount ?? 0 };
    },
    enabled: accountId !== null,
    retry: false,
    // Asked when the browser calls itself offline too: the failure shows at once, as it did.
    networkMode: 'always',
    // While charges are on their way the figures are refetched on the follow's schedule; a hidden
    // tab does not poll (refetchIntervalInBackground is off) and catches up when shown: figures
    // older than the follow's next refetch, or than 15 s, are stale then.
    refetchInterval: (query) => delayOf(query) ?? false,
    staleTime: (query) => Math.min(delayOf(query) ?? Infinity, CREDITS_FOLLOW.staleMs),
    refetchOnWindowFocus: true,
  });

/** The signed-in account (token subject), or null. */
const currentAccount = () => (session.token ? (session.claims?.sub ?? null) : null);

/**
 * Keeps the current account's credits query observed (fetched, followed, refetched on focus)
 * whatever screen shows: the header may not be there (pricing page, a phone's menu closed).
 */
const follower = new QueryObserver(queryClient, creditsQuery(null));
follower.subscribe(() => undefined);
let followed: string | null = null;
function followAccount() {
  const accountId = currentAccount();
  // The same account still observed (an account's queries are removed when it signs out, so one
  // signed out and in again is observed afresh).
  const query = queryClient.getQueryCache().find<CreditsData>({ queryKey: queryKeys.credits(accountId ?? ''), exact: true });
  if (accountId === followed && query === (follower.getCurrentQuery() as unknown)) return;
  followed = accountId;
  if (awaiting && awaiting.accountId !== accountId) awaiting = null;
  follower.setOptions(creditsQuery(accountId));
}

/** The billing info on hand for the signed-in account (null: none yet, or no session). For code outside React. */
export function creditsInfo(): BillingInfo | null {
  const accountId = currentAccount();
  return accountId ? (queryClient.getQueryData<CreditsData>(queryKeys.credits(accountId))?.info ?? null) : null;
}

/**
 * Invalidates the billing info (after a purchase, an upload, a download, a render): it is fetched
 * again at once. A failure keeps what was shown and, unless `quiet` (a screen that reports it
 * itself), tells the user with a toast. Resolves the fresh info, or null when there is no session or
 * it failed.
 */
export async function invalidateCredits(options: { quiet?: boolean } = {}): Promise<BillingInfo | null> {
  followAccount();
  const accountId = currentAccount();
  if (!accountId) return null;
  try {
    await queryClient.invalidateQueries({ queryKey: queryKeys.credits(accountId) }, { throwOnError: true });
  } catch (e) {
    // Another invalidation took over this fetch: its answer is the one shown.
    if (isCancelledError(e)) return creditsInfo();
    if (!isApiError(e)) console.warn('Could not refresh the credits', e);
    // A refused token ended the session (the client handled it): there is nothing to report then.
    if (!options.quiet && currentAccount() === accountId)
      showToast(MSG.creditsRefreshFailed, { tone: 'error', durationMs: FAILURE_TOAST_MS });
    return null;
  }
  return currentAccount() === accountId ? creditsInfo() : null;
}

/**
 * Follows the billing info until it changes (or `withinMs` passes): a purchase paid on a checkout
 * page is credited when the provider's webhook arrives, a moment after the user is sent back.
 */
export function awaitCreditsChange(withinMs = 120_000) {
  followAccount();
  const accountId = currentAccount();
  if (!accountId) return Promise.resolve(null);
  awaiting = { accountId, until: Date.now() + withinMs };
  // The follow starts over from its first, quickest refetch.
  const key = queryKeys.credits(accountId);
  const state = queryClient.getQueryState<CreditsData>(key);
  if (state?.data)
    queryClient.setQueryData<CreditsData>(
      key,
      { ...state.data, unchanged: 0, failuresBefore: state.errorUpdateCount },
      { updatedAt: state.dataUpdatedAt },
    );
  return invalidateCredits({ quiet: true });
}

// The info follows the session: another account (sign-in, impersonation) fetches its own (the
// toast says so if it cannot), and no token leaves nothing observed (`adoptToken` has removed the
// account's queries).
subscribeKey(session, 'token', () => {
  const before = followed;
  followAccount();
  if (followed && followed !== before) void invalidateCredits();
});
if (currentAccount()) {
  followAccount();
  void invalidateCredits();
}
