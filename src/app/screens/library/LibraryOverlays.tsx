import { Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LIBRARY_TABS, TOAST_MS, UPLOAD_MODAL_REFRESH_DEBOUNCE_MS, type LibraryTab } from '../../../contract';
import { useTrailingDebounce } from '../../hooks/trailingDebounce';
import { lazyComponent } from '../../routing/lazyChunk';
import { ChunkErrorBoundary } from '../../shell/ChunkLoadFailed';
import { showToast } from '../../state/toasts';
import { IconUpload } from '../../ui/icons';
import { useFileDrop } from '../../upload/useFileDrop';
import { CreateFolderDialog, DeleteFolderDialog, RenameFolderDialog } from './FolderDialogs';
import { useLibraryPage } from './LibraryContext';
import { setSelected } from './libraryStore';
import { BulkDeleteDialog, DeleteMediaDialog, RenameMediaDialog } from './MediaDialogs';
import { MediaModal } from './MediaModal';
import { SelectionBar } from './SelectionBar';
import { FailedModal, ProcessingModal, type StatusGroups } from './StatusModals';
import type { useLibraryMedia } from './useLibraryMedia';

/** 'Add videos' (files or a link) loads when first opened. */
const AddVideosDialog = lazyComponent(() => import('../../upload/AddVideosDialog').then((m) => m.AddVideosDialog));

const tabOf = (value: string | null): LibraryTab => (LIBRARY_TABS.includes(value as LibraryTab) ? (value as LibraryTab) : 'visual');

/**
 * What opens over the page: the selection bar, the drop overlay, the dialog the store names, the
 * status modals and the media modal of the address.
 */
export function LibraryOverlays({
  listing,
  groups,
  add,
  uploadFolderId,
  placeName,
  mediaId,
  closeMedia,
}: {
  listing: ReturnType<typeof useLibraryMedia>;
  groups: StatusGroups;
  add: (files: File[], dropped?: boolean) => void;
  /** Where uploads and new folders go: the open folder (the library's root folder on its page). */
  uploadFolderId: string;
  placeName: string;
  mediaId: string | null;
  closeMedia: () => void;
}) {
  const { library, store, ui, actions } = useLibraryPage();
  const { files, replace, remove } = listing;
  const reload = () => void listing.reload();
  // What the processing and failed modals change (clears, retries, deletes) reloads the listing once per burst.
  const modalRefresh = useTrailingDebounce(reload, UPLOAD_MODAL_REFRESH_DEBOUNCE_MS);
  const closeDialog = () => (store.dialog = null);
  const closeStatus = () => (store.statusModal = null);
  // The query keeps what the page was opened with when a media modal opens and closes; its `tab`
  // (visual or transcript, section 2) is the tab the media modal's side panel shows.
  const [params, setParams] = useSearchParams();
  const addReason = actions.canRun('addVideos');
  const dragging = useFileDrop((list) => add(list, true), {
    enabled: true,
    blockedReason: addReason,
    onBlocked: (reason) => showToast(reason, { tone: 'error', durationMs: TOAST_MS.dragError }),
  });
  const { dialog } = ui;
  return (
    <>
      {ui.selected.size > 0 && <SelectionBar />}

      {dragging && (
        <div className={`drop-overlay${addReason ? ' drop-overlay--blocked' : ''}`} aria-hidden="true">
          <div className="drop-overlay__box">
            <IconUpload size={32} />
            <p>{addReason ?? `Drop to upload to ${placeName}`}</p>
          </div>
        </div>
      )}

      {dialog?.kind === 'addVideos' && (
        <ChunkErrorBoundary what="Add videos">
          <Suspense fallback={null}>
            <AddVideosDialog
              target={{ libraryId: library._id, folderId: uploadFolderId }}
              knownUniqueIds={files.map((m) => m.uniqueId)}
              onFiles={(list) => add(list)}
              onAdded={() => {
                closeDialog();
                reload();
              }}
              onClose={closeDialog}
            />
          </Suspense>
        </ChunkErrorBoundary>
      )}
      {dialog?.kind === 'renameMedia' && <RenameMediaDialog media={dialog.media} onClose={closeDialog} onRenamed={replace} />}
      {dialog?.kind === 'deleteMedia' && (
        <DeleteMediaDialog media={dialog.media} onClose={closeDialog} onDeleted={(mid) => remove([mid])} />
      )}
      {dialog?.kind === 'bulkDelete' && (
        <BulkDeleteDialog
          libraryId={library._id}
          mediaIds={dialog.mediaIds}
          onClose={closeDialog}
          onDeleted={(ids) => {
            remove(ids);
            setSelected(store, []);
          }}
        />
      )}
      {ui.statusModal === 'processing' && <ProcessingModal groups={groups} onClose={closeStatus} onChanged={modalRefresh.call} />}
      {ui.statusModal === 'failed' && <FailedModal groups={groups} onClose={closeStatus} onChanged={modalRefresh.call} />}
      {mediaId && (
        <MediaModal
          libraryId={library._id}
          mediaId={mediaId}
          tab={tabOf(params.get('tab'))}
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
          onClose={closeMedia}
          onLoaded={replace}
        />
      )}
      {dialog?.kind === 'createFolder' && (
        <CreateFolderDialog libraryId={library._id} parentId={uploadFolderId} onClose={closeDialog} onCreated={reload} />
      )}
      {dialog?.kind === 'renameFolder' && (
        <RenameFolderDialog libraryId={library._id} folder={dialog.folder} onClose={closeDialog} onRenamed={reload} />
      )}
      {dialog?.kind === 'deleteFolder' && (
        <DeleteFolderDialog libraryId={library._id} folder={dialog.folder} onClose={closeDialog} onDeleted={reload} />
      )}
    </>
  );
}
