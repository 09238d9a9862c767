/**
 * Moment range handles, in frames. A range keeps at least 36 px of timeline at the current zoom
 * and at least 0.1 s (spec section 5), stays inside the media, and its handles never cross.
 */
import { HANDLE_MIN_PX, HANDLE_MIN_SECONDS } from '../../contract';
import { lastFrame } from './frames';

export interface FrameRange {
  start: number;
  end: number;
}

/** The shortest range allowed at this scale, in whole frames (rounded up). */
export function minRangeFrames(pxPerSecond: number, fps: number): number {
  const seconds = Math.max(HANDLE_MIN_PX / pxPerSecond, HANDLE_MIN_SECONDS);
  return Math.max(1, Math.ceil(seconds * fps - 1e-6));
}

/**
 * The shortest range the I and O keys make, in whole frames: 0.1 s and no more. A mark is a time the
 * user chose to the frame; the 36 px minimum above belongs to the handles (two bars a pointer can tell
 * apart at this zoom). Applied to marks it moved the other end without a word: I at 4.0 s and O at
 * 6.0 s of a 60 s media at 100 % zoom (36 px being 2.27 s there) gave 3.73-6.00.
 */
export function markMinFrames(fps: number): number {
  return minRangeFrames(Number.POSITIVE_INFINITY, fps);
}

/** The start handle dragged to `frame`: never past end - min, never before 0. */
export function dragStart(range: FrameRange, frame: number, minFrames: number): FrameRange {
  const start = Math.max(0, Math.min(Math.round(frame), range.end - minFrames));
  return { start, end: range.end };
}

/** The end handle dragged to `frame`: never before start + min, never past the media's end. */
export function dragEnd(range: FrameRange, frame: number, minFrames: number, duration: number, fps: number): FrameRange {
  const end = Math.min(lastFrame(duration, fps), Math.max(Math.round(frame), range.start + minFrames));
  return { start: range.start, end };
}

/**
 * The whole range dragged by its body: moved by `deltaSeconds` rounded to whole frames, so its
 * length in frames never changes, and stopped at 0 and at the media's end.
 */
export function moveRange(range: FrameRange, deltaSeconds: number, duration: number, fps: number): FrameRange {
  const length = range.end - range.start;
  const delta = Number.isFinite(deltaSeconds) ? Math.round(deltaSeconds * fps) : 0;
  const start = Math.max(0, Math.min(lastFrame(duration, fps) - length, range.start + delta));
  return { start, end: start + length };
}

/**
 * A range made valid: inside the media, start before end, at least `minFrames` long where the
 * media allows it (grown at the end first, then at the start).
 */
export function normalizeRange(range: FrameRange, minFrames: number, duration: number, fps: number): FrameRange {
  const last = lastFrame(duration, fps);
  let start = Math.min(last, Math.max(0, Math.round(Math.min(range.start, range.end))));
  let end = Math.min(last, Math.max(0, Math.round(Math.max(range.start, range.end))));
  if (end - start < minFrames) {
    end = Math.min(last, start + minFrames);
    start = Math.max(0, end - minFrames);
  }
  return { start, end };
}

/** I: the in point at `frame`; the out point moves only when the range would become too short. */
export function markIn(range: FrameRange | null, frame: number, minFrames: number, duration: number, fps: number): FrameRange {
  const last = lastFrame(duration, fps);
  const start = Math.min(last, Math.max(0, frame));
  const end = range && range.end - start >= minFrames ? range.end : range ? Math.min(last, start + minFrames) : last;
  return normalizeRange({ start, end }, minFrames, duration, fps);
}

/** O: the out point at `frame`; the in point moves only when the range would become too short. */
export function markOut(range: FrameRange | null, frame: number, minFrames: number, duration: number, fps: number): FrameRange {
  const last = lastFrame(duration, fps);
  const end = Math.min(last, Math.max(0, frame));
  let start = range && end - range.start >= minFrames ? range.start : range ? Math.max(0, end - minFrames) : 0;
  if (end - start < minFrames) start = Math.max(0, end - minFrames);
  // At the very start of the media the range can only grow forwards.
  return end - start < minFrames ? normalizeRange({ start, end: start + minFrames }, minFrames, duration, fps) : { start, end };
}

/** How far a handle reaches: its bar's width outside the range, and the grab slop on both sides (px). */
export interface HandleReach {
  width: number;
  slop: number;
}

/**
 * The handle under `x` (px), for a range drawn from `xs` to `xe`: the bars sit just outside the
 * range and grabbing may start a few px inside it. When both reach `x` (a very narrow range, or
 * adjacent clips), `first` wins.
 */
export function handleAtX(x: number, xs: number, xe: number, reach: HandleReach, first: 'start' | 'end' = 'start'): 'start' | 'end' | null {
  const onStart = x >= xs - reach.width - reach.slop && x <= xs + reach.slop;
  const onEnd = x >= xe - reach.slop && x <= xe + reach.width + reach.slop;
  if (onStart && onEnd) return first;
  return onStart ? 'start' : onEnd ? 'end' : null;
}
