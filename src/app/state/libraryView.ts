import { proxy, subscribe } from 'valtio';
import {
  DEFAULT_MEDIA_SORT,
  isMediaSortValue,
  MEDIA_TABLE_HIDDEN_BY_DEFAULT,
  MEDIA_TABLE_COLUMNS,
  type MediaSortValue,
  type MediaTableColumn,
} from '../../contract';

const KEY = 'clipseek.libraryView';

interface Stored {
  sort: MediaSortValue;
  hiddenColumns: MediaTableColumn[];
}

function read(): Stored {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Stored>;
    return {
      sort: isMediaSortValue(raw.sort) ? raw.sort : DEFAULT_MEDIA_SORT,
      hiddenColumns: Array.isArray(raw.hiddenColumns)
        ? raw.hiddenColumns.filter((c): c is MediaTableColumn => MEDIA_TABLE_COLUMNS.includes(c))
        : [...MEDIA_TABLE_HIDDEN_BY_DEFAULT],
    };
  } catch {
    return { sort: DEFAULT_MEDIA_SORT, hiddenColumns: [...MEDIA_TABLE_HIDDEN_BY_DEFAULT] };
  }
}

/**
 * Local view state of the library page that is not an account preference: the media sort (stored
 * locally, section 4) and the table's hidden columns.
 */
export const libraryView = proxy<Stored>(read());

subscribe(libraryView, () => {
  try {
    localStorage.setItem(KEY, JSON.stringify({ sort: libraryView.sort, hiddenColumns: libraryView.hiddenColumns }));
  } catch {
    // A view preference only.
  }
});
