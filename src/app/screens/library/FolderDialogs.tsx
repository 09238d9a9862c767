import { useState } from 'react';
import { describeFolderContents, FOLDER_NAME_MAX, MSG_FOLDER, type Folder } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { libraryApi } from '../../api/instance';
import { ConfirmDeleteDialog, RenameDialog } from '../../shell/ActionDialogs';
import { showToast } from '../../state/toasts';
import { FormDialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { formatBytes } from '../../ui/format';

/** A new folder in the open one; the server's refusal (an empty or taken name) is shown in the dialog. */
export function CreateFolderDialog({
  libraryId,
  parentId,
  onClose,
  onCreated,
}: {
  libraryId: string;
  parentId: string;
  onClose: () => void;
  onCreated: (folder: Folder) => void;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!name.trim()) return setError(MSG_FOLDER.nameEmpty);
    setBusy(true);
    setError(null);
    try {
      const folder = await libraryApi.createFolder(libraryId, { name: name.trim(), parentId });
      showToast(MSG_FOLDER.created, { tone: 'success' });
      onCreated(folder);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <FormDialog title="New folder" submitLabel="Create folder" busy={busy} error={error} onSubmit={() => void submit()} onClose={onClose}>
      <TextField label="Folder name" value={name} onChange={(e) => setName(e.target.value)} maxLength={FOLDER_NAME_MAX} autoFocus />
    </FormDialog>
  );
}

interface FolderDialogProps {
  libraryId: string;
  folder: Folder;
  onClose: () => void;
}

export function RenameFolderDialog({ libraryId, folder, onClose, onRenamed }: FolderDialogProps & { onRenamed: (f: Folder) => void }) {
  const rename = async (name: string) => {
    const updated = await libraryApi.renameFolder(libraryId, folder._id, name);
    showToast(MSG_FOLDER.renamed, { tone: 'success' });
    onRenamed(updated);
  };
  return (
    <RenameDialog
      title="Rename folder"
      label="Folder name"
      currentName={folder.name}
      maxLength={FOLDER_NAME_MAX}
      onRename={rename}
      onClose={onClose}
    />
  );
}

/**
 * Deleting a folder. One that holds anything says what goes with it (at any depth) and, confirmed,
 * is deleted with `recursive`: the server refuses a non-empty folder without it.
 */
export function DeleteFolderDialog({ libraryId, folder, onClose, onDeleted }: FolderDialogProps & { onDeleted: (id: string) => void }) {
  const holds = describeFolderContents(folder.contents);
  const remove = async () => {
    const { freedBytes } = await libraryApi.deleteFolder(libraryId, folder._id, Boolean(holds));
    showToast(freedBytes ? `${MSG_FOLDER.deleted}: ${formatBytes(freedBytes)} of storage freed.` : MSG_FOLDER.deleted, { tone: 'success' });
    onDeleted(folder._id);
  };
  return (
    <ConfirmDeleteDialog
      title="Delete folder"
      description={
        holds ? (
          <>
            <strong className="dialog__em">{folder.name}</strong> holds {holds}. They will be deleted with it, with their indexes. This
            cannot be undone.
          </>
        ) : (
          <>
            The empty folder <strong className="dialog__em">{folder.name}</strong> will be deleted.
          </>
        )
      }
      confirmLabel={holds ? 'Delete folder and contents' : 'Delete folder'}
      onDelete={remove}
      onError={(e) => showToast(errorMessage(e), { title: MSG_FOLDER.deleteFailed, tone: 'error' })}
      onClose={onClose}
    />
  );
}
