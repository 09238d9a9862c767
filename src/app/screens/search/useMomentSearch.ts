import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useDebounce } from 'use-debounce';
import { SEARCH_DEBOUNCE_MS, type Media, type Moment, type SearchRequest, type SearchResultType } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { searchApi } from '../../api/instance';
import { searchState } from '../../state/search';

export interface SearchOutcome {
  status: 'idle' | 'searching' | 'done' | 'error';
  results: Moment[];
  medias: Record<string, Media>;
  error: string | null;
}

const IDLE: SearchOutcome = { status: 'idle', results: [], medias: {}, error: null };

interface Ask {
  libs: string[];
  type: SearchResultType;
  body: SearchRequest;
}

const byScore = (a: Moment, b: Moment) => b.score - a.score;

/** One library through its own call; several visually through the multi-library call, else one call each. */
async function run({ libs, type, body }: Ask, signal: AbortSignal): Promise<Pick<SearchOutcome, 'results' | 'medias'>> {
  if (libs.length === 1) return searchApi.search(type, libs[0]!, body, signal);
  if (type === 'visual') {
    const { results, medias } = await searchApi.searchMulti(libs, body, signal);
    return { results: results.flatMap((r) => r.results).sort(byScore), medias };
  }
  // The multi-library call is visual only (section 7): other result types ask each library.
  const answers = await Promise.all(libs.map((id) => searchApi.search(type, id, body, signal)));
  return {
    results: answers.flatMap((a) => a.results).sort(byScore),
    medias: Object.assign({}, ...answers.map((a) => a.medias)) as Record<string, Media>,
  };
}

/**
 * Runs the search for `libs`/`type`/`body` after the spec's debounce (400 ms for one library,
 * 1000 ms for several), as server state (TanStack Query): an answer is kept by what was asked, a
 * newer request cancels the older one, and the last results stay on screen while the next come.
 * `searchNow` skips the wait.
 */
export function useMomentSearch(libs: string[], type: SearchResultType, body: SearchRequest | null) {
  // The request as one value: a new one only when something that is sent changes.
  const key = body && libs.length ? JSON.stringify({ libs, type, body } satisfies Ask) : null;
  const [asked, debounce] = useDebounce(key, libs.length > 1 ? SEARCH_DEBOUNCE_MS.multi : SEARCH_DEBOUNCE_MS.single);
  const query = useQuery({
    queryKey: ['search', asked],
    queryFn: ({ signal }) => run(JSON.parse(asked!) as Ask, signal),
    enabled: key !== null && asked === key,
    placeholderData: keepPreviousData,
  });

  const outcome = useMemo<SearchOutcome>(() => {
    if (!key) return IDLE;
    if (asked !== key || query.isFetching) return { ...(query.data ?? IDLE), status: 'searching', error: null };
    if (query.isError) return { ...IDLE, status: 'error', error: errorMessage(query.error) };
    return query.data ? { ...query.data, status: 'done', error: null } : { ...IDLE, status: 'searching' };
  }, [key, asked, query.isFetching, query.isError, query.error, query.data]);

  useEffect(() => void (searchState.anyLibrarySearching = outcome.status === 'searching'), [outcome.status]);
  useEffect(() => () => void (searchState.anyLibrarySearching = false), []);

  const searchNow = useCallback(() => debounce.flush(), [debounce]);
  return { outcome, searchNow };
}
