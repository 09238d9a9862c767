import type { Media } from '../../../contract';
import { IconButton } from '../../ui/Button';
import { IconDownload, IconExternal, IconMore, IconPencil, IconRefresh, IconTrash } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/Menu';
import { useLibraryActions } from './LibraryContext';
import { isFailedStatus } from './mediaListing';

/** Only completed media can be opened (section 4). */
export const canOpen = (m: Media) => m.status === 'completed';
const OPEN_HINT = 'Only processed media can be opened.';
const DOWNLOAD_HINT = 'The file is still uploading.';

/** The actions of one media: open, rename, download the original, retry a failure, delete. */
export function MediaMenu({ media }: { media: Media }) {
  const a = useLibraryActions();
  const failed = isFailedStatus(media.status);
  return (
    <Menu
      label={`Actions for ${media.metadata.name}`}
      trigger={
        <IconButton label={`Actions for ${media.metadata.name}`} className="media-menu__trigger" onClick={(e) => e.stopPropagation()}>
          <IconMore size={18} />
        </IconButton>
      }
    >
      <MenuItem
        icon={<IconExternal size={16} />}
        onSelect={() => a.open(media)}
        disabled={!canOpen(media)}
        hint={canOpen(media) ? undefined : OPEN_HINT}
      >
        Open
      </MenuItem>
      <MenuItem
        icon={<IconPencil size={16} />}
        onSelect={() => a.rename(media)}
        disabled={Boolean(a.readOnlyReason)}
        hint={a.readOnlyReason ?? undefined}
      >
        Rename
      </MenuItem>
      <MenuItem
        icon={<IconDownload size={16} />}
        onSelect={() => a.download(media)}
        disabled={media.status === 'uploading'}
        hint={media.status === 'uploading' ? DOWNLOAD_HINT : undefined}
      >
        Download original
      </MenuItem>
      {failed && (
        <MenuItem
          icon={<IconRefresh size={16} />}
          onSelect={() => a.retry(media)}
          disabled={Boolean(a.readOnlyReason)}
          hint={a.readOnlyReason ?? undefined}
        >
          Retry
        </MenuItem>
      )}
      <MenuSeparator />
      <MenuItem
        icon={<IconTrash size={16} />}
        tone="danger"
        onSelect={() => a.remove(media)}
        disabled={Boolean(a.readOnlyReason)}
        hint={a.readOnlyReason ?? undefined}
      >
        Delete
      </MenuItem>
    </Menu>
  );
}
