import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { MEDIA_REFRESH_MS, type FolderResponse, type Media, type MediaSortValue } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { playDoneSound } from '../../state/sounds';
import { uploads } from '../../state/uploads';
import { finishedIndexing, isActiveStatus, mergeMedia, sortMedia, visibleRange } from './mediaListing';

/** Poll this often while media are uploading, queued or indexing, so progress shows as it happens. */
export const ACTIVE_POLL_MS = 2000;

export interface LibraryMediaState {
  status: 'loading' | 'ready' | 'error' | 'missing';
  folder: FolderResponse | null;
  error: string | null;
  /** The folder this state belongs to (null: the root); a state of another folder reads as loading. */
  of?: string | null;
}

/**
 * The subfolders and media of a folder of a library (null: its root): loaded, sorted like the
 * server, reloaded when this tab's uploads change, polled every 2 s while anything is in flight, and
 * otherwise the visible media refreshed every 30 s by index range (section 4). A folder that is not
 * there (deleted, or a wrong address) reads as 'missing'.
 */
export function useLibraryMedia(libraryId: string, folderId: string | null, sort: MediaSortValue) {
  const [stored, setState] = useState<LibraryMediaState>({ status: 'loading', folder: null, error: null, of: folderId });
  // What another folder left is not shown while this one loads.
  const state = useMemo<LibraryMediaState>(
    () => (stored.of === folderId ? stored : { status: 'loading', folder: null, error: null, of: folderId }),
    [stored, folderId],
  );
  const { version, items } = useSnapshot(uploads);
  const visible = useRef(new Set<string>());
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  const reload = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const folder = await libraryApi.folder(libraryId, folderId ?? undefined, sort, signal);
        if (signal?.aborted) return;
        const before = latest.current;
        if (before.of === folderId && before.folder && finishedIndexing(before.folder.files, folder.files)) playDoneSound('indexed');
        setState({ status: 'ready', folder, error: null, of: folderId });
      } catch (e) {
        if (signal?.aborted) return;
        if (isApiError(e) && (e.code === 'not_found' || e.status === 400))
          return setState({ status: 'missing', folder: null, error: errorMessage(e), of: folderId });
        // A failed background refresh keeps what is on screen; only a first load shows the error.
        setState((s) => (s.folder && s.of === folderId ? s : { status: 'error', folder: null, error: errorMessage(e), of: folderId }));
      }
    },
    [libraryId, folderId, sort],
  );

  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload, version]);

  const files = useMemo(() => (state.folder ? sortMedia(state.folder.files, sort) : []), [state.folder, sort]);
  const uploadingHere = items.some((i) => i.destination.libraryId === libraryId && (i.status === 'queued' || i.status === 'uploading'));
  const active = uploadingHere || files.some((m) => isActiveStatus(m.status));

  useEffect(() => {
    if (state.status !== 'ready') return;
    const timer = setInterval(
      () => {
        if (document.visibilityState === 'hidden') return;
        if (active) return void reload();
        const current = latest.current.folder;
        if (!current) return;
        const ordered = sortMedia(current.files, sort);
        const range = visibleRange(ordered, visible.current);
        if (!range) return;
        libraryApi
          .mediaRange(libraryId, { folderId: current.folder._id, sort, ...range })
          .then((fresh) => setState((s) => (s.folder ? { ...s, folder: { ...s.folder, files: mergeMedia(s.folder.files, fresh) } } : s)))
          .catch(() => undefined);
      },
      active ? ACTIVE_POLL_MS : MEDIA_REFRESH_MS,
    );
    return () => clearInterval(timer);
  }, [active, state.status, reload, libraryId, sort]);

  /** Puts an updated media (after rename, retry) in place without a reload. */
  const replace = useCallback((media: Media) => {
    setState((s) => (s.folder ? { ...s, folder: { ...s.folder, files: mergeMedia(s.folder.files, [media]) } } : s));
  }, []);
  const remove = useCallback((ids: string[]) => {
    const gone = new Set(ids);
    setState((s) => (s.folder ? { ...s, folder: { ...s.folder, files: s.folder.files.filter((m) => !gone.has(m._id)) } } : s));
  }, []);

  /** Media cards and rows report whether they are on screen, for the 30 s range refresh. */
  const setVisible = useCallback((id: string, isVisible: boolean) => {
    if (isVisible) visible.current.add(id);
    else visible.current.delete(id);
  }, []);

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
