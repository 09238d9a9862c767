import { Type, type Static } from 'typebox';
import { multiline, strict, Uuid } from './common';

/** The largest page of moments one call answers, and the furthest it pages. */
export const SEARCH_MAX_LIMIT = 500;
export const SEARCH_MAX_OFFSET = 10_000;
/** The largest query image a search reads (decoded bytes). */
export const SEARCH_IMAGE_MAX_BYTES = 15 * 1024 * 1024;
/**
 * The app sends a query photo larger than this (long side in pixels, or bytes) scaled down to it, as
 * a JPEG of this quality: the embedding needs no more detail, and a smaller photo is sent and decoded
 * sooner.
 */
export const SEARCH_IMAGE_SEND_MAX_SIDE = 1280;
export const SEARCH_IMAGE_SEND_MAX_BYTES = 1_500_000;
export const SEARCH_IMAGE_SEND_QUALITY = 0.9;

/**
 * The size the app draws a query photo at before sending it (as a JPEG of SEARCH_IMAGE_SEND_QUALITY),
 * or null when the photo goes as it is: scaled to fit SEARCH_IMAGE_SEND_MAX_SIDE, and redrawn at its
 * own size when only its bytes are over SEARCH_IMAGE_SEND_MAX_BYTES.
 */
export function searchImageSendSize(width: number, height: number, bytes: number): { width: number; height: number } | null {
  const scale = Math.min(1, SEARCH_IMAGE_SEND_MAX_SIDE / Math.max(width, height));
  if (scale >= 1 && bytes <= SEARCH_IMAGE_SEND_MAX_BYTES) return null;
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

export const searchRequestSchema = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 2000, ...multiline })),
  /**
   * A data:image/... URL, of at most SEARCH_IMAGE_MAX_BYTES once decoded (checked by the search,
   * before it reads anything; the route's body limit caps it too). No maxLength here: the validator
   * counts a string's characters one by one, 8 ms for a 2 MB photo.
   */
  image: Type.Optional(Type.String()),
  /** A moment id (from an earlier result): find similar moments. */
  clipId: Type.Optional(Type.String({ maxLength: 200 })),
  sample: Type.Optional(Type.Number()),
  mediaIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
});
export const multiSearchBodySchema = Type.Object({
  criteria: searchRequestSchema,
  libraryIds: Type.Array(Uuid, { minItems: 1, maxItems: 50 }),
});
/**
 * Libraries spec 7: visual `?limit&offset`, transcript `?limit&threshold=0.0`, unified `?limit`
 * (defaults SEARCH_DEFAULT_LIMIT and 0). The threshold is accepted and not used: results are ranked.
 */
export const searchQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 0, maximum: SEARCH_MAX_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: SEARCH_MAX_OFFSET })),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  strict,
);

export type SearchRequest = Static<typeof searchRequestSchema>;
export type MultiSearchBody = Static<typeof multiSearchBodySchema>;
export type SearchQuery = Static<typeof searchQuerySchema>;
