import { proxy, ref } from 'valtio';
import type { Folder, Media, MediaStatus } from '../../../contract';

/** The one dialog of the page that is open, with what it acts on. */
export type LibraryDialog =
  | { kind: 'addVideos' }
  | { kind: 'createFolder' }
  | { kind: 'renameFolder' | 'deleteFolder'; folder: Folder }
  | { kind: 'renameMedia' | 'deleteMedia'; media: Media }
  | { kind: 'bulkDelete'; mediaIds: string[] };

/**
 * UI state of one library page (valtio): filters, selection, open dialogs, the retry-all lock.
 * Server state (the folder listing) stays in TanStack Query (useLibraryMedia).
 */
export interface LibraryStore {
  titleFilter: string;
  statusFilter: MediaStatus | null;
  /** Replaced, never changed in place. */
  selected: ReadonlySet<string>;
  /** Kept as a ref: the media or folder it holds is server data, not made a proxy. */
  dialog: (LibraryDialog & { $$valtioSnapshot: LibraryDialog }) | null;
  /** Open beside `dialog`: deleting a media from the Failed modal opens its dialog over it. */
  statusModal: 'processing' | 'failed' | null;
  retryAllLocked: boolean;
}

export const createLibraryStore = () =>
  proxy<LibraryStore>({ titleFilter: '', statusFilter: null, selected: new Set(), dialog: null, statusModal: null, retryAllLocked: false });

export function openDialog(store: LibraryStore, dialog: LibraryDialog) {
  store.dialog = ref(dialog);
}

export function setSelected(store: LibraryStore, ids: Iterable<string>) {
  store.selected = new Set(ids);
}

export function toggleSelected(store: LibraryStore, id: string) {
  const next = new Set(store.selected);
  if (!next.delete(id)) next.add(id);
  store.selected = next;
}
