import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_LIBRARY_NAME, LIBRARY_NAME_MAX, libraryPath, type Library } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { dropLibrary, upsertLibrary } from '../../state/libraries';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button, IconButton } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { IconClose, IconFilm } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { formatBytes } from '../library/mediaListing';
import { enqueueFiles } from '../upload/enqueueFiles';
import { partitionFiles } from '../upload/dropFiles';
import { UploadBox } from '../upload/UploadBox';

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!files.length) return;
    setBusy(true);
    setError(null);
    try {
      const library = await libraryApi.create(name.trim() || DEFAULT_LIBRARY_NAME);
      upsertLibrary(library);
      onClose();
      void navigate(libraryPath(library._id));
      void enqueueFiles(files, { libraryId: library._id, folderId: library.rootFolderId });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Create a library"
      description="Name it, add the first videos, and they are uploaded and indexed right away."
      width={560}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="create-library" busy={busy} disabled={!files.length}>
            Create library
          </Button>
        </>
      }
    >
      <form id="create-library" className="stack" onSubmit={(e) => void submit(e)}>
        {error && <Alert tone="error">{error}</Alert>}
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
      </form>
    </Dialog>
  );
}

/** Rename a library: preselected current name; saved only when non-empty and different. */
export function RenameLibraryDialog({ library, onClose }: { library: Library; onClose: () => void }) {
  const [name, setName] = useState(library.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (!next || next === library.name) return onClose();
    setBusy(true);
    try {
      upsertLibrary(await libraryApi.rename(library._id, next));
      showToast('Library renamed', { tone: 'success' });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Rename library"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="rename-library" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="rename-library" className="stack" onSubmit={(e) => void submit(e)}>
        {error && <Alert tone="error">{error}</Alert>}
        <TextField
          label="Library name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={LIBRARY_NAME_MAX}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
        />
      </form>
    </Dialog>
  );
}

export function DeleteLibraryDialog({ library, onClose }: { library: Library; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    try {
      const { freedBytes } = await libraryApi.remove(library._id);
      dropLibrary(library._id);
      showToast(`Library deleted. This operation freed ${formatBytes(freedBytes)} of storage.`, { tone: 'success' });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  const n = library.stats.count;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete library"
      description={
        <>
          <strong className="dialog__em">{library.name}</strong> and {n === 1 ? 'its video' : `all ${n} of its videos`} will be deleted.
          This cannot be undone.
        </>
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" busy={busy} onClick={() => void confirm()}>
            Delete library
          </Button>
        </>
      }
    >
      {error && <Alert tone="error">{error}</Alert>}
    </Dialog>
  );
}
