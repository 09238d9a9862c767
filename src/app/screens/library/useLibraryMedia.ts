import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  MEDIA_REFRESH_MS,
  UPLOAD_MODAL_REFRESH_DEBOUNCE_MS,
  type FolderResponse,
  type Media,
  type MediaSortValue,
} from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { queryClient } from '../../api/queryClient';
import { useTrailingDebounce } from '../../hooks/trailingDebounce';
import { playDoneSound } from '../../state/sounds';
import { uploads } from '../../state/uploads';
import { finishedIndexing, isActiveStatus, keepOrder, mergeMedia, sortMedia, visibleRange } from './mediaListing';

/** Poll this often while media are uploading, queued or indexing, so progress shows as it happens. */
export const ACTIVE_POLL_MS = 2000;

export interface LibraryMediaState {
  status: 'loading' | 'ready' | 'error' | 'missing';
  folder: FolderResponse | null;
  error: string | null;
}

const folderKey = (libraryId: string, folderId: string | null, sort: MediaSortValue) => ['folder', libraryId, folderId, sort] as const;

/** A folder that is not there (deleted, or a wrong address): not an error to retry or show as one. */
const isMissing = (e: unknown) => isApiError(e) && (e.code === 'not_found' || e.status === 400);

/** Edits the cached listing of a folder's media in place. */
function editFiles(key: ReturnType<typeof folderKey>, edit: (files: Media[]) => Media[]) {
  queryClient.setQueryData<FolderResponse>(key, (f) => (f ? { ...f, files: edit(f.files) } : f));
}

/**
 * The subfolders and media of a folder of a library (null: its root), as server state (TanStack
 * Query): loaded, sorted like the server, reloaded when this tab's uploads change, polled every 2 s
 * while anything is in flight, and otherwise the visible media refreshed every 30 s by index range
 * (section 4). A failed refresh keeps what is on screen; a folder that is not there reads as 'missing'.
 */
export function useLibraryMedia(libraryId: string, folderId: string | null, sort: MediaSortValue) {
  const key = useMemo(() => folderKey(libraryId, folderId, sort), [libraryId, folderId, sort]);
  const { version, items } = useSnapshot(uploads);
  const visible = useRef(new Set<string>());
  const uploadingHere = items.some((i) => i.destination.libraryId === libraryId && (i.status === 'queued' || i.status === 'uploading'));

  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const folder = await libraryApi.folder(libraryId, folderId ?? undefined, sort, signal);
      const before = queryClient.getQueryData<FolderResponse>(key);
      if (before && finishedIndexing(before.files, folder.files)) playDoneSound('indexed');
      return folder;
    },
    // While anything is in flight the whole folder is asked again every 2 s (the 30 s refresh of
    // the visible media, below, is by range).
    refetchInterval: (q) => (uploadingHere || q.state.data?.files.some((m) => isActiveStatus(m.status)) ? ACTIVE_POLL_MS : false),
  });
  const folder = query.data ?? null;

  // This tab's uploads changed (one added, finished or failed): the listing is asked again, once
  // for a burst of changes (the spec's upload modal data refresh debounce, 300 ms).
  const firstVersion = useRef(version);
  const refreshAfterUploads = useTrailingDebounce(
    () => void queryClient.invalidateQueries({ queryKey: key }),
    UPLOAD_MODAL_REFRESH_DEBOUNCE_MS,
  );
  useEffect(() => {
    if (version !== firstVersion.current) refreshAfterUploads.call();
  }, [version, refreshAfterUploads]);

  // Rows keep the order they were shown in while the listing polls (keepOrder); a new sort, folder
  // or library sorts afresh.
  const shownOrder = useRef<{ key: string; ids: string[] } | null>(null);
  const files = useMemo(() => {
    if (!folder) return [];
    const orderKey = key.join('/');
    const previous = shownOrder.current?.key === orderKey ? shownOrder.current.ids : null;
    const ordered = keepOrder(sortMedia(folder.files, sort), previous);
    shownOrder.current = { key: orderKey, ids: ordered.map((m) => m._id) };
    return ordered;
  }, [folder, sort, key]);
  const active = uploadingHere || files.some((m) => isActiveStatus(m.status));
  const loaded = folder !== null;

  useEffect(() => {
    if (!loaded || active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'hidden') return;
      const current = queryClient.getQueryData<FolderResponse>(key);
      if (!current) return;
      const range = visibleRange(sortMedia(current.files, sort), visible.current);
      if (!range) return;
      libraryApi
        .mediaRange(libraryId, { folderId: current.folder._id, sort, ...range })
        .then((fresh) => editFiles(key, (files) => mergeMedia(files, fresh)))
        .catch(() => undefined);
    }, MEDIA_REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, loaded, key, libraryId, sort]);

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: key }), [key]);
  /** Puts an updated media (after rename, retry) in place without a reload. */
  const replace = useCallback((media: Media) => editFiles(key, (files) => mergeMedia(files, [media])), [key]);
  const remove = useCallback(
    (ids: string[]) => {
      const gone = new Set(ids);
      editFiles(key, (files) => files.filter((m) => !gone.has(m._id)));
    },
    [key],
  );

  /** Media cards and rows report whether they are on screen, for the 30 s range refresh. */
  const setVisible = useCallback((id: string, isVisible: boolean) => {
    if (isVisible) visible.current.add(id);
    else visible.current.delete(id);
  }, []);

  const state: LibraryMediaState = folder
    ? { status: 'ready', folder, error: null }
    : query.isError
      ? isMissing(query.error)
        ? { status: 'missing', folder: null, error: errorMessage(query.error) }
        : { status: 'error', folder: null, error: errorMessage(query.error) }
      : { status: 'loading', folder: null, error: null };
  return { ...state, files, active, reload, replace, remove, setVisible };
}

/** One IntersectionObserver for all cards/rows of a list, reporting visibility by media id. */
export function useVisibilityObserver(setVisible: (id: string, visible: boolean) => void) {
  const [observer] = useState(() =>
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver((entries) => {
          for (const e of entries) {
            const id = (e.target as HTMLElement).dataset.mediaId;
            if (id) setVisible(id, e.isIntersecting);
          }
        }),
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  return useCallback(
    (el: HTMLElement | null) => {
      if (!el || !observer) return;
      observer.observe(el);
      return () => {
        observer.unobserve(el);
        if (el.dataset.mediaId) setVisible(el.dataset.mediaId, false);
      };
    },
    [observer, setVisible],
  );
}
