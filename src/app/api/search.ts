import {
  API,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_DEFAULT_SKIP,
  SEARCH_TRANSCRIPT_THRESHOLD,
  type MediaQuery,
  type MultiSearchBody,
  type MultiSearchResults,
  type SearchRequest,
  type SearchResults,
  type SearchResultType,
  type ShotDescriptionsFile,
  type TranscriptFile,
} from '../../contract';
import type { ApiClient } from './client';

/** Search calls and moment data (libraries spec section 7). All need a session. */
export function createSearchApi(client: ApiClient) {
  const post = <T>(path: string, body: unknown, query: Record<string, string | number>, signal?: AbortSignal) =>
    client.request<T>(path, { method: 'POST', body, auth: 'required', query, signal });

  return {
    /** One library: visual `?limit&offset`, transcript `?limit&threshold=0.0`, unified `?limit`. */
    search(type: SearchResultType, libraryId: string, body: SearchRequest, signal?: AbortSignal, limit = SEARCH_DEFAULT_LIMIT) {
      switch (type) {
        case 'visual':
          return post<SearchResults>(API.searchVisual(libraryId), body, { limit, offset: SEARCH_DEFAULT_SKIP }, signal);
        case 'transcript':
          return post<SearchResults>(API.searchTranscript(libraryId), body, { limit, threshold: SEARCH_TRANSCRIPT_THRESHOLD }, signal);
        case 'unified':
          return post<SearchResults>(API.searchUnified(libraryId), body, { limit }, signal);
      }
    },
    /** Several libraries at once (visual): each library's results come in their own list. */
    searchMulti: (libraryIds: string[], criteria: SearchRequest, signal?: AbortSignal, limit = SEARCH_DEFAULT_LIMIT) =>
      post<MultiSearchResults>(
        API.searchMulti,
        { criteria, libraryIds } satisfies MultiSearchBody,
        { limit, offset: SEARCH_DEFAULT_SKIP },
        signal,
      ),
    transcript: (libraryId: string, mediaId: string, signal?: AbortSignal) =>
      client.request<TranscriptFile>(API.transcriptJson, { auth: 'required', query: { libraryId, mediaId } satisfies MediaQuery, signal }),
    shotDescriptions: (libraryId: string, mediaId: string, signal?: AbortSignal) =>
      client.request<ShotDescriptionsFile>(API.shotDescriptionsJson, {
        auth: 'required',
        query: { libraryId, mediaId } satisfies MediaQuery,
        signal,
      }),
  };
}

export type SearchApi = ReturnType<typeof createSearchApi>;
