import { useSnapshot } from 'valtio';
import { MEDIA_TABLE_COLUMNS, TABLE_STATUS_FILTER, type MediaSortValue, type MediaStatus } from '../../../contract';
import { libraryView } from '../../state/libraryView';
import { preferences } from '../../state/preferences';
import { Button } from '../../ui/Button';
import { IconColumns, IconSearch } from '../../ui/icons';
import { Menu, MenuCheckboxItem } from '../../ui/Menu';
import { Select } from '../../ui/Select';
import { useLibraryPage } from './LibraryContext';
import { statusLabel } from './MediaStatus';
import { COLUMN_LABEL } from './MediaTable';

const SORT_LABELS: Record<MediaSortValue, string> = {
  'title#1': 'Title A-Z',
  'title#-1': 'Title Z-A',
  'modified#1': 'Modified first',
  'modified#-1': 'Modified last',
  'added#1': 'Added first',
  'added#-1': 'Added last',
  'duration#1': 'Duration: shortest',
  'duration#-1': 'Duration: longest',
};

export const setSort = (value: MediaSortValue) => void (libraryView.sort = value);

/** Above the media, once there are any: the title filter and sort (grid), or the status filter and columns (list). */
export function LibraryToolbar({ hasFiles }: { hasFiles: boolean }) {
  const { store, ui } = useLibraryPage();
  const { libraryViewMode } = useSnapshot(preferences);
  const { sort, hiddenColumns } = useSnapshot(libraryView);
  return (
    <div className="library-toolbar spread">
      {hasFiles && (
        <div className="library-toolbar__filters">
          {libraryViewMode === 'grid' ? (
            <>
              <label className="search-input">
                <IconSearch size={16} />
                <span className="visually-hidden">Filter by title</span>
                <input
                  type="search"
                  placeholder="Filter by title"
                  value={ui.titleFilter}
                  onChange={(e) => (store.titleFilter = e.target.value)}
                />
              </label>
              <Select<MediaSortValue>
                label="Sort"
                hideLabel
                value={sort}
                onValueChange={setSort}
                options={Object.entries(SORT_LABELS).map(([value, label]) => ({ value: value as MediaSortValue, label }))}
              />
            </>
          ) : (
            <>
              <Select<MediaStatus | 'all'>
                label="Status"
                hideLabel
                value={ui.statusFilter ?? 'all'}
                onValueChange={(v) => (store.statusFilter = v === 'all' ? null : v)}
                options={[
                  { value: 'all', label: 'All statuses' },
                  ...TABLE_STATUS_FILTER.map((s) => ({ value: s, label: statusLabel(s) })),
                ]}
              />
              <Menu
                label="Columns"
                trigger={
                  <Button variant="secondary" size="sm" className="columns-button">
                    <IconColumns size={16} /> Columns
                  </Button>
                }
              >
                {MEDIA_TABLE_COLUMNS.filter((c) => c !== 'filename' && c !== 'menu').map((c) => (
                  <MenuCheckboxItem
                    key={c}
                    checked={!hiddenColumns.includes(c)}
                    onCheckedChange={(on) => {
                      libraryView.hiddenColumns = on ? libraryView.hiddenColumns.filter((h) => h !== c) : [...libraryView.hiddenColumns, c];
                    }}
                  >
                    {COLUMN_LABEL[c]}
                  </MenuCheckboxItem>
                ))}
              </Menu>
            </>
          )}
        </div>
      )}
    </div>
  );
}
