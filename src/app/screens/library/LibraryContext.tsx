import { createContext, useContext } from 'react';
import type { Snapshot } from 'valtio';
import type { Library } from '../../../contract';
import type { LibraryActionRunner } from './libraryActions';
import type { LibraryStore } from './libraryStore';

/** What every part of a library page needs: the library, its UI store (and this render's snapshot) and the actions. */
export interface LibraryPage {
  library: Library;
  store: LibraryStore;
  ui: Snapshot<LibraryStore>;
  actions: LibraryActionRunner;
  autoplay: boolean;
  observe: (el: HTMLElement | null) => void;
}

export const LibraryContext = createContext<LibraryPage | null>(null);

export function useLibraryPage(): LibraryPage {
  const ctx = useContext(LibraryContext);
  if (!ctx) throw new Error('useLibraryPage outside a library page');
  return ctx;
}
