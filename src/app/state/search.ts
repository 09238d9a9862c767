import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { UNIFIED_SEARCH_FLAG, type Moment, type SearchResultType } from '../../contract';
import { session } from './session';

/**
 * Search state (libraries spec section 3): the result type and media filter the page searches with
 * (mirrored from its query string, which stays the source of truth), whether any library search is
 * running, and the moment selection.
 */
export const searchState = proxy<{
  resultType: SearchResultType;
  mediaId: string | null;
  anyLibrarySearching: boolean;
  /** Selection mode: on once a moment is toggled, off when the selection empties or the terms are cleared. */
  selecting: boolean;
  /** Selected moments, in the order they were picked. */
  selected: Moment[];
}>({
  resultType: 'visual',
  mediaId: null,
  anyLibrarySearching: false,
  selecting: false,
  selected: [],
});

export const isMomentSelected = (selected: readonly Moment[], id: string) => selected.some((m) => m.id === id);

export function toggleMoment(moment: Moment) {
  const i = searchState.selected.findIndex((m) => m.id === moment.id);
  if (i >= 0) searchState.selected.splice(i, 1);
  else searchState.selected.push(moment);
  searchState.selecting = searchState.selected.length > 0;
}

export function selectMoments(moments: readonly Moment[]) {
  const have = new Set(searchState.selected.map((m) => m.id));
  for (const m of moments) if (!have.has(m.id)) searchState.selected.push(m);
  searchState.selecting = searchState.selected.length > 0;
}

export function clearMomentSelection() {
  searchState.selected = [];
  searchState.selecting = false;
}

/** The libraries searched when the selection was made; null until a search page knows them. */
let searchedLibraries: string | null = null;

/** A moment selection belongs to the libraries it was made in: choosing others clears it (section 4). */
export function setSearchedLibraries(ids: readonly string[]) {
  const key = [...ids].sort().join(',');
  if (searchedLibraries !== null && key !== searchedLibraries) clearMomentSelection();
  searchedLibraries = key;
}

/**
 * Whether the unified result type ('Both': seen and said together) is offered. The spec made it an
 * experiment behind the local flag; issue 37 (item 11) offers it to everyone, so the flag now only
 * turns it off where it is set to 'false' or '0' (a way back if it misbehaves on a device).
 */
export function isUnifiedSearchEnabled(): boolean {
  try {
    const v = localStorage.getItem(UNIFIED_SEARCH_FLAG);
    return v !== 'false' && v !== '0';
  } catch {
    return true;
  }
}

// A selection belongs to the account that made it.
subscribeKey(session, 'token', (token) => {
  if (!token) {
    clearMomentSelection();
    searchedLibraries = null;
  }
});
