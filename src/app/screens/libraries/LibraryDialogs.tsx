import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_LIBRARY_NAME, LIBRARY_NAME_MAX, libraryPath, type Library } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { invalidateLibraries } from '../../state/libraries';
import { showToast } from '../../state/toasts';
import { ConfirmDeleteDialog, RenameDialog } from '../../shell/ActionDialogs';
import { IconButton } from '../../ui/Button';
import { FormDialog } from '../../ui/Dialog';
import { IconClose, IconFilm } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { enqueueFiles } from '../../upload/enqueueFiles';
import { partitionFiles } from '../../upload/dropFiles';
import { UploadBox } from '../../upload/UploadBox';
import { formatBytes } from '../../ui/format';

/**
 * Library creation (sections 5 and 7): a name (trimmed; empty gets the default) and at least one
 * file. The library is created, the user is taken to it, and the files go to its upload queue.
 */
export function CreateLibraryDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const addFiles = (list: File[]) => {
    const { accepted, rejected } = partitionFiles(list);
    setError(rejected.length ? `${rejected.map((f) => f.name).join(', ')}: not a video or image file.` : null);
    setFiles((current) => [...current, ...accepted.filter((f) => !current.some((c) => c.name === f.name && c.size === f.size))]);
  };

  const submit = async () => {
    if (!files.length) return;
    setBusy(true);
    setError(null);
    try {
      const library = await libraryApi.create(name.trim() || DEFAULT_LIBRARY_NAME);
      void invalidateLibraries({ saved: library });
      onClose();
      void navigate(libraryPath(library._id));
      void enqueueFiles(files, { libraryId: library._id, folderId: library.rootFolderId });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Create a library"
      description="Name it, add the first videos, and they are uploaded and indexed right away."
      width={560}
      submitLabel="Create library"
      submitDisabled={!files.length}
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField
        label="Library name"
        placeholder={DEFAULT_LIBRARY_NAME}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={LIBRARY_NAME_MAX}
        hint={`Left empty, it is called “${DEFAULT_LIBRARY_NAME}”.`}
        autoFocus
      />
      <UploadBox onFiles={addFiles} title="Add the first videos" />
      {files.length > 0 && (
        <ul className="chosen-files" aria-label="Chosen files">
          {files.map((f, i) => (
            <li key={`${f.name}-${f.size}-${i}`} className="chosen-files__item">
              <IconFilm size={16} />
              <span className="chosen-files__name">{f.name}</span>
              <span className="chosen-files__size">{formatBytes(f.size)}</span>
              <IconButton label={`Remove ${f.name}`} onClick={() => setFiles(files.filter((x) => x !== f))}>
                <IconClose size={16} />
              </IconButton>
            </li>
          ))}
        </ul>
      )}
    </FormDialog>
  );
}

/** Rename a library: preselected current name; saved only when non-empty and different. */
export function RenameLibraryDialog({ library, onClose }: { library: Library; onClose: () => void }) {
  const rename = async (name: string) => {
    void invalidateLibraries({ saved: await libraryApi.rename(library._id, name) });
    showToast('Library renamed', { tone: 'success' });
  };
  return (
    <RenameDialog
      title="Rename library"
      label="Library name"
      currentName={library.name}
      maxLength={LIBRARY_NAME_MAX}
      onRename={rename}
      onClose={onClose}
    />
  );
}

export function DeleteLibraryDialog({ library, onClose }: { library: Library; onClose: () => void }) {
  const remove = async () => {
    const { freedBytes } = await libraryApi.remove(library._id);
    void invalidateLibraries({ deleted: library._id });
    showToast(`Library deleted. This operation freed ${formatBytes(freedBytes)} of storage.`, { tone: 'success' });
  };
  const n = library.stats.count;
  return (
    <ConfirmDeleteDialog
      title="Delete library"
      description={
        <>
          <strong className="dialog__em">{library.name}</strong> and {n === 1 ? 'its video' : `all ${n} of its videos`} will be deleted.
          This cannot be undone.
        </>
      }
      confirmLabel="Delete library"
      onDelete={remove}
      onClose={onClose}
    />
  );
}
