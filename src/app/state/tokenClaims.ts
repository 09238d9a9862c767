import { decodeJwt } from 'jose';
import type { TokenClaims } from '../../contract';

/** Reads the claims of a JWT without verifying it (jose): the server verifies, the app only needs exp and impersonatedBy. */
export function decodeClaims(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  try {
    const claims = decodeJwt<Partial<TokenClaims>>(token);
    return typeof claims.exp === 'number' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

export const isExpired = (claims: TokenClaims, nowMs: number) => claims.exp * 1000 <= nowMs;

/** Whole minutes until expiry, rounded up so the banner never shows 0 while the token still works. */
export const minutesLeft = (claims: TokenClaims, nowMs: number) => Math.max(0, Math.ceil((claims.exp * 1000 - nowMs) / 60_000));

// Refresh well before expiry so a sleeping laptop or a slow network still has room, but not so
// early that a short-lived token is refreshed over and over.
const MIN_LEAD_MS = 30_000;
const MAX_LEAD_MS = 60 * 60_000;
/** Longest delay setTimeout accepts; later refreshes are re-planned when the timer fires. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Milliseconds until the session should be refreshed, or null when it must not be (impersonation
 * tokens are never refreshed; an expired token cannot be).
 */
export function refreshDelayMs(claims: TokenClaims | null, nowMs: number): number | null {
  if (!claims || claims.impersonatedBy) return null;
  const expMs = claims.exp * 1000;
  if (expMs <= nowMs) return null;
  const lifetime = typeof claims.iat === 'number' ? expMs - claims.iat * 1000 : expMs - nowMs;
  const lead = Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, lifetime * 0.1));
  return Math.max(0, expMs - lead - nowMs);
}
