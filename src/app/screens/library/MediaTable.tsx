import {
  isOpenableUrl,
  MEDIA_TABLE_ROW_HEIGHT,
  MSG_MEDIA,
  type Media,
  type MediaSortKey,
  type MediaSortValue,
  type MediaTableColumn,
} from '../../../contract';
import { CheckboxControl } from '../../ui/Checkbox';
import { IconExternal } from '../../ui/icons';
import { useLibraryPage } from './LibraryContext';
import { toggleSelected } from './libraryStore';
import { formatDate } from './MediaGrid';
import { MediaMenu } from './MediaMenu';
import { isFailedStatus, originLabel, parseSort, formatMediaSize } from './mediaListing';
import { MediaStatusView } from './MediaStatus';
import { MediaThumb } from './MediaThumb';
import { formatDuration } from '../../ui/format';

export const COLUMN_LABEL: Record<MediaTableColumn, string> = {
  filename: 'Filename',
  menu: 'Actions',
  duration: 'Duration',
  size: 'Size',
  created: 'Created',
  status: 'Status',
  source: 'Source',
  frameCount: 'Frame count',
  width: 'Width',
  height: 'Height',
};

/** Columns whose header sorts the list, and by which key. */
const SORT_BY: Partial<Record<MediaTableColumn, MediaSortKey>> = { filename: 'title', duration: 'duration', created: 'added' };
const NUMERIC = new Set<MediaTableColumn>(['duration', 'size', 'frameCount', 'width', 'height']);

function Cell({ column, media }: { column: MediaTableColumn; media: Media }) {
  const v = media.metadata.video;
  switch (column) {
    case 'filename':
      return <FilenameCell media={media} />;
    case 'menu':
      return <MediaMenu media={media} />;
    case 'duration':
      return <>{v.duration > 0 ? formatDuration(v.duration) : '—'}</>;
    case 'size':
      return <>{formatMediaSize(media)}</>;
    case 'created':
      return <>{formatDate(media.createdAt)}</>;
    case 'status':
      return <MediaStatusView media={media} />;
    case 'source':
      return media.origin?.source === 'external' && isOpenableUrl(media.origin.url) ? (
        <a
          className="media-table__source"
          href={media.origin.url}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(e) => e.stopPropagation()}
        >
          {originLabel(media)} <IconExternal size={14} />
        </a>
      ) : (
        <>{originLabel(media)}</>
      );
    case 'frameCount':
      return <>{v.frameCount || '—'}</>;
    case 'width':
      return <>{v.width || '—'}</>;
    case 'height':
      return <>{v.height || '—'}</>;
  }
}

function FilenameCell({ media }: { media: Media }) {
  const { ui, store, actions } = useLibraryPage();
  const failed = isFailedStatus(media.status);
  const openable = actions.canRun('openMedia', media) === null;
  const open = () => actions.run('openMedia', media);
  return (
    <div className="media-row__file">
      <CheckboxControl
        checked={ui.selected.has(media._id)}
        onCheckedChange={() => toggleSelected(store, media._id)}
        label={`Select ${media.metadata.name}`}
      />
      <button
        type="button"
        className="media-row__thumb"
        onClick={open}
        disabled={!openable}
        aria-label={`Open ${media.metadata.name}`}
        tabIndex={openable ? 0 : -1}
      >
        <MediaThumb media={media} />
      </button>
      <div className="media-row__names">
        {/* The name opens the media as its picture does (the picture's button is the keyboard's way in). */}
        <span className={`media-row__name${openable ? ' media-row__name--link' : ''}`} title={media.metadata.name} onClick={open}>
          {media.metadata.name}
        </span>
        <span className="media-row__filename" title={failed ? MSG_MEDIA.erroredOverlay : media.metadata.filename}>
          {failed ? (media.error?.message ?? MSG_MEDIA.erroredOverlay) : media.metadata.filename}
        </span>
      </div>
    </div>
  );
}

/** List view: a table with fixed 86 px rows and no paging (section 9). */
export function MediaTable({
  files,
  columns,
  sort,
  onSort,
}: {
  files: Media[];
  columns: readonly MediaTableColumn[];
  sort: MediaSortValue;
  onSort: (sort: MediaSortValue) => void;
}) {
  const { ui, store, observe } = useLibraryPage();
  const current = parseSort(sort);
  const all = files.length > 0 && files.every((m) => ui.selected.has(m._id));
  const some = files.some((m) => ui.selected.has(m._id));
  const toggleAll = () => {
    for (const m of files) if (ui.selected.has(m._id) === all) toggleSelected(store, m._id);
  };
  return (
    <div className="media-table__wrap">
      <table className="media-table">
        <thead>
          <tr>
            {columns.map((c) => {
              const key = SORT_BY[c];
              const active = key === current.key;
              return (
                <th
                  key={c}
                  scope="col"
                  className={`media-table__th media-table__th--${c}${NUMERIC.has(c) ? ' media-table__th--num' : ''}`}
                  aria-sort={
                    active
                      ? (current.direction === 1) === (key === 'title' || key === 'duration')
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {c === 'filename' && (
                    <CheckboxControl
                      checked={all ? true : some ? 'indeterminate' : false}
                      onCheckedChange={toggleAll}
                      label="Select all media"
                    />
                  )}
                  {c === 'menu' ? (
                    <span className="visually-hidden">{COLUMN_LABEL[c]}</span>
                  ) : key ? (
                    <button
                      type="button"
                      className={`media-table__sort${active ? ' media-table__sort--active' : ''}`}
                      onClick={() => onSort(`${key}#${active ? (current.direction === 1 ? -1 : 1) : 1}` as MediaSortValue)}
                    >
                      {COLUMN_LABEL[c]}
                      {active && (
                        <span aria-hidden="true">
                          {(current.direction === 1) === (key === 'title' || key === 'duration') ? ' ↑' : ' ↓'}
                        </span>
                      )}
                    </button>
                  ) : (
                    COLUMN_LABEL[c]
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {files.map((m) => (
            <tr
              key={m._id}
              ref={observe}
              data-media-id={m._id}
              className={`media-row${ui.selected.has(m._id) ? ' media-row--selected' : ''}`}
              style={{ height: MEDIA_TABLE_ROW_HEIGHT }}
            >
              {columns.map((c) => (
                <td key={c} className={`media-table__td media-table__td--${c}${NUMERIC.has(c) ? ' media-table__td--num' : ''}`}>
                  <Cell column={c} media={m} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
