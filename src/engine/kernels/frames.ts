/** Frame maths: every position the engine keeps is a whole frame of the media's frame rate. */

/** Frame rate used when the media's is missing or unknown. */
export const DEFAULT_FRAME_RATE = 30;

// Float slack so that e.g. 0.1 * 30 = 3.0000000000000004 still counts as frame 3.
const EPS = 1e-6;

/** The media's frame rate, or 30 when it is 0, negative or not a number. */
export function effectiveFrameRate(frameRate: number): number {
  return Number.isFinite(frameRate) && frameRate > 0 ? frameRate : DEFAULT_FRAME_RATE;
}

/** The last frame boundary inside the media: positions run from frame 0 to this one. */
export function lastFrame(duration: number, fps: number): number {
  if (!(duration > 0)) return 0;
  return Math.floor(duration * fps + EPS);
}

/** The frame shown at `seconds` (the boundary at or before it), clamped to the media. */
export function frameAt(seconds: number, fps: number, duration: number): number {
  if (!Number.isFinite(seconds)) return 0;
  return Math.min(lastFrame(duration, fps), Math.max(0, Math.floor(seconds * fps + EPS)));
}

/** The frame boundary nearest to `seconds`, clamped to the media (seek and handle snapping). */
export function nearestFrame(seconds: number, fps: number, duration: number): number {
  if (!Number.isFinite(seconds)) return 0;
  return Math.min(lastFrame(duration, fps), Math.max(0, Math.round(seconds * fps)));
}

/** Seconds at a frame boundary. */
export function frameTime(frame: number, fps: number): number {
  return frame / fps;
}

/** `seconds` moved to its nearest frame boundary inside the media. */
export function snapTime(seconds: number, fps: number, duration: number): number {
  return frameTime(nearestFrame(seconds, fps, duration), fps);
}

/** A range in seconds (the moment range the app reads). */
export interface SecondsRange {
  start: number;
  end: number;
}

/** A range in seconds snapped to the nearest frame boundaries inside the media, as frame indexes. */
export function rangeFrames(range: SecondsRange, fps: number, duration: number): { start: number; end: number } {
  return { start: nearestFrame(range.start, fps, duration), end: nearestFrame(range.end, fps, duration) };
}

/** A range in frames as seconds at its frame boundaries. */
export function rangeSeconds(range: { start: number; end: number }, fps: number): SecondsRange {
  return { start: frameTime(range.start, fps), end: frameTime(range.end, fps) };
}

/** Two ranges (or their absence) are the same. */
export function sameRange(a: SecondsRange | null, b: SecondsRange | null): boolean {
  return a === b || (!!a && !!b && a.start === b.start && a.end === b.end);
}

/**
 * Where Home and End go (seconds): with a `range` (the moment dialog's Moment mode), its first frame
 * and its last one (the frame before its end boundary, which is where its loop starts again);
 * without, the media's start and end.
 */
export function homeEndTime(to: 'start' | 'end', range: SecondsRange | null, fps: number, duration: number): number {
  if (!range) return to === 'start' ? 0 : duration;
  const r = rangeFrames(range, fps, duration);
  return frameTime(to === 'start' ? r.start : Math.max(r.start, r.end - 1), fps);
}
