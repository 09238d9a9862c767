import { useState, type FormEvent } from 'react';
import { MSG_MEDIA, TOAST_MS, type Media } from '../../../contract';
import { libraryApi } from '../../api/instance';
import { errorMessage } from '../../api/errorMessage';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { formatBytes } from './mediaListing';

/**
 * Rename: the field starts with the current name selected; the name is saved only when it is
 * non-empty and different (section 5), otherwise the dialog just closes.
 */
export function RenameMediaDialog({ media, onClose, onRenamed }: { media: Media; onClose: () => void; onRenamed: (media: Media) => void }) {
  const [name, setName] = useState(media.metadata.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (!next || next === media.metadata.name) return onClose();
    setBusy(true);
    setError(null);
    try {
      const updated = await libraryApi.renameMedia(media.libraryId, media._id, next);
      showToast(MSG_MEDIA.mediaRenamed, { tone: 'success' });
      onRenamed(updated);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Rename media"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="rename-media" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="rename-media" className="stack" onSubmit={(e) => void submit(e)}>
        {error && <Alert tone="error">{error}</Alert>}
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          maxLength={255}
        />
      </form>
    </Dialog>
  );
}

/** Deleting one media: 'Media deleted' or 'Failed to delete media' (3 s). */
export function DeleteMediaDialog({ media, onClose, onDeleted }: { media: Media; onClose: () => void; onDeleted: (id: string) => void }) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await libraryApi.deleteMedia(media.libraryId, media._id);
      showToast(MSG_MEDIA.mediaDeleted, { tone: 'success' });
      onDeleted(media._id);
      onClose();
    } catch {
      showToast(MSG_MEDIA.deleteFailed, { tone: 'error' });
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete media"
      description={
        <>
          <strong className="dialog__em">{media.metadata.name}</strong> and its index will be deleted. This cannot be undone.
        </>
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" busy={busy} onClick={() => void confirm()}>
            Delete
          </Button>
        </>
      }
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
  const [busy, setBusy] = useState(false);
  const n = mediaIds.length;
  const confirm = async () => {
    setBusy(true);
    try {
      const { deleted, failed, freedBytes } = await libraryApi.bulkDelete(libraryId, mediaIds);
      if (deleted) showToast(MSG_MEDIA.bulkDeleted(deleted, formatBytes(freedBytes)), { tone: 'success', durationMs: TOAST_MS.bulkDelete });
      if (failed.length) showToast(MSG_MEDIA.bulkDeleteFailed(failed.length), { tone: 'error', durationMs: TOAST_MS.bulkDelete });
      const failedIds = new Set(failed.map((f) => f.mediaId));
      onDeleted(mediaIds.filter((id) => !failedIds.has(id)));
      onClose();
    } catch (e) {
      showToast(MSG_MEDIA.bulkDeleteFailed(n), { tone: 'error', durationMs: TOAST_MS.bulkDelete });
      console.warn('Bulk delete failed', errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${n} media?`}
      description={`The selected ${n === 1 ? 'file and its index' : `${n} files and their indexes`} will be deleted. This cannot be undone.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" busy={busy} onClick={() => void confirm()}>
            Delete {n}
          </Button>
        </>
      }
    />
  );
}
