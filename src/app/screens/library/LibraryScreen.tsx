import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import {
  LIBRARY_TABS,
  MEDIA_TABLE_COLUMNS,
  MSG,
  MSG_FOLDER,
  MSG_LIB,
  MSG_MEDIA,
  RETRY_ALL_LOCK_MS,
  RETRY_ALL_PER_SECOND,
  ROUTES,
  TABLE_STATUS_FILTER,
  TOAST_MS,
  folderPath,
  mediaPath,
  statusCounts,
  type Folder,
  type Library,
  type LibraryTab,
  type Media,
  type MediaSortValue,
  type MediaStatus,
} from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { EmptyState } from '../../shell/EmptyState';
import { upsertLibrary } from '../../state/libraries';
import { libraryView } from '../../state/libraryView';
import { preferences, setPreference } from '../../state/preferences';
import { ensurePreviewToken } from '../../state/previewTokens';
import { createRateLimiter } from '../../state/rateLimiter';
import { session } from '../../state/session';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { IconChevronLeft, IconColumns, IconFolder, IconGrid, IconList, IconLock, IconPlus, IconSearch, IconUpload } from '../../ui/icons';
import { LoadFailed } from '../../ui/LoadFailed';
import { Menu, MenuCheckboxItem } from '../../ui/Menu';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { useEscapeToClear } from '../../hooks/useEscapeToClear';
import { Select } from '../../ui/Select';
import { PageSpinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
import { ReasonTooltip, Tooltip } from '../../ui/Tooltip';
import { enqueueFiles } from '../upload/enqueueFiles';
import { FileInput } from '../upload/UploadBox';
import { useFileDrop } from '../upload/useFileDrop';
import { LibraryContext, type LibraryActions } from './LibraryContext';
import { CreateFolderDialog, DeleteFolderDialog, RenameFolderDialog } from './FolderDialogs';
import { FolderBreadcrumb, FolderList } from './FolderList';
import { BulkDeleteDialog, DeleteMediaDialog, RenameMediaDialog } from './MediaDialogs';
import { MediaGrid } from './MediaGrid';
import { downloadOriginal, MediaModal } from './MediaModal';
import { filterMedia, formatTotalSize, isFilterActive, totals } from './mediaListing';
import { statusLabel } from './MediaStatus';
import { COLUMN_LABEL, MediaTable } from './MediaTable';
import { SelectionBar } from './SelectionBar';
import { FailedModal, ProcessingModal, statusCounters, useStatusGroups } from './StatusModals';
import { useLibraryMedia, useVisibilityObserver } from './useLibraryMedia';
import { lazyComponent } from '../../routing/lazyChunk';
import { ChunkErrorBoundary } from '../../shell/ChunkLoadFailed';
import { formatDuration } from '../../ui/format';
import './library.css';

/** 'Add videos' (files or a link) loads when first opened. */
const AddVideosDialog = lazyComponent(() => import('../upload/AddVideosDialog').then((m) => m.AddVideosDialog));

/** Retries (one, or all failed) start at most 2 a second (section 8). */
const scheduleRetry = createRateLimiter(RETRY_ALL_PER_SECOND);

export const SORT_LABELS: Record<MediaSortValue, string> = {
  'title#1': 'Title A-Z',
  'title#-1': 'Title Z-A',
  'modified#1': 'Modified first',
  'modified#-1': 'Modified last',
  'added#1': 'Added first',
  'added#-1': 'Added last',
  'duration#1': 'Duration: shortest',
  'duration#-1': 'Duration: longest',
};

/**
 * /library/{id}, /library/{id}/folder/{folderId} and the media modal over either
 * (…/media/{mediaId}): loads the library; a missing one goes to /libraries.
 */
export default function LibraryScreen() {
  const { id = '', mediaId, folderId } = useParams();
  const [library, setLibrary] = useState<Library | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState('loading');
    void ensurePreviewToken(id);
    libraryApi.get(id).then(
      (lib) => {
        if (!live) return;
        setLibrary(lib);
        upsertLibrary(lib);
        setState('ready');
      },
      (e: unknown) => {
        if (!live) return;
        if (isApiError(e) && (e.code === 'not_found' || e.status === 400)) {
          showToast(MSG_LIB.libraryNotFound, { tone: 'error' });
          setState('missing');
        } else {
          setError(errorMessage(e));
          setState('error');
        }
      },
    );
    return () => {
      live = false;
    };
  }, [id, attempt]);

  if (state === 'missing') return <Navigate to={ROUTES.libraries} replace />;
  if (state === 'error')
    return (
      <div className="page">
        <LoadFailed title="We couldn't load this library" onRetry={() => setAttempt((n) => n + 1)}>
          {error}
        </LoadFailed>
      </div>
    );
  if (!library || library._id !== id) return <PageSpinner />;
  return <LibraryPage key={library._id} library={library} mediaId={mediaId ?? null} folderId={folderId ?? null} />;
}

