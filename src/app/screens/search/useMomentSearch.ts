import { useCallback, useEffect, useRef, useState } from 'react';
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
 * 1000 ms for several), cancelling whatever an older request was doing. `searchNow` skips the wait.
 */
export function useMomentSearch(libs: string[], type: SearchResultType, body: SearchRequest | null) {
  const [outcome, setOutcome] = useState<SearchOutcome>(IDLE);
  const pending = useRef<(() => void) | null>(null);
  // The request as one value: a new one only when something that is sent changes.
  const key = body && libs.length ? JSON.stringify({ libs, type, body } satisfies Ask) : null;

  useEffect(() => {
    if (!key) {
      setOutcome(IDLE);
      searchState.anyLibrarySearching = false;
      return;
    }
    const ask = JSON.parse(key) as Ask;
    const controller = new AbortController();
    let started = false;
    setOutcome((o) => ({ ...o, status: 'searching', error: null }));
    searchState.anyLibrarySearching = true;
    const start = () => {
      if (started) return;
      started = true;
      pending.current = null;
      run(ask, controller.signal).then(
        ({ results, medias }) => {
          if (controller.signal.aborted) return;
          setOutcome({ status: 'done', results, medias, error: null });
          searchState.anyLibrarySearching = false;
        },
        (e: unknown) => {
          if (controller.signal.aborted) return;
          setOutcome({ status: 'error', results: [], medias: {}, error: errorMessage(e) });
          searchState.anyLibrarySearching = false;
        },
      );
    };
    const timer = setTimeout(start, ask.libs.length > 1 ? SEARCH_DEBOUNCE_MS.multi : SEARCH_DEBOUNCE_MS.single);
    pending.current = () => {
      clearTimeout(timer);
      start();
    };
    return () => {
      clearTimeout(timer);
      controller.abort();
      pending.current = null;
    };
  }, [key]);

  useEffect(() => () => void (searchState.anyLibrarySearching = false), []);

  const searchNow = useCallback(() => pending.current?.(), []);
  return { outcome, searchNow };
}
