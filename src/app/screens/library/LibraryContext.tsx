import { createContext, useContext } from 'react';
import type { Library, Media } from '../../../contract';

/** What every card, row and menu of a library page needs: the library, its rules and the actions. */
export interface LibraryActions {
  library: Library;
  /** Why media cannot be changed here (read-only library), or null. */
  readOnlyReason: string | null;
  autoplay: boolean;
  selected: ReadonlySet<string>;
  toggleSelected: (id: string) => void;
  open: (media: Media) => void;
  rename: (media: Media) => void;
  remove: (media: Media) => void;
  retry: (media: Media) => void;
  download: (media: Media) => void;
  observe: (el: HTMLElement | null) => void;
}

export const LibraryContext = createContext<LibraryActions | null>(null);

export function useLibraryActions(): LibraryActions {
  const ctx = useContext(LibraryContext);
  if (!ctx) throw new Error('useLibraryActions outside a library page');
  return ctx;
}
