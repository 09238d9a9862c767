import { Suspense, useEffect, useState } from 'react';
import { API, type Media } from '../../contract';
import type { ThumbnailSource } from '../../engine/thumbnailSource';
import type { MomentRange, TimelineMedia } from '../../engine/TimelineEngine';
import { createThumbnailSource } from '../../workers/thumbnails/thumbnailSource';
import { API_BASE } from '../config';
import { lazyComponent } from '../routing/lazyChunk';
import type { HomeEndTarget } from '../timeline/KeyboardHelp';
import { ChunkErrorBoundary } from '../shell/ChunkLoadFailed';
import { usePreviewToken } from '../hooks/usePreviewToken';
import { thumbnailUrl } from '../state/previewTokens';
// The placeholder below is drawn with the timeline's own classes.
import { formatMomentLength, formatPreciseTimecode } from '../ui/format';
import '../timeline/timeline.css';

// PixiJS and the engine (~160 kB gzip) load when a timeline first opens, not with the screens around it.
const TimelineView = lazyComponent(() => import('../timeline/TimelineView').then((m) => m.TimelineView));

/** The timeline's frame (canvas box and toolbar row) while its code loads, so nothing moves when it arrives. */
function TimelinePlaceholder() {
  return (
    <div className="timeline timeline--loading" aria-busy="true" aria-label="Timeline loading">
      <div className="timeline__canvas" />
      <div className="timeline__toolbar" />
    </div>
  );
}

export type { TimelineMedia };
/** A range on the timeline, in seconds of the media. */
export type TimelineRange = MomentRange;

export const timelineMediaOf = (media: Media | undefined): TimelineMedia => {
  const v = media?.metadata.video;
  return { duration: v?.duration ?? 0, frameRate: v?.frameRate ?? 0, width: v?.width ?? 0, height: v?.height ?? 0 };
};

/**
 * Thumbnails for the timeline: decoded in the browser by byte ranges where it can be (WebCodecs
 * worker), keyframe tiles from the server's small thumbnail track when the media has one and
 * frame-exact ones from its MP4, the server's pictures otherwise. One source per media and preview
 * token, destroyed with the timeline.
 */
function useThumbnailSource(source: Media | undefined, media: TimelineMedia): ThumbnailSource | null {
  const libraryId = source?.libraryId ?? '';
  const mediaId = source?._id ?? '';
  const hasSource = source?.capabilities.source ?? false;
  const hasTrack = source?.capabilities.thumbnailTrack ?? false;
  const token = usePreviewToken(libraryId);
  const [thumbnails, setThumbnails] = useState<ThumbnailSource | null>(null);
  useEffect(() => {
    if (!token || !mediaId || media.duration <= 0) return;
    const created = createThumbnailSource({
      sourceUrl: hasSource ? `${API_BASE}${API.mediaSource(libraryId, mediaId)}?token=${encodeURIComponent(token)}` : null,
      trackUrl: hasTrack ? `${API_BASE}${API.mediaThumbnailTrack(libraryId, mediaId)}?token=${encodeURIComponent(token)}` : null,
      serverThumbnailUrl: (t) => thumbnailUrl(libraryId, mediaId, token, t),
      duration: media.duration,
      frameRate: media.frameRate,
    });
    void created.prepare(); // open the media while the timeline mounts; get() waits for the same open
    setThumbnails(created);
    return () => {
      created.destroy();
      setThumbnails(null);
    };
  }, [token, libraryId, mediaId, hasSource, hasTrack, media.duration, media.frameRate]);
  return thumbnails;
}

/**
 * The timeline area under a player: the PixiJS timeline (ruler, thumbnails, the moment's handles,
 * playhead, zoom) following the player's `<video>`, and the range as text below it.
 */
export function MomentTimeline(props: {
  media: TimelineMedia;
  /** The media the pictures come from. */
  source: Media | undefined;
  range: TimelineRange | null;
  onRangeCommit: (range: TimelineRange) => void;
  video: HTMLVideoElement | null;
  /** What Home and End go to the ends of: the video, or the moment (Moment mode). */
  homeEnd?: HomeEndTarget;
}) {
  const { media, source, range, onRangeCommit, video, homeEnd } = props;
  const thumbnails = useThumbnailSource(source, media);
  const [thumbnailError, setThumbnailError] = useState<string | null>(null);
  return (
    <div className="moment-timeline-area">
      <div className="moment-timeline" data-testid="timeline-slot">
        {media.duration > 0 && (
          <ChunkErrorBoundary what="The timeline">
            <Suspense fallback={<TimelinePlaceholder />}>
              <TimelineView
                media={media}
                range={range}
                onRangeCommit={onRangeCommit}
                thumbnails={thumbnails}
                video={video}
                onThumbnailError={setThumbnailError}
                homeEnd={homeEnd}
              />
            </Suspense>
          </ChunkErrorBoundary>
        )}
      </div>
      {thumbnailError && (
        <p className="moment-timeline__note" role="status">
          {thumbnailError}
        </p>
      )}
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
