import { useCallback, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { MSG_SEARCH_UI, type Media, type Moment } from '../../contract';
import { isPhoto, PhotoView } from '../media/PhotoView';
import { effectiveRange, momentEdits, resetMomentRange, updateMomentRange } from '../state/momentEdits';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { IconDownload, IconSearch, IconSimilar } from '../ui/icons';
import { mediaNameOf } from '../media/mediaInfo';
import { DownloadMenu } from '../media/DownloadMenu';
import { MomentSidePanel } from './MomentLines';
import { MomentPlayer, type MomentMode, type MomentPlayerHandle } from '../media/MomentPlayer';
import { MomentTimeline, timelineMediaOf, type TimelineRange } from '../media/MomentTimeline';
import { TrimFields } from './TrimFields';
import { MomentCropControls, PlayerCropOverlay, type CropMoment } from '../media/PlayerCrop';
import { formatClock, formatMomentLength } from '../ui/format';
import './moment.css';

/**
 * The moment dialog (spec section 2): the player (Moment / Full video), the timeline with the
 * moment's boundaries, and the transcript and visual summary of its media, following playback.
 * The moment plays and shows with its effective (trimmed) range. Trimming happens here, in place: the
 * timeline's handles or the Start and End fields under it save the range at once (no second dialog).
 */
export function MomentDialog({
  moment,
  media,
  libraryLabel,
  onClose,
  onSimilar,
  onSearchInMedia,
  matchText,
}: {
  moment: Moment;
  media: Media | undefined;
  libraryLabel: string | null;
  onClose: () => void;
  onSimilar: (m: Moment) => void;
  /** Absent when the search is already within this media. */
  onSearchInMedia?: (m: Moment) => void;
  /** The search's words, marked where the side panel's lines say them. */
  matchText?: string;
}) {
  const { byMoment } = useSnapshot(momentEdits);
  const range = effectiveRange(moment, byMoment);
  const trimmed = Boolean(byMoment[moment.id]);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const player = useRef<MomentPlayerHandle>(null);
  // Moment or Full video: Home and End go to the ends of the one that plays.
  const [mode, setMode] = useState<MomentMode>('moment');

  const timelineMedia = useMemo(() => timelineMediaOf(media), [media]);
  const timelineRange = useMemo<TimelineRange>(() => ({ start: range.startTime, end: range.endTime }), [range.startTime, range.endTime]);
  // The timeline's boundary drags end here: the one place a range edit of this dialog is saved.
  const onRangeCommit = useCallback(
    (r: TimelineRange) => void updateMomentRange(moment, { startTime: r.start, endTime: r.end }, timelineMedia.duration),
    [moment, timelineMedia.duration],
  );
  const onSeek = useCallback((t: number) => player.current?.seek(t), []);
  // Issue 39: the shape chosen for publishing this moment, its crop window over the player.
  const cropMoment = useMemo<CropMoment>(
    () => ({ id: moment.id, libraryId: moment.libraryId, mediaId: moment.mediaId, startTime: range.startTime, endTime: range.endTime }),
    [moment.id, moment.libraryId, moment.mediaId, range.startTime, range.endTime],
  );

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={1160}
      // Its actions stay in view below the scrolling player, timeline and lines (dialog__footer--sticky).
      stickyFooter
      // On the player, where Space plays and pauses (on Close, the first control, it closed the dialog).
      initialFocus={() => player.current?.focusTarget()}
      title={mediaNameOf(media)}
      description={
        media && isPhoto(media) ? (
          <span className="moment-view__meta">
            <span className="time-chip">Photo</span>
            {media.metadata.video.width > 0 && (
              <span>
                {media.metadata.video.width} × {media.metadata.video.height}
              </span>
            )}
            {libraryLabel && <span>{libraryLabel}</span>}
          </span>
        ) : (
          <span className="moment-view__meta">
            <span className="time-chip" data-testid="moment-dialog-range">
              {formatClock(range.startTime)} – {formatClock(range.endTime)}
            </span>
            <span>{formatMomentLength(range.endTime - range.startTime)}</span>
            {trimmed && (
              <span className="pill pill--accent" data-testid="moment-trimmed">
                Trimmed
              </span>
            )}
            {libraryLabel && <span>{libraryLabel}</span>}
          </span>
        )
      }
      footer={
        <>
          {/* (A photo is one moment: there is nothing in it to search.) */}
          {onSearchInMedia && !(media && isPhoto(media)) && (
            <Button variant="ghost" onClick={() => onSearchInMedia(moment)}>
              <IconSearch size={16} /> Search in this video
            </Button>
          )}
          <Button variant="secondary" onClick={() => onSimilar(moment)}>
            <IconSimilar size={16} /> {MSG_SEARCH_UI.similarMoments}
          </Button>
          {trimmed && (
            <Button variant="ghost" onClick={() => resetMomentRange(moment)}>
              Reset trim
            </Button>
          )}
          <DownloadMenu
            moment={moment}
            range={range}
            media={media}
            trigger={(busy) => (
              <Button variant="secondary" busy={busy}>
                <IconDownload size={16} /> Download
              </Button>
            )}
          />
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <div className="moment-view">
        <div className="moment-view__main">
          {media && isPhoto(media) ? (
            // A photo has no time to play or trim: it is shown as itself.
            <PhotoView media={media} />
          ) : (
            <>
              <MomentPlayer
                ref={player}
                media={media}
                libraryId={moment.libraryId}
                mediaId={moment.mediaId}
                range={range}
                onVideo={setVideo}
                onModeChange={setMode}
                overlay={<PlayerCropOverlay moment={cropMoment} media={media} video={video} />}
              />
              <MomentTimeline
                media={timelineMedia}
                source={media}
                range={timelineRange}
                onRangeCommit={onRangeCommit}
                video={video}
                homeEnd={mode === 'moment' ? 'range' : 'media'}
              />
              {media && timelineMedia.duration > 0 && (
                <div className="moment-view__edits">
                  <TrimFields moment={moment} range={range} duration={timelineMedia.duration} />
                  <MomentCropControls moment={cropMoment} media={media} />
                </div>
              )}
            </>
          )}
        </div>
        <MomentSidePanel
          libraryId={moment.libraryId}
          mediaId={moment.mediaId}
          defaultTab={moment.text.trim() ? 'transcript' : 'visual'}
          video={video}
          highlight={range}
          matchText={matchText}
          onSeek={onSeek}
        />
      </div>
    </Dialog>
  );
}
