import { memo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { confidenceOf, MSG_SEARCH, MSG_SEARCH_UI, type Media, type Moment } from '../../../contract';
import { isPhoto } from '../../media/PhotoView';
import { effectiveMoment, momentEdits } from '../../state/momentEdits';
import { usePreviewToken } from '../../hooks/usePreviewToken';
import { thumbnailUrl } from '../../state/previewTokens';
import { CheckboxControl } from '../../ui/Checkbox';
import { IconAlert, IconDownload, IconExternal, IconFilm, IconSimilar, IconTrim } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { Tooltip } from '../../ui/Tooltip';
import { DownloadMenu } from '../../media/DownloadMenu';
import type { MasonryCell } from './masonry';
import { showsVideo } from '../../media/previewRecovery';
import { useHoverIntent, useInView, useMomentPreview } from './useMomentPreview';
import { canPreview, externalUrlOf, mediaNameOf } from '../../media/mediaInfo';
import { formatClock, formatMomentLength } from '../../ui/format';

/** A moment in the results grid (spec section 2): preview, time range, media name, source link, select, similar. */
export const MomentCard = memo(function MomentCard({
  moment,
  media,
  cell,
  autoplay,
  selected,
  selecting,
  caption,
  onOpen,
  onToggle,
  onSimilar,
}: {
  moment: Moment;
  media: Media | undefined;
  cell: MasonryCell;
  autoplay: boolean;
  selected: boolean;
  selecting: boolean;
  /** The second line: the moment's words, or its library in a multi-library search. */
  caption: string | null;
  onOpen: (moment: Moment) => void;
  onToggle: (moment: Moment) => void;
  onSimilar: (moment: Moment) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  // The card shows and plays the moment's effective (trimmed) range.
  const { byMoment } = useSnapshot(momentEdits);
  const shown = effectiveMoment(moment, byMoment);
  const trimmed = shown !== moment;
  // A trimmed moment's picture comes from inside its range (a poster time is rounded to 0.1 s, so its
  // very start could show a frame cut off).
  const posterAt = trimmed ? (shown.startTime + shown.endTime) / 2 : shown.startTime;
  const inView = useInView(ref);
  const hover = useHoverIntent();
  const previewable = canPreview(moment, media);
  const reason = hover.hovered ? 'hover' : autoplay && inView ? 'autoplay' : null;
  const { model, retry } = useMomentPreview(shown, previewable, reason, videoRef);
  // The search page asks for the results' tokens; a card only reads its own.
  const token = usePreviewToken(moment.libraryId, false);
  const [posterFailed, setPosterFailed] = useState(false);

  const name = mediaNameOf(media);
  // How sure the search is, as the server said (or as its score says, from a server that did not)
  const confidence = moment.confidence ?? confidenceOf(moment.score);
  // A photo has no time range worth showing: it is a picture.
  const photo = isPhoto(media);
  const range = `${formatClock(shown.startTime)} – ${formatClock(shown.endTime)}`;
  const external = externalUrlOf(media);
  const status = model.status;
  const videoShown = showsVideo(status);

  const activate = () => {
    if (status === 'error') retry();
    else if (selecting) onToggle(moment);
    else onOpen(moment);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    activate();
  };

  return (
    <div
      ref={ref}
      className={`moment-card${selected ? ' moment-card--selected' : ''}${selecting ? ' moment-card--selecting' : ''}`}
      style={{ transform: `translate(${cell.x}px, ${cell.y}px)`, width: cell.width, height: cell.height }}
      data-moment-id={moment.id}
      data-media-id={moment.mediaId}
      data-preview={status}
      onMouseEnter={hover.onMouseEnter}
      onMouseLeave={hover.onMouseLeave}
    >
      <div
        className="moment-card__frame"
        style={{ height: cell.pictureHeight }}
        role="button"
        tabIndex={0}
        aria-label={
          status === 'error' ? `${MSG_SEARCH_UI.retryLoading} ${name}` : `${selecting ? 'Select' : 'Open'} moment ${range} of ${name}`
        }
        onClick={activate}
        onKeyDown={onKey}
      >
        {token && !posterFailed ? (
          <img
            className="moment-card__poster"
            src={thumbnailUrl(moment.libraryId, moment.mediaId, token, posterAt)}
            alt=""
            loading="lazy"
            decoding="async"
            onError={() => setPosterFailed(true)}
          />
        ) : (
          <span className="moment-card__placeholder" aria-hidden="true">
            <IconFilm size={28} />
          </span>
        )}
        {previewable && status !== 'idle' && status !== 'error' && (
          <video
            ref={videoRef}
            className={`moment-card__video${videoShown ? ' moment-card__video--shown' : ''}`}
            muted
            playsInline
            preload="none"
            aria-hidden="true"
          />
        )}
        {(status === 'loading' || status === 'buffering') && reason === 'hover' && (
          <span className="moment-card__busy">
            <Spinner size={18} />
          </span>
        )}
        {status === 'error' && (
          <Tooltip content={MSG_SEARCH_UI.retryLoading} side="top">
            <span className="moment-card__error">
              <IconAlert size={16} />
            </span>
          </Tooltip>
        )}
        <span className="moment-card__chips">
          {photo ? (
            <span className="time-chip">Photo</span>
          ) : (
            <>
              <span className="time-chip">{range}</span>
              <span className="time-chip time-chip--muted">{formatMomentLength(shown.endTime - shown.startTime)}</span>
            </>
          )}
          <span
            className={`time-chip confidence-chip confidence-chip--${confidence}`}
            data-confidence={confidence}
            title={`Score ${moment.score.toFixed(2)} of 1`}
          >
            {MSG_SEARCH.confidence[confidence]}
          </span>
          {trimmed && (
            <span className="time-chip time-chip--trimmed" data-testid="moment-card-trimmed">
              <IconTrim size={12} /> Trimmed
            </span>
          )}
        </span>
      </div>
      <CheckboxControl
        className="moment-card__check"
        checked={selected}
        onCheckedChange={() => onToggle(moment)}
        label={`Select moment ${range} of ${name}`}
      />
      <div className="moment-card__actions">
        <Tooltip content={MSG_SEARCH_UI.similarMoments} side="top">
          <button type="button" className="moment-card__action" aria-label={MSG_SEARCH_UI.similarMoments} onClick={() => onSimilar(moment)}>
            <IconSimilar size={16} />
          </button>
        </Tooltip>
        <DownloadMenu
          moment={moment}
          range={shown}
          media={media}
          trigger={(busy) => (
            <button
              type="button"
              className="moment-card__action"
              aria-label={`Download moment ${range} of ${name}`}
              title="Download"
              aria-busy={busy}
            >
              {busy ? <Spinner size={14} /> : <IconDownload size={16} />}
            </button>
          )}
        />
      </div>
      <div className="moment-card__body">
        <div className="moment-card__name-row">
          {/* The name opens the moment as its picture does (the picture's button is the keyboard's way in). */}
          <span className="moment-card__name" title={name} onClick={activate}>
            {name}
          </span>
          {external && (
            <a
              className="moment-card__source"
              href={external}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Open the source of ${name}`}
              title="Open the source"
            >
              <IconExternal size={14} />
            </a>
          )}
        </div>
        {caption && (
          <span className="moment-card__caption" title={caption}>
            {caption}
          </span>
        )}
      </div>
    </div>
  );
});

/** A placeholder cell while a search runs. */
export function MomentSkeleton({ cell }: { cell: MasonryCell }) {
  return (
    <div
      className="moment-card moment-card--skeleton"
      style={{ transform: `translate(${cell.x}px, ${cell.y}px)`, width: cell.width, height: cell.height }}
      aria-hidden="true"
    >
      <div className="moment-card__frame skeleton" style={{ height: cell.pictureHeight }} />
      <div className="moment-card__body">
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  );
}
