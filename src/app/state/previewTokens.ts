import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { API, PREVIEW_TOKEN_FALLBACK_MS } from '../../contract';
import { libraryApi } from '../api/instance';
import { API_BASE } from '../config';
import { session } from './session';

/** Library preview tokens (kept locally per library, section 3): thumbnails are authorised by them. */
export const previewTokens = proxy<{ byLibrary: Record<string, { token: string; expiresAt: number }> }>({ byLibrary: {} });

const KEY = 'clipseek.previewTokens';
/** Renew this long before expiry so an image never asks with a token about to lapse. */
const MARGIN_MS = 5 * 60_000;

try {
  const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as typeof previewTokens.byLibrary;
  for (const [id, t] of Object.entries(stored)) if (t && t.expiresAt - MARGIN_MS > Date.now()) previewTokens.byLibrary[id] = t;
} catch {
  // Nothing stored, or storage is off: tokens are fetched again.
}

const inflight = new Map<string, Promise<string | null>>();

function persist() {
  try {
    localStorage.setItem(KEY, JSON.stringify(previewTokens.byLibrary));
  } catch {
    // Only a cache.
  }
}

/** A valid preview token for the library, fetched when missing or about to expire; null when refused. */
export function ensurePreviewToken(libraryId: string): Promise<string | null> {
  const current = previewTokens.byLibrary[libraryId];
  if (current && current.expiresAt - MARGIN_MS > Date.now()) return Promise.resolve(current.token);
  let p = inflight.get(libraryId);
  if (!p) {
    p = libraryApi
      .previewToken(libraryId)
      .then(({ previewToken, expiresAt }) => {
        const at = Date.parse(expiresAt);
        previewTokens.byLibrary[libraryId] = {
          token: previewToken,
          expiresAt: Number.isFinite(at) ? at : Date.now() + PREVIEW_TOKEN_FALLBACK_MS,
        };
        persist();
        return previewToken;
      })
      .catch(() => null)
      .finally(() => inflight.delete(libraryId));
    inflight.set(libraryId, p);
  }
  return p;
}

export function forgetPreviewTokens() {
  previewTokens.byLibrary = {};
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

// Tokens belong to the account that fetched them.
subscribeKey(session, 'token', (token) => {
  if (!token) forgetPreviewTokens();
});
