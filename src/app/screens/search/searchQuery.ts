import { parseMomentId, SEARCH_RESULT_TYPES, type SearchResultType } from '../../../contract';

/** What the /search query string carries (spec section 2): the page reads it on load and keeps it in step. */
export interface SearchQuery {
  /** Library ids, in selection order. */
  libs: string[];
  text: string;
  /** A moment (clip) id: find similar moments. */
  moment: string | null;
  /**
   * The id of a query image kept on this device (queryImages.ts): an image is too big for an address,
   * so the address names it, and a reload, Back and Forward find the same image again.
   */
  image: string | null;
  /** A media id: search within that media. */
  media: string | null;
  /** The result type chosen; null (none in the address): the default for the libraries searched (defaultResultType). */
  search: SearchResultType | null;
  /**
   * The moment whose dialog is open (a moment id, which carries its media and range): the dialog
   * has its own address, so it can be linked to, Back closes it and Forward opens it again.
   */
  open: string | null;
}

/** What a query image id looks like (queryImages.ts makes them): anything else in the address is ignored. */
export const isQueryImageId = (value: string) => /^[0-9a-f]{16}$/.test(value);

/** Comma-separated ids, trimmed, without blanks or repeats, in their order. */
export const parseLibs = (value: string | null) => [
  ...new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * The result type asked for: null when none is (the default applies); anything unknown, and unified
 * where the feature flag turns it off, is visual (spec section 2).
 */
export function resolveResultType(value: string | null, unifiedEnabled: boolean): SearchResultType | null {
  if (value === null || value === '') return null;
  const type = SEARCH_RESULT_TYPES.find((t) => t === value);
  if (!type || (type === 'unified' && !unifiedEnabled)) return 'visual';
  return type;
}

/**
 * The result type when none is chosen (issue 37, item 11): both what is seen and what is said when
 * a library searched has speech, else what is seen.
 */
export const defaultResultType = (hasSpeech: boolean, unifiedEnabled: boolean): SearchResultType =>
  hasSpeech && unifiedEnabled ? 'unified' : 'visual';

export function parseSearchQuery(params: URLSearchParams, unifiedEnabled: boolean): SearchQuery {
  return {
    libs: parseLibs(params.get('libs')),
    text: params.get('text') ?? '',
    moment: params.get('moment')?.trim() || null,
    image: isQueryImageId(params.get('image')?.trim() ?? '') ? params.get('image')!.trim() : null,
    media: params.get('media')?.trim() || null,
    search: resolveResultType(params.get('search'), unifiedEnabled),
    open: parseMomentId(params.get('open')?.trim() ?? '') ? params.get('open')!.trim() : null,
  };
}

/** The query string for a state; empty values and an unchosen result type are left out. */
export function serializeSearchQuery(q: SearchQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (q.libs.length) params.set('libs', q.libs.join(','));
  if (q.text) params.set('text', q.text);
  if (q.moment) params.set('moment', q.moment);
  if (q.image) params.set('image', q.image);
  if (q.media) params.set('media', q.media);
  if (q.search) params.set('search', q.search);
  if (q.open) params.set('open', q.open);
  return params;
}

/** Whether the query holds something to search for (the media filter alone is not a search). */
export const hasSearchTerms = (q: Pick<SearchQuery, 'text' | 'moment' | 'image'>) => Boolean(q.text.trim() || q.moment || q.image);
