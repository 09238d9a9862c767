import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { MSG, type BillingInfo } from '../../contract';
import { isApiError } from '../api/ApiError';
import { errorMessage } from '../api/errorMessage';
import { billingApi } from '../api/instance';
import { CREDITS_FOLLOW, creditsChanged, nextFollowDelay } from './creditsFollow';
import { session } from './session';
import { showToast } from './toasts';

/**
 * The signed-in account's billing info (balance, plan, storage, credit notes), shown by the
 * header's credits box, the billing tab and the pricing page. It belongs to one account: it is
 * fetched when an account signs in, refetched after purchases, uploads and downloads and when
 * another tab changes the session, and cleared when the session ends. It follows every charge:
 * while the server reports charges on their way (media being indexed, renders being made, whatever
 * screen or device started them) it is refetched every few seconds (creditsFollow.ts), and a tab
 * shown again refetches figures older than 15 s.
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

/** The refetch that follows charges on their way, and what it goes by. */
const follow = {
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  /** Refetches in a row that found nothing changed. */
  unchanged: 0,
  /** Until when a change is awaited (epoch ms; 0: none). */
  awaitUntil: 0,
  /** When the info was last fetched (epoch ms). */
  fetchedAt: 0,
  /** A refetch came due while the tab was hidden: it is made when the tab is shown. */
  dueWhileHidden: false,
};

const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

function stopFollowing() {
  clearTimeout(follow.timer);
  follow.timer = undefined;
  follow.unchanged = 0;
  follow.awaitUntil = 0;
  follow.dueWhileHidden = false;
}

/** After a fetch: schedules the next one while charges are on their way or a change is awaited. */
function followUp(before: BillingInfo | null, after: BillingInfo | null) {
  clearTimeout(follow.timer);
  follow.timer = undefined;
  if (after) {
    const changed = creditsChanged(before, after);
    follow.unchanged = changed ? 0 : follow.unchanged + 1;
    if (changed) follow.awaitUntil = 0;
  } else follow.unchanged++;
  if (follow.awaitUntil && Date.now() > follow.awaitUntil) follow.awaitUntil = 0;
  const delay = nextFollowDelay(credits.info, follow.unchanged - 1, follow.awaitUntil > 0);
  if (delay === null) return;
  follow.timer = setTimeout(() => {
    follow.timer = undefined;
    // A hidden tab does not poll; it catches up when shown.
    if (hidden()) follow.dueWhileHidden = true;
    else void refreshCredits({ quiet: true });
  }, delay);
}

export function clearCredits() {
  generation++;
  inflight = null;
  stopFollowing();
  credits.info = null;
  credits.status = 'idle';
  credits.error = null;
  credits.accountId = null;
}

/** One fetch at a time; resolves null when it failed (credits.error says why) or the session changed. */
function fetchInfo(): Promise<BillingInfo | null> {
  if (inflight) return inflight;
  const mine = generation;
  const before = credits.info;
  const run = billingApi
    .info()
    .then((info) => {
      if (mine !== generation) return null;
      // ref: the info is replaced whole on each fetch, never edited in place.
      credits.info = ref(info);
      credits.status = 'ready';
      credits.error = null;
      follow.fetchedAt = Date.now();
      followUp(before, info);
      return info;
    })
    .catch((e: unknown) => {
      if (mine !== generation) return null;
      credits.error = errorMessage(e);
      credits.status = credits.info ? 'ready' : 'error';
      if (!isApiError(e)) console.warn('Could not refresh the credits', e);
      if (session.token) followUp(before, null);
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

/**
 * Follows the billing info until it changes (or `withinMs` passes): a purchase paid on a checkout
 * page is credited when the provider's webhook arrives, a moment after the user is sent back.
 */
export function awaitCreditsChange(withinMs = 120_000) {
  follow.awaitUntil = Date.now() + withinMs;
  follow.unchanged = 0;
  return refreshCredits({ quiet: true });
}

// A tab shown again catches up: a refetch that came due while hidden, or figures older than 15 s
// (a charge made in another tab or on another device).
if (typeof document !== 'undefined')
  document.addEventListener('visibilitychange', () => {
    if (hidden() || !session.token || !credits.accountId) return;
    const due = follow.dueWhileHidden || Date.now() - follow.fetchedAt > CREDITS_FOLLOW.staleMs;
    follow.dueWhileHidden = false;
    if (due) void refreshCredits({ quiet: true });
  });

// The info follows the session: another account (sign-in, impersonation) fetches its own, and no
// token clears it (logout, invalidation, expiry, another tab signing out).
subscribeKey(session, 'token', () => {
  const account = session.token ? (session.claims?.sub ?? null) : null;
  if (account === credits.accountId) return;
  clearCredits();
  if (account) void refreshCredits();
});
if (session.token && !credits.accountId) void refreshCredits();
