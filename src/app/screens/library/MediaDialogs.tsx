import { MSG_MEDIA, TOAST_MS, type Media } from '../../../contract';
import { libraryApi } from '../../api/instance';
import { errorMessage } from '../../api/errorMessage';
import { ConfirmDeleteDialog, RenameDialog } from '../../shell/ActionDialogs';
import { showToast } from '../../state/toasts';
import { formatBytes } from '../../ui/format';

/** Rename one media; 'Media renamed' when saved. */
export function RenameMediaDialog({ media, onClose, onRenamed }: { media: Media; onClose: () => void; onRenamed: (media: Media) => void }) {
  const rename = async (name: string) => {
    const updated = await libraryApi.renameMedia(media.libraryId, media._id, name);
    showToast(MSG_MEDIA.mediaRenamed, { tone: 'success' });
    onRenamed(updated);
  };
  return (
    <RenameDialog title="Rename media" label="Name" currentName={media.metadata.name} maxLength={255} onRename={rename} onClose={onClose} />
  );
}

/** Deleting one media: 'Media deleted' or 'Failed to delete media' (3 s). */
export function DeleteMediaDialog({ media, onClose, onDeleted }: { media: Media; onClose: () => void; onDeleted: (id: string) => void }) {
  const remove = async () => {
    await libraryApi.deleteMedia(media.libraryId, media._id);
    showToast(MSG_MEDIA.mediaDeleted, { tone: 'success' });
    onDeleted(media._id);
  };
  return (
    <ConfirmDeleteDialog
      title="Delete media"
      description={
        <>
          <strong className="dialog__em">{media.metadata.name}</strong> and its index will be deleted. This cannot be undone.
        </>
      }
      confirmLabel="Delete"
      onDelete={remove}
      onError={() => showToast(MSG_MEDIA.deleteFailed, { tone: 'error' })}
      onClose={onClose}
    />
  );
}

/** Deleting the selection; the toasts report what was deleted, the storage freed, and any failures. */
export function BulkDeleteDialog({
  libraryId,
  mediaIds,
  onClose,
  onDeleted,
}: {
  libraryId: string;
  mediaIds: string[];
  onClose: () => void;
  onDeleted: (ids: string[]) => void;
}) {
  const n = mediaIds.length;
  const remove = async () => {
    const { deleted, failed, freedBytes } = await libraryApi.bulkDelete(libraryId, mediaIds);
    if (deleted) showToast(MSG_MEDIA.bulkDeleted(deleted, formatBytes(freedBytes)), { tone: 'success', durationMs: TOAST_MS.bulkDelete });
    if (failed.length) showToast(MSG_MEDIA.bulkDeleteFailed(failed.length), { tone: 'error', durationMs: TOAST_MS.bulkDelete });
    const failedIds = new Set(failed.map((f) => f.mediaId));
    onDeleted(mediaIds.filter((id) => !failedIds.has(id)));
  };
  const reportFailure = (e: unknown) => {
    showToast(MSG_MEDIA.bulkDeleteFailed(n), { tone: 'error', durationMs: TOAST_MS.bulkDelete });
    console.warn('Bulk delete failed', errorMessage(e));
  };
  return (
    <ConfirmDeleteDialog
      title={`Delete ${n} media?`}
      description={`The selected ${n === 1 ? 'file and its index' : `${n} files and their indexes`} will be deleted. This cannot be undone.`}
      confirmLabel={`Delete ${n}`}
      onDelete={remove}
      onError={reportFailure}
      onClose={onClose}
    />
  );
}
