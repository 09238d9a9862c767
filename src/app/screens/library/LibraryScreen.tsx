import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { folderPath, mediaPath, MSG_FOLDER, MSG_LIB, ROUTES, type Library } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { useEscapeToClear } from '../../hooks/useEscapeToClear';
import { noteLibrariesUsed } from '../../state/lastLibraries';
import { upsertLibrary } from '../../state/libraries';
import { libraryView } from '../../state/libraryView';
import { preferences } from '../../state/preferences';
import { ensurePreviewToken } from '../../state/previewTokens';
import { session } from '../../state/session';
import { showToast } from '../../state/toasts';
import { LoadFailed } from '../../ui/LoadFailed';
import { PageSpinner } from '../../ui/Spinner';
import { enqueueFiles } from '../../upload/enqueueFiles';
import { FolderBreadcrumb } from './FolderList';
import { createActionRunner, scheduleRetry } from './libraryActions';
import { LibraryBody } from './LibraryBody';
import { LibraryContext } from './LibraryContext';
import { LibraryHeader } from './LibraryHeader';
import { LibraryOverlays } from './LibraryOverlays';
import { createLibraryStore, setSelected } from './libraryStore';
import { LibraryToolbar } from './LibraryToolbar';
import { downloadOriginal } from './MediaModal';
import { filterMedia, isFilterActive } from './mediaListing';
import { useStatusGroups } from './StatusModals';
import { useLibraryMedia, useVisibilityObserver } from './useLibraryMedia';
import './library.css';

/** A library that is not there (deleted, or a malformed id): it toasts and the page goes to /libraries. */
const isMissing = (e: unknown) => isApiError(e) && (e.code === 'not_found' || e.status === 400);

async function loadLibrary(id: string) {
  void ensurePreviewToken(id);
  try {
    const library = await libraryApi.get(id);
    upsertLibrary(library);
    return library;
  } catch (e) {
    if (isMissing(e)) showToast(MSG_LIB.libraryNotFound, { tone: 'error' });
    throw e;
  }
}

/**
 * /library/{id}, /library/{id}/folder/{folderId} and the media modal over either
 * (…/media/{mediaId}): loads the library; a missing one goes to /libraries.
 */
export default function LibraryScreen() {
  const { id = '', mediaId, folderId } = useParams();
  // Loaded afresh each time the page opens (gcTime 0), as it was before TanStack Query, and not
  // refetched behind it; an error waits for Retry.
  const query = useQuery({ queryKey: ['library', id], queryFn: () => loadLibrary(id), retry: false, gcTime: 0, staleTime: Infinity });
  if (query.isError && isMissing(query.error)) return <Navigate to={ROUTES.libraries} replace />;
  if (query.isError)
    return (
      <div className="page">
        <LoadFailed title="We couldn't load this library" onRetry={() => void query.refetch()}>
          {errorMessage(query.error)}
        </LoadFailed>
      </div>
    );
  if (!query.data) return <PageSpinner />;
  return <LibraryPage key={query.data._id} library={query.data} mediaId={mediaId ?? null} folderId={folderId ?? null} />;
}

function LibraryPage({ library, mediaId, folderId: routeFolder }: { library: Library; mediaId: string | null; folderId: string | null }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The root folder is the library page itself: its id in the address means the same.
  const folderId = routeFolder === library.rootFolderId ? null : routeFolder;
  const { libraryViewMode, autoplayVideos } = useSnapshot(preferences);
  const { sort } = useSnapshot(libraryView);
  const { user } = useSnapshot(session);
  const listing = useLibraryMedia(library._id, folderId, sort);
  // Browsing a library makes it the one the search page opens on next.
  useEffect(() => noteLibrariesUsed([library._id]), [library._id]);
  const { files, reload, replace } = listing;
  const groups = useStatusGroups(library._id, files);
  const [store] = useState(createLibraryStore);
  // Synchronous, so that the title filter's field keeps its caret as React state did.
  const ui = useSnapshot(store, { sync: true });

  const grid = libraryViewMode === 'grid';
  const filter = useMemo(() => (grid ? { title: ui.titleFilter } : { status: ui.statusFilter }), [grid, ui.titleFilter, ui.statusFilter]);
  const shown = useMemo(() => filterMedia(files, filter), [files, filter]);

  const clearSelection = useCallback(() => setSelected(store, []), [store]);
  useEscapeToClear(ui.selected.size > 0, clearSelection);
  // A selection belongs to the folder it was made in (section 4: it clears when the folder changes).
  useEffect(() => clearSelection(), [folderId, clearSelection]);
  // Selected media that disappeared (deleted, cleared) leave the selection.
  useEffect(() => {
    const ids = new Set(files.map((m) => m._id));
    const kept = [...store.selected].filter((id) => ids.has(id));
    if (kept.length !== store.selected.size) setSelected(store, kept);
  }, [files, store]);

  const search = params.toString();
  const hrefOf = useCallback((id: string | null) => ({ pathname: folderPath(library._id, id), search }), [library._id, search]);
  const uploadFolderId = folderId ?? library.rootFolderId;
  const trail = listing.folder && folderId ? [...listing.folder.ancestors.slice(1), listing.folder.folder] : [];

  // A folder that is gone (deleted elsewhere, or a wrong address) leaves for the library's root.
  useEffect(() => {
    if (listing.status !== 'missing') return;
    showToast(MSG_FOLDER.notFound, { tone: 'error' });
    void navigate(folderPath(library._id, null), { replace: true });
  }, [listing.status, library._id, navigate]);

  // Uploads and drops go into the open folder (its address says which, even while it loads).
  const add = useCallback(
    (list: File[], dropped = false) =>
      void enqueueFiles(
        list,
        { libraryId: library._id, folderId: uploadFolderId },
        { knownUniqueIds: files.map((m) => m.uniqueId), dropped },
      ),
    [files, library._id, uploadFolderId],
  );

  const observe = useVisibilityObserver(listing.setVisible);
  const actions = createActionRunner({
    library,
    userVerified: user?.isVerified,
    store,
    ui,
    shown,
    failedIndexing: groups.failedIndexing,
    deps: {
      api: libraryApi,
      schedule: scheduleRetry,
      toast: showToast,
      navigateToMedia: (m) => void navigate({ pathname: mediaPath(library._id, m._id, folderId), search }),
      download: downloadOriginal,
      replace,
      reload: () => void reload(),
    },
  });

  return (
    <LibraryContext.Provider value={{ library, store, ui, actions, autoplay: autoplayVideos, observe }}>
      <div className="page page--wide library-page">
        <LibraryHeader files={files} groups={groups} onFiles={(list) => add(list)} />
        {folderId && <FolderBreadcrumb libraryName={library.name} trail={trail} hrefOf={hrefOf} />}
        <LibraryToolbar hasFiles={files.length > 0} />
        <LibraryBody
          listing={listing}
          shown={shown}
          filterActive={isFilterActive(filter)}
          inFolder={folderId !== null}
          hrefOf={(f) => hrefOf(f._id)}
        />
      </div>
      <LibraryOverlays
        listing={listing}
        groups={groups}
        add={add}
        uploadFolderId={uploadFolderId}
        placeName={trail.at(-1)?.name ?? library.name}
        mediaId={mediaId}
        closeMedia={() => void navigate(hrefOf(folderId))}
      />
    </LibraryContext.Provider>
  );
}
