import type { Media } from '../../../contract';
import { formatMomentLength, formatPreciseTimecode } from '../search/momentFormat';

/** What the timeline needs to know of a media. */
export interface TimelineMedia {
  duration: number;
  frameRate: number;
  width: number;
  height: number;
}

/** A range on the timeline, in seconds of the media. */
export interface TimelineRange {
  start: number;
  end: number;
}

export const timelineMediaOf = (media: Media | undefined): TimelineMedia => {
  const v = media?.metadata.video;
  return { duration: v?.duration ?? 0, frameRate: v?.frameRate ?? 0, width: v?.width ?? 0, height: v?.height ?? 0 };
};

/**
 * The timeline area under a player: the slot the PixiJS `TimelineView` (src/app/timeline) mounts in
 * with exactly these props (`<TimelineView media range onRangeCommit video thumbnails />`), and
 * the range as text below it. Until the view is mounted, `video` and `onRangeCommit` wait here
 * unused: every screen already hands them over, so mounting it is a change of this file alone.
 */
export function MomentTimeline(props: {
  media: TimelineMedia;
  range: TimelineRange | null;
  onRangeCommit: (range: TimelineRange) => void;
  video: HTMLVideoElement | null;
}) {
  const { range } = props;
  return (
    <div className="moment-timeline-area">
      <div className="moment-timeline" data-testid="timeline-slot" />
      {range && (
        <p className="moment-timeline__range" data-testid="moment-range">
          <span>
            {formatPreciseTimecode(range.start)} – {formatPreciseTimecode(range.end)}
          </span>
          <span className="moment-timeline__length">{formatMomentLength(range.end - range.start)}</span>
        </p>
      )}
    </div>
  );
}
