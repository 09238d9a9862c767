import { canOpenMedia, isOpenableUrl, MSG_EXTERNAL, type Media } from '../../../contract';
import { copyMediaLink } from '../../state/clipboard';
import { showToast } from '../../state/toasts';
import { IconButton } from '../../ui/Button';
import { IconDownload, IconExternal, IconLink, IconMore, IconPencil, IconRefresh, IconTrash } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/Menu';
import { useLibraryActions } from './LibraryContext';
import { isFailedStatus } from './mediaListing';

/** Completed media open, and processing ones whose preview is ready (section 4). */
export const canOpen = canOpenMedia;
const OPEN_HINT = 'It opens once its preview is ready.';
const DOWNLOAD_HINT = 'The file is still uploading.';

/** Opens the page a media was imported from (section 5: only an http(s) address opens). */
export function openOriginalLink(media: Media) {
  const url = media.origin?.url;
  if (!isOpenableUrl(url)) return void showToast(MSG_EXTERNAL.originalUnavailable, { tone: 'error' });
  window.open(url, '_blank', 'noopener,noreferrer');
}

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
      <MenuItem icon={<IconLink size={16} />} onSelect={() => void copyMediaLink(media)}>
        Copy link
      </MenuItem>
      {media.origin?.source === 'external' && (
        <MenuItem icon={<IconExternal size={16} />} onSelect={() => openOriginalLink(media)}>
          Open original link
        </MenuItem>
      )}
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
