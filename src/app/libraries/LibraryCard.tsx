import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MSG_LIB, WELCOME_LIBRARY_NAME, libraryPath, mediaCountLabel, type Library } from '../../contract';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { thumbnailUrl } from '../state/previewTokens';
import { IconButton } from '../ui/Button';
import { IconExternal, IconFilm, IconLock, IconMore, IconPencil, IconTrash } from '../ui/icons';
import { Menu, MenuItem, MenuLink, MenuSeparator } from '../ui/Menu';
import { formatBytes, formatDuration } from '../ui/format';

/** The name shown for a library: the demo library is the Welcome Library when it has no name. */
export const libraryName = (l: Library) => l.name.trim() || (l.isDemo ? WELCOME_LIBRARY_NAME : l.name);

/** Delete is not offered for default, demo or read-only libraries; rename not for read-only ones (section 5). */
export const canDeleteLibrary = (l: Library) => !l.isDefault && !l.isDemo && !l.isReadOnly;
export const canRenameLibrary = (l: Library) => !l.isReadOnly;

/** The card's picture: the poster of the library's latest media that has one, or a placeholder. */
export function LibraryThumb({ library }: { library: Library }) {
  const mediaId = library.coverMediaId;
  // Asked for only when there is a cover to show.
  const token = usePreviewToken(library._id, Boolean(mediaId));
  const [failed, setFailed] = useState<string | null>(null);
  const src = mediaId && token ? thumbnailUrl(library._id, mediaId, token) : null;
  return (
    <div className="library-card__thumb">
      {src && failed !== src ? (
        <img src={src} alt="" loading="lazy" onError={() => setFailed(src)} />
      ) : (
        <span className="library-card__placeholder" aria-hidden="true">
          <IconFilm size={30} />
        </span>
      )}
    </div>
  );
}

export function LibraryCard({ library, onRename, onDelete }: { library: Library; onRename: () => void; onDelete: () => void }) {
  const name = libraryName(library);
  const { count, mediaDuration, mediaSize, breakdown } = library.stats;
  const photos = breakdown.photos?.count ?? 0;
  return (
    <li className="library-card">
      <Link to={libraryPath(library._id)} className="library-card__link" aria-label={`Open ${name}`}>
        <LibraryThumb library={library} />
      </Link>
      <div className="library-card__body">
        <div className="library-card__text">
          <Link to={libraryPath(library._id)} className="library-card__name" title={name}>
            {name}
          </Link>
          <span className="library-card__meta">
            {/* Photos have no duration: a library of photos only shows none. */}
            {mediaCountLabel(count, photos)}
            {photos < count || count === 0 ? ` · ${formatDuration(mediaDuration)}` : ''} · {formatBytes(mediaSize)}
          </span>
          <span className="library-card__badges">
            {library.isDefault && <span className="pill pill--accent">Default</span>}
            {library.isDemo && <span className="pill pill--accent">Demo</span>}
            {library.isReadOnly && (
              <span className="pill pill--muted">
                <IconLock size={12} /> Read-only
              </span>
            )}
          </span>
        </div>
        <Menu
          label={`Actions for ${name}`}
          trigger={
            <IconButton label={`Actions for ${name}`}>
              <IconMore size={18} />
            </IconButton>
          }
        >
          <MenuLink icon={<IconExternal size={16} />} to={libraryPath(library._id)}>
            Open
          </MenuLink>
          <MenuItem
            icon={<IconPencil size={16} />}
            onSelect={onRename}
            disabled={!canRenameLibrary(library)}
            hint={canRenameLibrary(library) ? undefined : MSG_LIB.readOnlyLibrary}
          >
            Rename
          </MenuItem>
          <MenuSeparator />
          <MenuItem
            icon={<IconTrash size={16} />}
            tone="danger"
            onSelect={onDelete}
            disabled={!canDeleteLibrary(library)}
            hint={canDeleteLibrary(library) ? undefined : MSG_LIB.cannotDeleteLibrary}
          >
            Delete
          </MenuItem>
        </Menu>
      </div>
    </li>
  );
}
