import { useState, type ReactNode } from 'react';
import { errorMessage } from '../api/errorMessage';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { ActionDialog, FormDialog } from '../ui/Dialog';
import { TextField } from '../ui/TextField';

/**
 * Runs a dialog's action: busy meanwhile, the dialog closes when it succeeds. A failure goes to
 * `onError` when given, otherwise it is kept to be shown in the dialog.
 */
function useDialogAction(onClose: () => void, onError?: (error: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onClose();
    } catch (err) {
      if (onError) onError(err);
      else setError(errorMessage(err));
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/**
 * Rename (section 5): the field starts with the current name selected; the name is saved only
 * when it is non-empty and different, otherwise the dialog just closes.
 */
export function RenameDialog({
  title,
  label,
  currentName,
  maxLength,
  onRename,
  onClose,
}: {
  title: string;
  label: string;
  currentName: string;
  maxLength: number;
  /** Saves the trimmed new name; what it throws is shown in the dialog. */
  onRename: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(currentName);
  const { busy, error, run } = useDialogAction(onClose);
  const submit = () => {
    const next = name.trim();
    if (!next || next === currentName) return onClose();
    void run(() => onRename(next));
  };
  return (
    <FormDialog title={title} submitLabel="Save" busy={busy} error={error} onSubmit={submit} onClose={onClose}>
      <TextField
        label={label}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={maxLength}
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
      />
    </FormDialog>
  );
}

/** Asks before deleting; the danger button runs `onDelete`. */
export function ConfirmDeleteDialog({
  title,
  description,
  confirmLabel,
  onDelete,
  onError,
  onClose,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: ReactNode;
  onDelete: () => Promise<void>;
  /** Reports a failure (a toast); without it, the failure is shown in the dialog. */
  onError?: (error: unknown) => void;
  onClose: () => void;
}) {
  const { busy, error, run } = useDialogAction(onClose, onError);
  return (
    <ActionDialog
      title={title}
      description={description}
      onClose={onClose}
      action={
        <Button variant="danger" busy={busy} onClick={() => void run(onDelete)}>
          {confirmLabel}
        </Button>
      }
    >
      {error && <Alert tone="error">{error}</Alert>}
    </ActionDialog>
  );
}
