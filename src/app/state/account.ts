import { subscribeKey } from 'valtio/utils';
import { SW_REFRESH_ACCOUNT_DETAILS, type User } from '../../contract';
import { isApiError } from '../api/ApiError';
import { api } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { invalidateCredits } from './credits';
import { adoptToken, clearSession, readStoredToken, session, setUser, TOKEN_STORAGE_KEY } from './session';
import { isExpired, MAX_TIMER_MS, refreshDelayMs } from './tokenClaims';

/** Records a successful sign-in (login, register, email confirmation); the answer already stored the token. */
export function signedIn(user: User) {
  setUser(user);
  announceAccountChange();
  void invalidateCredits();
}

/**
 * Refetches the signed-in user (a query keyed by the account: concurrent callers share one request,
 * and an answer for an account that has since signed out is not used); resolves null when there is
 * no session (any more). The session keeps the user the guards and the shell read.
 */
export async function refreshAccount(): Promise<User | null> {
  const accountId = session.token ? (session.claims?.sub ?? null) : null;
  if (!session.token) return null;
  const current = () => session.token !== null && (session.claims?.sub ?? null) === accountId;
  try {
    const user = await queryClient.fetchQuery({
      queryKey: queryKeys.me(accountId ?? ''),
      queryFn: () => api.me(),
      staleTime: 0,
      retry: false,
      networkMode: 'always',
    });
    if (!current()) return null;
    setUser(user);
    return user;
  } catch (e) {
    // A refused token already ended the session in the client; anything else keeps it for a retry.
    if (current()) session.status = session.user ? 'ready' : 'error';
    if (!isApiError(e)) console.warn('Could not refresh the account', e);
    return null;
  }
}

/** Ends the session on the server (best effort) and locally. */
export async function logout() {
  try {
    if (session.token) await api.logout();
  } catch {
    // The token is dropped locally either way; a failed server call only leaves it to expire.
  }
  clearSession('logout');
  announceAccountChange();
}

/** Asks the service worker to tell the other tabs; storage events cover browsers without one. */
function announceAccountChange() {
  globalThis.navigator?.serviceWorker?.controller?.postMessage({ type: SW_REFRESH_ACCOUNT_DETAILS });
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

/** Ends the session when its token runs out (impersonation tokens are never refreshed, so they do). */
function planExpiry() {
  clearTimeout(expiryTimer);
  const claims = session.claims;
  if (!claims) return;
  const left = claims.exp * 1000 - Date.now();
  expiryTimer = setTimeout(
    () => {
      if (session.claims !== claims) return;
      if (isExpired(claims, Date.now())) clearSession('expired');
      else planExpiry();
    },
    Math.min(Math.max(0, left), MAX_TIMER_MS),
  );
}

function planRefresh() {
  clearTimeout(refreshTimer);
  planExpiry();
  const delay = refreshDelayMs(session.claims, Date.now());
  if (delay === null) return;
  refreshTimer = setTimeout(
    () => {
      // A very distant expiry is re-planned instead of refreshed early.
      if (delay > MAX_TIMER_MS) return planRefresh();
      api.refreshToken().then(setUser, () => {
        // A failed refresh leaves the current token in use until it expires; the client handles refusal.
      });
    },
    Math.min(delay, MAX_TIMER_MS),
  );
}

/**
 * Re-reads the stored token (another tab or the service worker may have changed it) and refetches
 * the account. Returns the user, or null when no session is left.
 */
export async function resyncFromStorage(): Promise<User | null> {
  const stored = readStoredToken();
  if (stored !== session.token) {
    if (!stored) clearSession('elsewhere');
    else adoptToken(stored);
  }
  // The other tab may have spent or bought credits; with no session left this does nothing (and the
  // credits store already cleared itself when the token went).
  const [user] = await Promise.all([refreshAccount(), invalidateCredits()]);
  return user;
}

let started = false;

/** Boots the session from storage and keeps it in step with the clock and other tabs. Idempotent. */
export function startSession() {
  if (started) return;
  started = true;
  const stored = readStoredToken();
  if (stored) {
    adoptToken(stored);
    const claims = session.claims;
    if (!claims || isExpired(claims, Date.now())) clearSession('expired');
    else void refreshAccount();
  }
  planRefresh();
  subscribeKey(session, 'token', planRefresh);
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    void resyncFromStorage();
  });
}
