import { Link, type To } from 'react-router-dom';
import { describeFolderContents, type Folder } from '../../../contract';
import { IconButton } from '../../ui/Button';
import { IconFolder, IconMore, IconPencil, IconTrash } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/Menu';
import { useLibraryPage } from './LibraryContext';

/** The open folder's subfolders, oldest first as the server sorts them (section 4), beside its files. */
export function FolderList({ folders, hrefOf }: { folders: readonly Folder[]; hrefOf: (folder: Folder) => To }) {
  const { actions } = useLibraryPage();
  return (
    <ul className="folder-list" aria-label="Folders">
      {folders.map((f) => (
        <li key={f._id} className="folder-tile" data-folder-id={f._id}>
          <Link to={hrefOf(f)} className="folder-tile__open">
            <span className="folder-tile__icon">
              <IconFolder size={22} />
            </span>
            <span className="folder-tile__text">
              <span className="folder-tile__name" title={f.name}>
                {f.name}
              </span>
              <span className="folder-tile__meta">{describeFolderContents(f.contents) ?? 'Empty'}</span>
            </span>
          </Link>
          <Menu
            label={`Actions for folder ${f.name}`}
            trigger={
              <IconButton label={`Actions for folder ${f.name}`} className="folder-tile__menu">
                <IconMore size={18} />
              </IconButton>
            }
          >
            <MenuItem icon={<IconPencil size={16} />} {...actions.menuItem('renameFolder', f)}>
              Rename
            </MenuItem>
            <MenuSeparator />
            <MenuItem icon={<IconTrash size={16} />} tone="danger" {...actions.menuItem('deleteFolder', f)}>
              Delete
            </MenuItem>
          </Menu>
        </li>
      ))}
    </ul>
  );
}

/** Where the open folder sits: the library (its root) first, each folder above a link back to it. */
export function FolderBreadcrumb({
  libraryName,
  trail,
  hrefOf,
}: {
  libraryName: string;
  /** The ancestors below the root, then the open folder. */
  trail: readonly Folder[];
  hrefOf: (folderId: string | null) => To;
}) {
  return (
    <nav className="folder-breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to={hrefOf(null)}>{libraryName}</Link>
        </li>
        {trail.map((f, i) =>
          i === trail.length - 1 ? (
            <li key={f._id} aria-current="page">
              <IconFolder size={15} />
              {f.name}
            </li>
          ) : (
            <li key={f._id}>
              <Link to={hrefOf(f._id)}>{f.name}</Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
