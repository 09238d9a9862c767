import type { MediaSortValue } from '../../contract';

/**
 * Every query key of the app's server state, in one place, so a mutation invalidates what it
 * changes by key. What belongs to the signed-in account starts with ['account', id]: another
 * account's keys never match, and an answer for an account that has since signed out lands in a
 * query that is no longer there (`session.adoptToken` empties the client when the account changes).
 */
export const queryKeys = {
  /** Everything of one account (its removal on sign-out, a broad invalidation). */
  account: (accountId: string) => ['account', accountId] as const,
  /** The signed-in user (GET /user/me). */
  me: (accountId: string) => ['account', accountId, 'me'] as const,
  /** The account's billing info: balance, plan, storage, credit notes, charges on their way. */
  credits: (accountId: string) => ['account', accountId, 'credits'] as const,
  /** The account's credit activity (billing tab), newest page first, as of a balance (`version`). */
  usageHistory: (accountId: string, version: unknown) => ['account', accountId, 'usageHistory', version] as const,
  /** The libraries the account sees. */
  libraries: (accountId: string) => ['account', accountId, 'libraries'] as const,
  /** One library (its page). */
  library: (accountId: string, libraryId: string) => ['account', accountId, 'library', libraryId] as const,
  /** A library's preview token (thumbnails, posters and previews are authorised by it). */
  previewToken: (accountId: string, libraryId: string) => ['account', accountId, 'previewToken', libraryId] as const,
  /** A folder's listing (null: the library's root), in one sort. */
  folder: (accountId: string, libraryId: string, folderId: string | null, sort: MediaSortValue) =>
    ['account', accountId, 'folder', libraryId, folderId, sort] as const,
  /** A media's transcript. */
  transcript: (accountId: string, libraryId: string, mediaId: string) => ['account', accountId, 'transcript', libraryId, mediaId] as const,
  /** A media's shot descriptions (the visual summary). */
  descriptions: (accountId: string, libraryId: string, mediaId: string) =>
    ['account', accountId, 'descriptions', libraryId, mediaId] as const,
  /** The recorded corrections of one transcript line. */
  corrections: (accountId: string, libraryId: string, mediaId: string, segmentId: string) =>
    ['account', accountId, 'corrections', libraryId, mediaId, segmentId] as const,
  /** A media looked up by id among the libraries being searched (`libraryIds` joined by commas). */
  mediaLookup: (accountId: string, mediaId: string, libraryIds: string) =>
    ['account', accountId, 'mediaLookup', mediaId, libraryIds] as const,
  /** Issue 39: a media range's automatic crop path for an aspect (the clip editor's window, the local preview). */
  framing: (accountId: string, libraryId: string, mediaId: string, aspect: string, start: number, end: number) =>
    ['account', accountId, 'framing', libraryId, mediaId, aspect, start, end] as const,
  /** The plans and top-ups on sale (public). */
  catalog: () => ['catalog'] as const,
  /** A moment search (the request as JSON). */
  search: (request: string | null) => ['search', request] as const,
  /** Whether a password reset link can still be used. */
  resetCheck: (code: string) => ['resetCheck', code] as const,
};
