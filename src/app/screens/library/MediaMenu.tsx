import { isOpenableUrl, MSG_EXTERNAL, type Media } from '../../../contract';
import { copyMediaLink } from '../../state/clipboard';
import { showToast } from '../../state/toasts';
import { IconButton } from '../../ui/Button';
import { IconDownload, IconExternal, IconLink, IconMore, IconPencil, IconRefresh, IconTrash } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/Menu';
import { useLibraryPage } from './LibraryContext';
import { isFailedStatus } from './mediaListing';

/** Opens the page a media was imported from (section 5: only an http(s) address opens). */
export function openOriginalLink(media: Media) {
  const url = media.origin?.url;
  if (!isOpenableUrl(url)) return void showToast(MSG_EXTERNAL.originalUnavailable, { tone: 'error' });
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** The actions of one media: open, rename, download the original, retry a failure, delete. */
export function MediaMenu({ media }: { media: Media }) {
  const { actions } = useLibraryPage();
  return (
    <Menu
      label={`Actions for ${media.metadata.name}`}
      trigger={
        <IconButton label={`Actions for ${media.metadata.name}`} className="media-menu__trigger" onClick={(e) => e.stopPropagation()}>
          <IconMore size={18} />
        </IconButton>
      }
    >
      <MenuItem icon={<IconExternal size={16} />} {...actions.menuItem('openMedia', media)}>
        Open
      </MenuItem>
      <MenuItem icon={<IconLink size={16} />} onSelect={() => void copyMediaLink(media)}>
        Copy link
      </MenuItem>
      {media.origin?.source === 'external' && (
        <MenuItem icon={<IconExternal size={16} />} onSelect={() => openOriginalLink(media)}>
          Open original link
        </MenuItem>
      )}
      <MenuItem icon={<IconPencil size={16} />} {...actions.menuItem('renameMedia', media)}>
        Rename
      </MenuItem>
      <MenuItem icon={<IconDownload size={16} />} {...actions.menuItem('downloadOriginal', media)}>
        Download original
      </MenuItem>
      {isFailedStatus(media.status) && (
        <MenuItem icon={<IconRefresh size={16} />} {...actions.menuItem('retry', media)}>
          Retry
        </MenuItem>
      )}
      <MenuSeparator />
      <MenuItem icon={<IconTrash size={16} />} tone="danger" {...actions.menuItem('deleteMedia', media)}>
        Delete
      </MenuItem>
    </Menu>
  );
}
