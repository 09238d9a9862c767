import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { MSG, type BillingInfo } from '../../contract';
import { isApiError } from '../api/ApiError';
import { errorMessage } from '../api/errorMessage';
import { billingApi } from '../api/instance';
import { session } from './session';
import { showToast } from './toasts';

/**
 * The signed-in account's billing info (balance, plan, storage, credit notes), shown by the
 * header's credits box, the billing tab and the pricing page. It belongs to one account: it is
 * fetched when an account signs in, refetched after purchases, uploads and downloads and when
 * another tab changes the session, and cleared when the session ends.
 */
export interface CreditsState {
  info: BillingInfo | null;
  /** 'loading' only while there is nothing to show yet; later refreshes keep the last info on screen. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Message of the last failed fetch (cleared by the next success). */
  error: string | null;
  /** The account (token subject) the info belongs to. */
  accountId: string | null;
}

export const credits = proxy<CreditsState>({ info: null, status: 'idle', error: null, accountId: null });

/** The long credits message needs more than the default 3 seconds to be read. */
const FAILURE_TOAST_MS = 10_000;

let inflight: Promise<BillingInfo | null> | null = null;
/** Bumped on every clear, so an answer for a session that has since ended is dropped. */
let generation = 0;

export function clearCredits() {
  generation++;
  inflight = null;
  credits.info = null;
  credits.status = 'idle';
  credits.error = null;
  credits.accountId = null;
}

/** One fetch at a time; resolves null when it failed (credits.error says why) or the session changed. */
function fetchInfo(): Promise<BillingInfo | null> {
  if (inflight) return inflight;
  const mine = generation;
  const run = billingApi
    .info()
    .then((info) => {
      if (mine !== generation) return null;
      // ref: the info is replaced whole on each fetch, never edited in place.
      credits.info = ref(info);
      credits.status = 'ready';
      credits.error = null;
      return info;
    })
    .catch((e: unknown) => {
      if (mine !== generation) return null;
      credits.error = errorMessage(e);
      credits.status = credits.info ? 'ready' : 'error';
      if (!isApiError(e)) console.warn('Could not refresh the credits', e);
      return null;
    })
    .finally(() => {
      if (inflight === run) inflight = null;
    });
  inflight = run;
  return run;
}

/**
 * Refetches the billing info. A failure keeps what was shown and, unless `quiet` (a screen that
 * reports it itself), tells the user with a toast. Resolves null when there is no session or it failed.
 */
export async function refreshCredits(options: { quiet?: boolean } = {}): Promise<BillingInfo | null> {
  if (!session.token) return null;
  const account = session.claims?.sub ?? null;
  if (credits.accountId !== account) {
    clearCredits();
    credits.accountId = account;
  }
  if (!credits.info) credits.status = 'loading';
  const info = await fetchInfo();
  // A refused token ended the session (the client handled it): there is nothing to report then.
  if (!info && credits.error && !options.quiet && session.token)
    showToast(MSG.creditsRefreshFailed, { tone: 'error', durationMs: FAILURE_TOAST_MS });
  return info;
}

// The info follows the session: another account (sign-in, impersonation) fetches its own, and no
// token clears it (logout, invalidation, expiry, another tab signing out).
subscribeKey(session, 'token', () => {
  const account = session.token ? (session.claims?.sub ?? null) : null;
  if (account === credits.accountId) return;
  clearCredits();
  if (account) void refreshCredits();
});
if (session.token && !credits.accountId) void refreshCredits();
