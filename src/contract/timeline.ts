/**
 * The moment viewer's constants and strings (libraries-media-search spec sections 3, 4, 5, 8, 9),
 * shared by src/engine, src/workers and src/app.
 */
import { MSG_SEARCH_UI } from './library';

/** Timeline (section 9). Zoom is a percentage: 100 shows the whole media across the timeline. */
export const TIMELINE = {
  minZoom: 100,
  maxZoom: 10_000,
  thumbnailFrameWidth: 140,
  rulerHeight: 30,
  thumbnailRowHeight: 90,
  /** Thumbnail queue: at most 3 decodes in flight, 50 ms between starts. */
  thumbnailConcurrency: 3,
  thumbnailGapMs: 50,
} as const;

/** Moment edit handles keep at least 36 px of timeline and at least 0.1 s (section 5). */
export const HANDLE_MIN_PX = 36;
export const HANDLE_MIN_SECONDS = 0.1;

/** Keyboard (section 5): arrows seek 5 s, snapping to 0 when the position is under 5 s. */
export const ARROW_SEEK_SECONDS = 5;

/** Volume 0..100, default 100, heard through a quadratic curve (section 9). */
export const VOLUME = { min: 0, max: 100, default: 100 } as const;
/** The element volume (0..1) for a slider value (0..100). */
export const volumeToGain = (v: number) => Math.pow(Math.min(VOLUME.max, Math.max(VOLUME.min, v)) / VOLUME.max, 2);

/** Transcript panel (section 9). */
export const TRANSCRIPT_FOLLOW = { activeToleranceSeconds: 0.1, manualScrollPauseMs: 5_000 } as const;

/** Image cache for thumbnails (section 9). */
export const IMAGE_CACHE = { maxBytes: 100 * 1024 * 1024, ttlMs: 10 * 60_000, cleanupEveryMs: 60_000, evictToRatio: 0.8 } as const;

/** Clip transitions preload from 2 s before the end of a clip (section 4). */
export const CLIP_PRELOAD_SECONDS = 2;

/**
 * Where a player's timeline and the media's differ. hls.js puts a stream's first decode timestamp at
 * 0 on the element, so with B-frames every picture shows up a frame or two late (0.08 s for x264's
 * defaults): media time = element time - offset. The player writes the offset it measured to
 * `video.dataset[VIDEO_TIME_OFFSET.datasetKey]` and announces changes with the event; the timeline
 * engine reads both, so frame stepping lands on the frame it names.
 */
export const VIDEO_TIME_OFFSET = { datasetKey: 'mediaTimeOffset', event: 'mediatimeoffset' } as const;

/** Moment viewer strings (sections 2, 5, 8), verbatim. */
export const MSG_MOMENT = {
  failedToUpdate: 'Failed to update moment',
  notFound: 'Moment not found',
  noRangeSelected: 'No moment range selected',
  thumbnailFailed: 'Failed to generate thumbnail',
  thumbnailsSafari: 'Thumbnails not supported in Safari',
  retryLoading: MSG_SEARCH_UI.retryLoading,
  loading: MSG_SEARCH_UI.loading,
  noTranscript: MSG_SEARCH_UI.noTranscript,
  noDescription: MSG_SEARCH_UI.noDescription,
  moment: 'Moment',
  fullVideo: 'Full video',
} as const;
