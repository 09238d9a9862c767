import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { MSG, type Library } from '../../../contract';
import { useLibraries } from '../../hooks/useLibraries';
import { session } from '../../state/session';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconPlus } from '../../ui/icons';
import { LoadFailed } from '../../ui/LoadFailed';
import { PageSpinner } from '../../ui/Spinner';
import { ReasonTooltip } from '../../ui/Tooltip';
import { LibraryCard } from '../../libraries/LibraryCard';
import { CreateLibraryDialog, DeleteLibraryDialog, RenameLibraryDialog } from './LibraryDialogs';
import './libraries.css';

/** /libraries: every library as a card, with create, rename and delete where the rules allow. */
export default function LibrariesScreen() {
  // Asked afresh each time the page opens.
  const { items, status, error, reload } = useLibraries();
  const { user } = useSnapshot(session);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Library | null>(null);
  const [deleting, setDeleting] = useState<Library | null>(null);
  const createBlocked = user?.isVerified === false ? MSG.verifyToAdd : null;

  // Own libraries first (default first), then the demo library.
  const sorted = [...((items ?? []) as Library[])].sort(
    (a, b) => Number(a.isDemo) - Number(b.isDemo) || Number(b.isDefault) - Number(a.isDefault) || a.createdAt.localeCompare(b.createdAt),
  );

  return (
    <div className="page page--wide">
      <div className="page__header spread">
        <div>
          <h1 className="page__title">Libraries</h1>
          <p className="page__subtitle">Collections of your videos, indexed for search.</p>
        </div>
        <ReasonTooltip reason={createBlocked}>
          <Button onClick={() => setCreating(true)} disabled={Boolean(createBlocked)}>
            <IconPlus size={18} /> Create library
          </Button>
        </ReasonTooltip>
      </div>
      {createBlocked && (
        <div className="libraries__notice">
          <Alert tone="warning">{MSG.verifyToAdd}</Alert>
        </div>
      )}
      {!items ? (
        status === 'error' ? (
          <LoadFailed title="We couldn't load your libraries" onRetry={reload}>
            {error}
          </LoadFailed>
        ) : (
          <PageSpinner label="Loading libraries" />
        )
      ) : (
        <ul className="library-grid" aria-label="Libraries">
          {sorted.map((l) => (
            <LibraryCard key={l._id} library={l} onRename={() => setRenaming(l)} onDelete={() => setDeleting(l)} />
          ))}
        </ul>
      )}
      {creating && <CreateLibraryDialog onClose={() => setCreating(false)} />}
      {renaming && <RenameLibraryDialog library={renaming} onClose={() => setRenaming(null)} />}
      {deleting && <DeleteLibraryDialog library={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
