import { IconButton, Button } from '../../ui/Button';
import { IconClose, IconTrash } from '../../ui/icons';
import { ReasonTooltip } from '../../ui/Tooltip';
import { useLibraryPage } from './LibraryContext';

/**
 * The floating selection bar: count, Select all, Deselect all, close and delete (section 2).
 * Download joins when rendering arrives; until then it is not offered rather than dead.
 */
export function SelectionBar() {
  const { ui, actions } = useLibraryPage();
  const deleteReason = actions.canRun('deleteSelected');
  const deselect = () => actions.run('deselectAll');
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      <span className="selection-bar__count" aria-live="polite">
        {ui.selected.size} selected
      </span>
      <Button size="sm" variant="ghost" onClick={() => actions.run('selectAll')} disabled={actions.canRun('selectAll') !== null}>
        Select all
      </Button>
      <Button size="sm" variant="ghost" onClick={deselect}>
        Deselect all
      </Button>
      <span className="selection-bar__sep" />
      <ReasonTooltip reason={deleteReason} side="top">
        <Button size="sm" variant="danger" onClick={() => actions.run('deleteSelected')} disabled={deleteReason !== null}>
          <IconTrash size={16} /> Delete
        </Button>
      </ReasonTooltip>
      <IconButton label="Close selection" onClick={deselect}>
        <IconClose size={18} />
      </IconButton>
    </div>
  );
}
