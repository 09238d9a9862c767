/**
 * What the timeline asks of whoever supplies its thumbnail pictures (the WebCodecs worker client in
 * src/workers/thumbnails, or the server-thumbnail fallback). The engine depends on this interface
 * only; it never imports a worker.
 */
export interface ThumbnailRequest {
  /** Media time in seconds of the frame wanted (the tile's left edge). */
  time: number;
  /**
   * 'keyframe': the nearest sync frame is good enough (coarse zoom; cheap, no GOP decode).
   * 'exact': the frame shown at `time` (fine zoom, frame-accurate).
   */
  precision: 'keyframe' | 'exact';
  /** Tile size in CSS pixels; the source may return a bitmap up to 2x this for HiDPI. */
  width: number;
  height: number;
  /** Aborted when the tile scrolls out of view or the engine is destroyed; the source drops the work. */
  signal: AbortSignal;
}

export interface ThumbnailSource {
  /**
   * Resolves with the picture. The bitmap belongs to the source (its image cache closes it on
   * eviction): the caller uploads it to the GPU at once and never keeps it. Rejects with an
   * AbortError when aborted, or a ThumbnailError when the picture cannot be made.
   */
  get(request: ThumbnailRequest): Promise<ImageBitmap>;
  /** Frees everything (worker, cached bitmaps, timers). */
  destroy(): void;
}

/** A thumbnail that could not be produced; `message` is the spec's text where one applies. */
export class ThumbnailError extends Error {
  readonly code = 'thumbnail_failed';
  constructor(message = 'Failed to generate thumbnail') {
    super(message);
    this.name = 'ThumbnailError';
  }
}
