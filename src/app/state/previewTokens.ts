import { queryOptions } from '@tanstack/react-query';
import { subscribeKey } from 'valtio/utils';
import { API, PREVIEW_TOKEN_FALLBACK_MS } from '../../contract';
import { libraryApi } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { API_BASE } from '../config';
import { session } from './session';
import { MAX_TIMER_MS } from './tokenClaims';

/**
 * Library preview tokens (kept locally per library, section 3): thumbnails, posters and previews are
 * authorised by them. Each is a query (`queryKeys.previewToken(account, library)`) fresh until a
 * margin before it expires, so a caller is handed a token it can still use and concurrent callers
 * share one request; kept in local storage for the account across reloads.
 */
export interface PreviewToken {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

const KEY = 'clipseek.previewTokens';
/** Renew this long before expiry so an image never asks with a token about to lapse. */
export const PREVIEW_TOKEN_MARGIN_MS = 5 * 60_000;

/** How long a token fetched (or read back) at `since` stays fresh: until the margin before it expires. */
export const tokenFreshFor = (token: PreviewToken | undefined, since: number) =>
  token ? Math.max(0, token.expiresAt - PREVIEW_TOKEN_MARGIN_MS - since) : 0;

const currentAccount = () => (session.token ? (session.claims?.sub ?? null) : null);

interface Stored {
  accountId: string;
  byLibrary: Record<string, PreviewToken>;
}

function readStored(): Stored | null {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    return stored && typeof stored.accountId === 'string' && stored.byLibrary ? stored : null;
  } catch {
    // Nothing stored, or storage is off: tokens are fetched again.
    return null;
  }
}

function persist(accountId: string, libraryId: string, token: PreviewToken) {
  try {
    const stored = readStored();
    const byLibrary = stored?.accountId === accountId ? stored.byLibrary : {};
    localStorage.setItem(KEY, JSON.stringify({ accountId, byLibrary: { ...byLibrary, [libraryId]: token } } satisfies Stored));
  } catch {
    // Only a cache.
  }
}

/** The query of one library's preview token for an account (null: no session, nothing fetched). */
export const previewTokenQuery = (accountId: string | null, libraryId: string) =>
  queryOptions({
    queryKey: queryKeys.previewToken(accountId ?? '', libraryId),
    queryFn: async (): Promise<PreviewToken> => {
      const { previewToken, expiresAt } = await libraryApi.previewToken(libraryId);
      const at = Date.parse(expiresAt);
      const token = { token: previewToken, expiresAt: Number.isFinite(at) ? at : Date.now() + PREVIEW_TOKEN_FALLBACK_MS };
      if (accountId) persist(accountId, libraryId, token);
      return token;
    },
    enabled: accountId !== null && libraryId !== '',
    staleTime: (query) => tokenFreshFor(query.state.data, query.state.dataUpdatedAt),
    // While something shows the library's pictures, its token is renewed before it lapses.
    refetchInterval: (query) =>
      query.state.data ? Math.min(Math.max(1000, tokenFreshFor(query.state.data, Date.now())), MAX_TIMER_MS) : false,
    // Kept while valid even when nothing on screen reads it (players and the merge editor ask later).
    gcTime: Infinity,
    retry: false,
    networkMode: 'always',
  });

/** A valid preview token for the library, fetched when missing or about to expire; null when refused. */
export function ensurePreviewToken(libraryId: string): Promise<string | null> {
  followSession();
  const accountId = currentAccount();
  if (!accountId) return Promise.resolve(null);
  return queryClient.fetchQuery(previewTokenQuery(accountId, libraryId)).then(
    (t) => t.token,
    () => null,
  );
}

/** The library's token on hand (maybe about to expire; `ensurePreviewToken` renews it), or null. For code outside React. */
export function previewTokenOf(libraryId: string): string | null {
  followSession();
  const accountId = currentAccount();
  return accountId ? (queryClient.getQueryData<PreviewToken>(queryKeys.previewToken(accountId, libraryId))?.token ?? null) : null;
}

/** Puts the account's stored tokens that are still fresh into the query cache. */
function adoptStored(accountId: string) {
  const stored = readStored();
  if (stored?.accountId !== accountId) return;
  const now = Date.now();
  for (const [libraryId, token] of Object.entries(stored.byLibrary))
    if (tokenFreshFor(token, now) > 0) queryClient.setQueryData(queryKeys.previewToken(accountId, libraryId), token, { updatedAt: now });
}

export function forgetPreviewTokens() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Only a cache.
  }
}

/** URL of a media's poster, or of its frame at `t` seconds. */
export const thumbnailUrl = (libraryId: string, mediaId: string, token: string, t?: number) =>
  `${API_BASE}${API.mediaThumbnail(libraryId, mediaId)}?token=${encodeURIComponent(token)}${t !== undefined ? `&t=${Math.round(t * 10) / 10}` : ''}`;

/** URL of a photo as it is looked at: upright, at most PHOTO_PICTURE_MAX_SIDE on its longer side. */
export const pictureUrl = (libraryId: string, mediaId: string, token: string) =>
  `${API_BASE}${API.mediaPicture(libraryId, mediaId)}?token=${encodeURIComponent(token)}`;

// Tokens belong to the account that fetched them: the stored ones go with the session (the
// queries go with the account's others), and a session read back from storage finds its own (at
// once when asked for a token, before the session's subscription has run).
let adopted: string | null = null;
function followSession() {
  const accountId = currentAccount();
  if (accountId && accountId !== adopted) adoptStored(accountId);
  adopted = accountId;
}
followSession();
subscribeKey(session, 'token', (token) => {
  if (!token) forgetPreviewTokens();
  followSession();
});
