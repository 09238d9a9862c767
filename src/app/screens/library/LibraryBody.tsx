import type { To } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MEDIA_TABLE_COLUMNS, MSG_FOLDER, MSG_MEDIA, type Folder, type Media } from '../../../contract';
import { EmptyState } from '../../shell/EmptyState';
import { libraryView } from '../../state/libraryView';
import { preferences } from '../../state/preferences';
import { Button } from '../../ui/Button';
import { IconPlus, IconSearch, IconUpload } from '../../ui/icons';
import { LoadFailed } from '../../ui/LoadFailed';
import { PageSpinner } from '../../ui/Spinner';
import { FolderList } from './FolderList';
import { useLibraryPage } from './LibraryContext';
import { setSort } from './LibraryToolbar';
import { MediaGrid } from './MediaGrid';
import { MediaTable } from './MediaTable';
import type { useLibraryMedia } from './useLibraryMedia';

/** The open folder's subfolders, then its media: loading, failed, empty, no results, or the grid or table. */
export function LibraryBody({
  listing,
  shown,
  filterActive,
  inFolder,
  hrefOf,
}: {
  listing: ReturnType<typeof useLibraryMedia>;
  shown: Media[];
  filterActive: boolean;
  inFolder: boolean;
  hrefOf: (folder: Folder) => To;
}) {
  const { actions } = useLibraryPage();
  const { libraryViewMode } = useSnapshot(preferences);
  const { sort, hiddenColumns } = useSnapshot(libraryView);
  const { files, status } = listing;
  const subFolders = listing.folder?.subFolders ?? [];
  const addReason = actions.canRun('addVideos');
  return (
    <>
      {subFolders.length > 0 && <FolderList folders={subFolders} hrefOf={hrefOf} />}
      {status === 'loading' || status === 'missing' ? (
        <PageSpinner label="Loading media" />
      ) : status === 'error' ? (
        <LoadFailed title="We couldn't load the media" onRetry={() => void listing.reload()}>
          {listing.error}
        </LoadFailed>
      ) : files.length === 0 && subFolders.length > 0 ? null : files.length === 0 ? (
        <EmptyState
          icon={<IconUpload size={26} />}
          title={inFolder ? MSG_FOLDER.empty : MSG_MEDIA.noVideos}
          text={addReason ?? 'Drop videos anywhere on this page, or choose them from your computer. Each is indexed once it is uploaded.'}
        >
          {!addReason && (
            <Button onClick={() => actions.run('addVideos')}>
              <IconPlus size={18} /> Add videos
            </Button>
          )}
        </EmptyState>
      ) : shown.length === 0 && filterActive ? (
        <EmptyState icon={<IconSearch size={26} />} title={MSG_MEDIA.noResults} text={MSG_MEDIA.noResultsHint}>
          <Button variant="secondary" onClick={() => actions.run('clearFilters')}>
            Clear filters
          </Button>
        </EmptyState>
      ) : libraryViewMode === 'grid' ? (
        <MediaGrid files={shown} />
      ) : (
        <MediaTable files={shown} columns={MEDIA_TABLE_COLUMNS.filter((c) => !hiddenColumns.includes(c))} sort={sort} onSort={setSort} />
      )}
    </>
  );
}
