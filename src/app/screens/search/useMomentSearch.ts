import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
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

export interface Ask {
  libs: string[];
  type: SearchResultType;
  body: SearchRequest;
}

const byScore = (a: Moment, b: Moment) => b.score - a.score;

/** One library through its own call; several visually through the multi-library call, else one call each. */
async function run({ libs, type, body }: Ask, signal: AbortSignal): Promise<Answer> {
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

/** Waits `ms` unless `signal` aborts first (then rejects) or `skip` is called (then resolves at once). */
function debounce(ms: number, signal: AbortSignal, skip: (go: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const go = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(go, ms);
    signal.addEventListener('abort', stop, { once: true });
    skip(go);
  });
}

type Answer = Pick<SearchOutcome, 'results' | 'medias'>;

/**
 * The query for one request (`key`, the request as JSON, or null for none): it waits the spec's
 * debounce, which `skipWait.current()` cuts short, then sends. Exported for the tests, which drive
 * it through TanStack's observer with their own `send`.
 */
export function searchQuery(key: string | null, skipWait: { current: (() => void) | null }, send = run) {
  return queryOptions<Answer>({
    queryKey: ['search', key],
    queryFn: async ({ signal }) => {
      const ask = JSON.parse(key!) as Ask;
      const ms = ask.libs.length > 1 ? SEARCH_DEBOUNCE_MS.multi : SEARCH_DEBOUNCE_MS.single;
      await debounce(ms, signal, (go) => (skipWait.current = go)).finally(() => (skipWait.current = null));
      return send(ask, signal);
    },
    enabled: key !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * Runs the search for `libs`/`type`/`body` after the spec's debounce (400 ms for one library,
 * 1000 ms for several), as server state (TanStack Query): an answer is kept by what was asked and
 * shown again at once when the same request comes back (Back, Forward) while it is asked anew; a
 * newer request cancels the older one, waiting or sent; the last results stay on screen while the
 * next come. The debounce is part of the query, so every request that becomes current is sent.
 * `searchNow` skips the wait.
 */
export function useMomentSearch(libs: string[], type: SearchResultType, body: SearchRequest | null) {
  // The request as one value: a new one only when something that is sent changes.
  const key = body && libs.length ? JSON.stringify({ libs, type, body } satisfies Ask) : null;
  const skipWait = useRef<(() => void) | null>(null);
  const query = useQuery(searchQuery(key, skipWait));

  const outcome = useMemo<SearchOutcome>(() => {
    if (!key) return IDLE;
    if (query.isFetching) return { ...(query.data ?? IDLE), status: 'searching', error: null };
    if (query.isError) return { ...IDLE, status: 'error', error: errorMessage(query.error) };
    return query.data ? { ...query.data, status: 'done', error: null } : { ...IDLE, status: 'searching' };
  }, [key, query.isFetching, query.isError, query.error, query.data]);

  useEffect(() => void (searchState.anyLibrarySearching = outcome.status === 'searching'), [outcome.status]);
  useEffect(() => () => void (searchState.anyLibrarySearching = false), []);

  const searchNow = useCallback(() => skipWait.current?.(), []);
  return { outcome, searchNow };
}
