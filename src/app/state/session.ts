import { proxy } from 'valtio';
import type { TokenClaims, User } from '../../contract';
import type { TokenStore } from '../api/client';
import { queryClient } from '../api/queryClient';
import { decodeClaims } from './tokenClaims';
import { localStore } from './localStore';

export const TOKEN_STORAGE_KEY = 'clipseek.token';

/** Why the last session ended; a user's own logout goes to /login without remembering the page. */
export type SessionEnd = 'logout' | 'invalidated' | 'expired' | 'elsewhere';

export interface SessionState {
  token: string | null;
  claims: TokenClaims | null;
  user: User | null;
  /** 'loading' while the user is fetched for a token; 'error' when that failed for a reason other than the token. */
  status: 'anonymous' | 'loading' | 'ready' | 'error';
  endedBy: SessionEnd | null;
}

export const readStoredToken = (): string | null => localStore()?.getItem(TOKEN_STORAGE_KEY) ?? null;

export const session = proxy<SessionState>({
  token: null,
  claims: null,
  user: null,
  status: 'anonymous',
  endedBy: null,
});

/** Adopts a token (from an answer, another tab or the impersonation link) without touching storage. */
export function adoptToken(token: string | null) {
  if (token === session.token) return;
  const claims = decodeClaims(token);
  const sameAccount = claims && session.claims && claims.sub === session.claims.sub;
  session.token = token;
  session.claims = claims;
  // What the screens fetched was for the account before: none of it may show for another.
  if (!sameAccount) queryClient.clear();
  if (!token) {
    session.user = null;
    session.status = 'anonymous';
    return;
  }
  session.endedBy = null;
  if (!sameAccount) {
    session.user = null;
    session.status = 'loading';
  }
}

export function setToken(token: string | null) {
  const store = localStore();
  if (token) store?.setItem(TOKEN_STORAGE_KEY, token);
  else store?.removeItem(TOKEN_STORAGE_KEY);
  adoptToken(token);
}

export function setUser(user: User) {
  session.user = user;
  session.status = 'ready';
}

/** Ends the session locally: token and every piece of account data go. */
export function clearSession(reason: SessionEnd) {
  setToken(null);
  session.endedBy = reason;
  // Billing data (state/credits) follows the token and clears itself when it goes.
}

export const sessionTokenStore: TokenStore = {
  get: () => session.token,
  set: (token) => setToken(token),
};
