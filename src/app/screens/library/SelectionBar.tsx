import { IconButton, Button } from '../../ui/Button';
import { IconClose, IconTrash } from '../../ui/icons';
import { ReasonTooltip } from '../../ui/Tooltip';

/**
 * The floating selection bar: count, Select all, Deselect all, close and delete (section 2).
 * Download joins when rendering arrives; until then it is not offered rather than dead.
 */
export function SelectionBar({
  count,
  total,
  onSelectAll,
  onDeselectAll,
  onDelete,
  deleteBlockedReason,
}: {
  count: number;
  total: number;
  onSelectAll: () => void;
  onDeselectAll: () => void;
  onDelete: () => void;
  deleteBlockedReason: string | null;
}) {
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      <span className="selection-bar__count" aria-live="polite">
        {count} selected
      </span>
      <Button size="sm" variant="ghost" onClick={onSelectAll} disabled={count === total}>
        Select all
      </Button>
      <Button size="sm" variant="ghost" onClick={onDeselectAll}>
        Deselect all
      </Button>
      <span className="selection-bar__sep" />
      <ReasonTooltip reason={deleteBlockedReason} side="top">
        <Button size="sm" variant="danger" onClick={onDelete} disabled={Boolean(deleteBlockedReason)}>
          <IconTrash size={16} /> Delete
        </Button>
      </ReasonTooltip>
      <IconButton label="Close selection" onClick={onDeselectAll}>
        <IconClose size={18} />
      </IconButton>
    </div>
  );
}
