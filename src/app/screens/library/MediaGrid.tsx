import { useState, type CSSProperties } from 'react';
import { LIBRARY_MEDIA_GRID, MSG_MEDIA, type Media } from '../../../contract';
import { CheckboxControl } from '../../ui/Checkbox';
import { useLibraryPage } from './LibraryContext';
import { toggleSelected } from './libraryStore';
import { MediaMenu } from './MediaMenu';
import { isFailedStatus, formatMediaSize } from './mediaListing';
import { MediaStatusView } from './MediaStatus';
import { MediaThumb } from './MediaThumb';
import { formatDuration } from '../../ui/format';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The spec's grid (section 9: cells of at least 300 px, at most 3 a row, 16 px apart), for library.css. */
const GRID_STYLE = {
  '--grid-min-cell': `${LIBRARY_MEDIA_GRID.minCellWidth}px`,
  '--grid-columns': LIBRARY_MEDIA_GRID.maxColumns,
  '--grid-gap': `${LIBRARY_MEDIA_GRID.gap}px`,
} as CSSProperties;

/** Grid view: cards of at least 300 px, at most 3 a row, 16 px apart (section 9). */
export function MediaGrid({ files }: { files: Media[] }) {
  return (
    <ul className="media-grid" aria-label="Media" style={GRID_STYLE}>
      {files.map((m) => (
        <MediaCard key={m._id} media={m} />
      ))}
    </ul>
  );
}

function MediaCard({ media }: { media: Media }) {
  const { ui, store, actions, observe, autoplay } = useLibraryPage();
  const [hover, setHover] = useState(false);
  const selected = ui.selected.has(media._id);
  const selecting = ui.selected.size > 0;
  const openable = actions.canRun('openMedia', media) === null;
  const failed = isFailedStatus(media.status);
  const activate = () => {
    // While a selection is being made, a click adds to it instead of opening.
    if (selecting) toggleSelected(store, media._id);
    else actions.run('openMedia', media);
  };
  return (
    <li
      ref={observe}
      data-media-id={media._id}
      className={`media-card${selected ? ' media-card--selected' : ''}${selecting ? ' media-card--selecting' : ''}`}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
    >
      <div className="media-card__frame">
        <button
          type="button"
          className="media-card__open"
          onClick={activate}
          aria-label={selecting ? `Select ${media.metadata.name}` : `Open ${media.metadata.name}`}
          disabled={!selecting && !openable}
        >
          <MediaThumb media={media} playing={autoplay && hover} />
        </button>
        <CheckboxControl
          className="media-card__check"
          checked={selected}
          onCheckedChange={() => toggleSelected(store, media._id)}
          label={`Select ${media.metadata.name}`}
        />
        {media.metadata.video.duration > 0 && <span className="media-card__duration">{formatDuration(media.metadata.video.duration)}</span>}
        {failed && (
          <div className="media-card__errored" role="note">
            <p>{MSG_MEDIA.erroredOverlay}</p>
            {media.error?.message && <p className="media-card__errored-detail">{media.error.message}</p>}
          </div>
        )}
        {media.status !== 'completed' && !failed && (
          <div className="media-card__status">
            <MediaStatusView media={media} />
          </div>
        )}
      </div>
      <div className="media-card__body">
        <div className="media-card__text">
          {/* The name opens the media as its picture does (the picture's button is the keyboard's way in). */}
          <span
            className={`media-card__title${openable || selecting ? ' media-card__title--link' : ''}`}
            title={media.metadata.name}
            onClick={activate}
          >
            {media.metadata.name}
          </span>
          <div className="media-card__meta">
            <span>
              {formatDate(media.createdAt)} · {formatMediaSize(media)}
            </span>
            {failed && <MediaStatusView media={media} compact />}
          </div>
        </div>
        <MediaMenu media={media} />
      </div>
    </li>
  );
}