const tabOf = (value: string | null): LibraryTab => (LIBRARY_TABS.includes(value as LibraryTab) ? (value as LibraryTab) : 'visual');

function LibraryPage({ library, mediaId, folderId: routeFolder }: { library: Library; mediaId: string | null; folderId: string | null }) {
  const navigate = useNavigate();
  // The query keeps what the page was opened with when a media modal opens and closes; its `tab`
  // (visual or transcript, section 2) is the tab the media modal's side panel shows.
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  // The root folder is the library page itself: its id in the address means the same.
  const folderId = routeFolder === library.rootFolderId ? null : routeFolder;
  const { libraryViewMode, autoplayVideos } = useSnapshot(preferences);
  const { sort, hiddenColumns } = useSnapshot(libraryView);
  const { user } = useSnapshot(session);
  const data = useLibraryMedia(library._id, folderId, sort);
  const { files, reload, replace, remove } = data;
  const groups = useStatusGroups(library._id, files);
  const counters = statusCounters(groups);

  const [titleFilter, setTitleFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState<MediaStatus | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [renaming, setRenaming] = useState<Media | null>(null);
  const [deleting, setDeleting] = useState<Media | null>(null);
  const [bulkDeleting, setBulkDeleting] = useState<string[] | null>(null);
  const [statusModal, setStatusModal] = useState<'processing' | 'failed' | null>(null);
  const [retryAllLocked, setRetryAllLocked] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [folderDialog, setFolderDialog] = useState<{ kind: 'create' } | { kind: 'rename' | 'delete'; folder: Folder } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const readOnlyReason = library.isReadOnly || library.isDemo ? MSG_LIB.readOnlyLibrary : null;
  const addBlockedReason = user?.isVerified === false ? MSG.verifyToAdd : readOnlyReason;
  const grid = libraryViewMode === 'grid';
  const filter = useMemo(() => (grid ? { title: titleFilter } : { status: statusFilter }), [grid, titleFilter, statusFilter]);
  const shown = useMemo(() => filterMedia(files, filter), [files, filter]);

  const clearSelection = useCallback(() => setSelected(new Set()), []);
  useEscapeToClear(selected.size > 0, clearSelection);
  // A selection belongs to the folder it was made in (section 4: it clears when the folder changes).
  useEffect(() => clearSelection(), [folderId, clearSelection]);

  const search = params.toString();
  const hrefOf = useCallback((id: string | null) => ({ pathname: folderPath(library._id, id), search }), [library._id, search]);
  const uploadFolderId = folderId ?? library.rootFolderId;
  const subFolders = data.folder?.subFolders ?? [];
  const trail = data.folder && folderId ? [...data.folder.ancestors.slice(1), data.folder.folder] : [];
  const placeName = trail.at(-1)?.name ?? library.name;

  // A folder that is gone (deleted elsewhere, or a wrong address) leaves for the library's root.
  useEffect(() => {
    if (data.status !== 'missing') return;
    showToast(MSG_FOLDER.notFound, { tone: 'error' });
    void navigate(folderPath(library._id, null), { replace: true });
  }, [data.status, library._id, navigate]);

  // Selected media that disappeared (deleted, cleared) leave the selection.
  useEffect(() => {
    setSelected((s) => {
      const ids = new Set(files.map((m) => m._id));
      const next = new Set([...s].filter((id) => ids.has(id)));
      return next.size === s.size ? s : next;
    });
  }, [files]);

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
  const dragging = useFileDrop((list) => add(list, true), {
    enabled: true,
    blockedReason: addBlockedReason,
    onBlocked: (reason) => showToast(reason, { tone: 'error', durationMs: TOAST_MS.dragError }),
  });

  const retry = useCallback(
    (media: Media) =>
      void scheduleRetry(() => libraryApi.retry(library._id, media._id)).then(
        ({ media: fresh, error }) => {
          if (error) showToast(error, { title: MSG_MEDIA.retryFailed, tone: 'error', durationMs: TOAST_MS.retryFailure });
          if (fresh) replace(fresh);
        },
        (e: unknown) => showToast(errorMessage(e), { title: MSG_MEDIA.retryFailed, tone: 'error', durationMs: TOAST_MS.retryFailure }),
      ),
    [library._id, replace],
  );

  const retryAll = () => {
    const n = groups.failedIndexing.filter((m) => m.status === 'errored' || m.status === 'failed').length;
    setRetryAllLocked(true);
    setTimeout(() => setRetryAllLocked(false), RETRY_ALL_LOCK_MS);
    void scheduleRetry(() => libraryApi.retryFailed(library._id))
      .then(({ retried, failed }) => {
        const opts = { durationMs: TOAST_MS.retrySummary };
        if (!failed.length) showToast(MSG_MEDIA.retryingAll(retried), { ...opts, tone: 'success' });
        else if (!retried)
          showToast([...new Set(failed.map((f) => f.message))].join(', '), {
            ...opts,
            title: MSG_MEDIA.retryAllFailed(failed.length),
            tone: 'error',
          });
        else showToast(MSG_MEDIA.retriedMixed(retried, failed.length), opts);
      })
      .catch((e: unknown) =>
        showToast(errorMessage(e), { title: MSG_MEDIA.retryAllFailed(n), tone: 'error', durationMs: TOAST_MS.retrySummary }),
      )
      .finally(() => void reload());
  };

  const observe = useVisibilityObserver(data.setVisible);
  const actions: LibraryActions = {
    library,
    readOnlyReason,
    autoplay: autoplayVideos,
    selected,
    toggleSelected: (mid) =>
      setSelected((s) => {
        const next = new Set(s);
        if (!next.delete(mid)) next.add(mid);
        return next;
      }),
    open: (m) => void navigate({ pathname: mediaPath(library._id, m._id, folderId), search }),
    rename: setRenaming,
    remove: setDeleting,
    retry,
    download: (m) => void downloadOriginal(m),
    observe,
  };

  const counts = statusCounts(files.map((m) => m.status));
  const sums = totals(files);
  const visibleColumns = MEDIA_TABLE_COLUMNS.filter((c) => !hiddenColumns.includes(c));
  const setSort = (value: MediaSortValue) => void (libraryView.sort = value);

  return (
    <LibraryContext.Provider value={actions}>
      <div className="page page--wide library-page">
        <Link to={ROUTES.libraries} className="library-page__back">
          <IconChevronLeft size={16} /> Libraries
        </Link>
        <header className="library-header">
          <div className="library-header__main">
            <div className="library-header__name-row">
              <h1 className="page__title library-header__name">{library.name}</h1>
              {readOnlyReason && (
                <Tooltip content={readOnlyReason} side="bottom">
                  <span className="pill pill--muted" tabIndex={0}>
                    <IconLock size={13} /> Read-only
                  </span>
                </Tooltip>
              )}
            </div>
            <div className="library-stats">
              <span>
                {counts.displayed} {counts.displayed === 1 ? 'video' : 'videos'}
              </span>
              <span aria-label="Total duration">{formatDuration(sums.duration)}</span>
              <span aria-label="Total size">{formatTotalSize(files, sums.bytes)}</span>
              <button type="button" className="counter counter--processing" onClick={() => setStatusModal('processing')}>
                <span className="counter__dot" data-active={counters.processing > 0 || undefined} />
                {counters.processing} processing
              </button>
              <button
                type="button"
                className="counter counter--failed"
                onClick={() => setStatusModal('failed')}
                data-active={counters.failed > 0 || undefined}
              >
                <span className="counter__dot" />
                {counters.failed} failed
              </button>
            </div>
          </div>
          <div className="library-header__actions">
            {/* Phones have no hover to autoplay on: the switch leaves their narrow header to the list. */}
            <span className="library-header__autoplay">
              <Switch checked={autoplayVideos} onCheckedChange={(v) => setPreference('autoplayVideos', v)} label="Autoplay on hover" />
            </span>
            <SegmentedControl
              label="View"
              value={libraryViewMode}
              onValueChange={(v) => setPreference('libraryViewMode', v)}
              options={[
                {
                  value: 'list',
                  label: (
                    <>
                      <IconList size={18} />
                      <span className="visually-hidden">List view</span>
                    </>
                  ),
                },
                {
                  value: 'grid',
                  label: (
                    <>
                      <IconGrid size={18} />
                      <span className="visually-hidden">Grid view</span>
                    </>
                  ),
                },
              ]}
            />
            {/* On a phone an icon only, so it shares the row of the view toggle and Add videos. */}
            <ReasonTooltip reason={addBlockedReason}>
              <Button
                variant="secondary"
                className="library-header__new-folder"
                onClick={() => setFolderDialog({ kind: 'create' })}
                disabled={Boolean(addBlockedReason)}
              >
                <IconFolder size={18} />
                <span className="library-header__new-folder-label">New folder</span>
              </Button>
            </ReasonTooltip>
            <ReasonTooltip reason={addBlockedReason}>
              <Button onClick={() => setAddOpen(true)} disabled={Boolean(addBlockedReason)}>
                <IconPlus size={18} /> Add videos
              </Button>
            </ReasonTooltip>
            <FileInput inputRef={inputRef} onFiles={(list) => add(list)} />
          </div>
        </header>

        {folderId && <FolderBreadcrumb libraryName={library.name} trail={trail} hrefOf={hrefOf} />}

        <div className="library-toolbar">
          {files.length > 0 && (
            <div className="library-toolbar__filters">
              {grid ? (
                <>
                  <label className="search-input">
                    <IconSearch size={16} />
                    <span className="visually-hidden">Filter by title</span>
                    <input
                      type="search"
                      placeholder="Filter by title"
                      value={titleFilter}
                      onChange={(e) => setTitleFilter(e.target.value)}
                    />
                  </label>
                  <Select<MediaSortValue>
                    label="Sort"
                    hideLabel
                    value={sort}
                    onValueChange={setSort}
                    options={Object.entries(SORT_LABELS).map(([value, label]) => ({ value: value as MediaSortValue, label }))}
                  />
                </>
              ) : (
                <>
                  <Select<MediaStatus | 'all'>
                    label="Status"
                    hideLabel
                    value={statusFilter ?? 'all'}
                    onValueChange={(v) => setStatusFilter(v === 'all' ? null : v)}
                    options={[
                      { value: 'all', label: 'All statuses' },
                      ...TABLE_STATUS_FILTER.map((s) => ({ value: s, label: statusLabel(s) })),
                    ]}
                  />
                  <Menu
                    label="Columns"
                    trigger={
                      <Button variant="secondary" size="sm" className="columns-button">
                        <IconColumns size={16} /> Columns
                      </Button>
                    }
                  >
                    {MEDIA_TABLE_COLUMNS.filter((c) => c !== 'filename' && c !== 'menu').map((c) => (
                      <MenuCheckboxItem
                        key={c}
                        checked={!hiddenColumns.includes(c)}
                        onCheckedChange={(on) => {
                          libraryView.hiddenColumns = on
                            ? libraryView.hiddenColumns.filter((h) => h !== c)
                            : [...libraryView.hiddenColumns, c];
                        }}
                      >
                        {COLUMN_LABEL[c]}
                      </MenuCheckboxItem>
                    ))}
                  </Menu>
                </>
              )}
            </div>
          )}
        </div>

        {subFolders.length > 0 && (
          <FolderList
            folders={subFolders}
            hrefOf={(f) => hrefOf(f._id)}
            readOnlyReason={readOnlyReason}
            onRename={(folder) => setFolderDialog({ kind: 'rename', folder })}
            onDelete={(folder) => setFolderDialog({ kind: 'delete', folder })}
          />
        )}

        {data.status === 'loading' || data.status === 'missing' ? (
          <PageSpinner label="Loading media" />
        ) : data.status === 'error' ? (
          <LoadFailed title="We couldn't load the media" onRetry={() => void reload()}>
            {data.error}
          </LoadFailed>
        ) : files.length === 0 && subFolders.length > 0 ? null : files.length === 0 ? (
          <EmptyState
            icon={<IconUpload size={26} />}
            title={folderId ? MSG_FOLDER.empty : MSG_MEDIA.noVideos}
            text={
              addBlockedReason ??
              'Drop videos anywhere on this page, or choose them from your computer. Each is indexed once it is uploaded.'
            }
          >
            {!addBlockedReason && (
              <Button onClick={() => setAddOpen(true)}>
                <IconPlus size={18} /> Add videos
              </Button>
            )}
          </EmptyState>
        ) : shown.length === 0 && isFilterActive(filter) ? (
          <EmptyState icon={<IconSearch size={26} />} title={MSG_MEDIA.noResults} text={MSG_MEDIA.noResultsHint}>
            <Button
              variant="secondary"
              onClick={() => {
                setTitleFilter('');
                setStatusFilter(null);
              }}
            >
              Clear filters
            </Button>
          </EmptyState>
        ) : grid ? (
          <MediaGrid files={shown} />
        ) : (
          <MediaTable files={shown} columns={visibleColumns} sort={sort} onSort={setSort} />
        )}
      </div>

      {selected.size > 0 && (
        <SelectionBar
          count={selected.size}
          total={shown.length}
          onSelectAll={() => setSelected(new Set([...selected, ...shown.map((m) => m._id)]))}
          onDeselectAll={() => setSelected(new Set())}
          onDelete={() => setBulkDeleting([...selected])}
          deleteBlockedReason={readOnlyReason}
        />
      )}

      {dragging && (
        <div className={`drop-overlay${addBlockedReason ? ' drop-overlay--blocked' : ''}`} aria-hidden="true">
          <div className="drop-overlay__box">
            <IconUpload size={32} />
            <p>{addBlockedReason ?? `Drop to upload to ${placeName}`}</p>
          </div>
        </div>
      )}

      {addOpen && (
        <ChunkErrorBoundary what="Add videos">
          <Suspense fallback={null}>
            <AddVideosDialog
              target={{ libraryId: library._id, folderId: uploadFolderId }}
              knownUniqueIds={files.map((m) => m.uniqueId)}
              onFiles={(list) => add(list)}
              onAdded={() => {
                setAddOpen(false);
                void reload();
              }}
              onClose={() => setAddOpen(false)}
            />
          </Suspense>
        </ChunkErrorBoundary>
      )}
      {renaming && <RenameMediaDialog media={renaming} onClose={() => setRenaming(null)} onRenamed={replace} />}
      {deleting && <DeleteMediaDialog media={deleting} onClose={() => setDeleting(null)} onDeleted={(mid) => remove([mid])} />}
      {bulkDeleting && (
        <BulkDeleteDialog
          libraryId={library._id}
          mediaIds={bulkDeleting}
          onClose={() => setBulkDeleting(null)}
          onDeleted={(ids) => {
            remove(ids);
            setSelected(new Set());
          }}
        />
      )}
      {statusModal === 'processing' && (
        <ProcessingModal groups={groups} onClose={() => setStatusModal(null)} onChanged={() => void reload()} />
      )}
      {statusModal === 'failed' && (
        <FailedModal
          groups={groups}
          onClose={() => setStatusModal(null)}
          onChanged={() => void reload()}
          retryAll={retryAll}
          retryAllLocked={retryAllLocked}
        />
      )}
      {mediaId && (
        <MediaModal
          libraryId={library._id}
          mediaId={mediaId}
          tab={tab}
          onTabChange={(next) =>
            setParams(
              (p) => {
                const q = new URLSearchParams(p);
                if (next === 'visual') q.delete('tab');
                else q.set('tab', next);
                return q;
              },
              { replace: true },
            )
          }
          onClose={() => void navigate(hrefOf(folderId))}
          onLoaded={replace}
        />
      )}
      {folderDialog?.kind === 'create' && (
        <CreateFolderDialog
          libraryId={library._id}
          parentId={uploadFolderId}
          onClose={() => setFolderDialog(null)}
          onCreated={() => void reload()}
        />
      )}
      {folderDialog?.kind === 'rename' && (
        <RenameFolderDialog
          libraryId={library._id}
          folder={folderDialog.folder}
          onClose={() => setFolderDialog(null)}
          onRenamed={() => void reload()}
        />
      )}
      {folderDialog?.kind === 'delete' && (
        <DeleteFolderDialog
          libraryId={library._id}
          folder={folderDialog.folder}
          onClose={() => setFolderDialog(null)}
          onDeleted={() => void reload()}
        />
      )}
    </LibraryContext.Provider>
  );
}
