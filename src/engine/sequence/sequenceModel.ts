/**
 * The clip editor's model (spec sections 3 and 4) as pure functions: a sequence of clips cut from
 * media, one current time across all of them, and the edits (reorder, duplicate, remove, trim,
 * I/O) that each return a new state. Frame snapping and the 36 px / 0.1 s handle limits come from
 * the timeline kernels; nothing here knows of Pixi or the DOM.
 */
import { CLIP_PRELOAD_SECONDS, type Clip, type ClipFraming } from '../../contract';
import { effectiveFrameRate, frameTime, markIn, markOut, nearestFrame, normalizeRange, type FrameRange } from '../kernels';

/** A clip of the sequence: the spec's Clip plus what the editor needs of its media. */
export interface SequenceClip extends Clip {
  /** The media's length and frame rate (0 or unknown: 30), for handle limits and snapping. */
  mediaDuration: number;
  frameRate: number;
  /** A short name shown on the block and read by screen readers. */
  label: string;
  /**
   * Issue 39: where the user fixed the clip's crop window for a cropped shape (its centre, as
   * fractions of the picture); without it the window follows the subject. Part of the clip, so an
   * undo takes it back and a duplicate keeps it.
   */
  framing?: ClipFraming;
}

/** What an edit changes: the clips and where the playhead is. */
export interface SequenceState {
  clips: readonly SequenceClip[];
  /** Seconds into the whole sequence. */
  currentTime: number;
}

/** Where a sequence time falls. */
export interface ClipPosition {
  index: number;
  /** Seconds from the clip's own start. */
  offset: number;
  /** The same instant in the clip's media. */
  mediaTime: number;
}

const EPS = 1e-9;

/** Seconds of a whole sequence. */
export const sequenceDuration = (clips: readonly Pick<Clip, 'duration'>[]) => clips.reduce((s, c) => s + c.duration, 0);

/** Where each clip starts on the sequence, and (last entry) where the sequence ends. */
export function clipStarts(clips: readonly Pick<Clip, 'duration'>[]): number[] {
  const starts = [0];
  for (const c of clips) starts.push(starts[starts.length - 1]! + c.duration);
  return starts;
}

/** The clip playing at sequence time `t` (the last clip at or past the end), or null without clips. */
export function locate(clips: readonly SequenceClip[], t: number): ClipPosition | null {
  if (!clips.length) return null;
  const starts = clipStarts(clips);
  let index = clips.length - 1;
  for (let i = 0; i < clips.length; i++)
    if (t < starts[i + 1]! - EPS) {
      index = i;
      break;
    }
  const clip = clips[index]!;
  const offset = Math.min(clip.duration, Math.max(0, t - starts[index]!));
  return { index, offset, mediaTime: clip.beginEndTimestamp.startTime + offset };
}

/** The sequence time of `offset` seconds into clip `index`. */
export const timeInClip = (clips: readonly SequenceClip[], index: number, offset: number) =>
  (clipStarts(clips)[index] ?? 0) + Math.max(0, Math.min(clips[index]?.duration ?? 0, offset));

/** When the next clip's media must start loading: 2 s before clip `index` ends (spec section 4), never before it starts. */
export function preloadTime(clips: readonly SequenceClip[], index: number): number {
  const starts = clipStarts(clips);
  return Math.max(starts[index] ?? 0, (starts[index + 1] ?? 0) - CLIP_PRELOAD_SECONDS);
}

/** A clip with a new media range: duration and the trimmed record follow (original kept from the first trim). */
export function withRange(clip: SequenceClip, startTime: number, endTime: number): SequenceClip {
  const original = clip.modifications.trimmed?.originalTimestamps ?? clip.beginEndTimestamp;
  const newTimestamps = { startTime, endTime };
  const same = original.startTime === startTime && original.endTime === endTime;
  return {
    ...clip,
    beginEndTimestamp: newTimestamps,
    duration: endTime - startTime,
    modifications: same ? {} : { trimmed: { originalTimestamps: { ...original }, newTimestamps } },
  };
}

// The playhead follows what it shows: the same clip (by position in the new list) at the same offset.
function follow(clips: readonly SequenceClip[], index: number, offset: number): number {
  if (!clips.length || index < 0) return 0;
  return timeInClip(clips, Math.min(index, clips.length - 1), offset);
}

/** Moves clip `from` to position `to`; the playhead stays on the frame it shows. */
export function reorder(s: SequenceState, from: number, to: number): SequenceState {
  const n = s.clips.length;
  if (from < 0 || from >= n) return s;
  const target = Math.max(0, Math.min(n - 1, to));
  if (target === from) return s;
  const clips = [...s.clips];
  const [moved] = clips.splice(from, 1);
  clips.splice(target, 0, moved!);
  const at = locate(s.clips, s.currentTime)!;
  const newIndex = clips.indexOf(s.clips[at.index]!);
  return { clips, currentTime: follow(clips, newIndex, at.offset) };
}

/** Inserts a copy of clip `index` (new id from `newId`) right after it; the playhead stays where it is in time. */
export function duplicate(s: SequenceState, index: number, newId: string): SequenceState {
  const clip = s.clips[index];
  if (!clip) return s;
  const clips = [...s.clips];
  clips.splice(index + 1, 0, { ...clip, id: newId, modifications: structuredClone(clip.modifications) });
  const at = locate(s.clips, s.currentTime)!;
  const shown = at.index > index ? at.index + 1 : at.index;
  return { clips, currentTime: follow(clips, shown, at.offset) };
}

/**
 * Removes clip `index` (spec section 4). When the playhead was on it, it goes to the start of the
 * next clip, or of the previous one when it was the last; otherwise it stays on its frame.
 */
export function remove(s: SequenceState, index: number): SequenceState {
  if (index < 0 || index >= s.clips.length) return s;
  const clips = s.clips.filter((_, i) => i !== index);
  if (!clips.length) return { clips, currentTime: 0 };
  const at = locate(s.clips, s.currentTime)!;
  if (at.index === index) return { clips, currentTime: timeInClip(clips, Math.min(index, clips.length - 1), 0) };
  return { clips, currentTime: follow(clips, at.index > index ? at.index - 1 : at.index, at.offset) };
}

/** Frames of a clip's range in its media's rate. */
export function clipFrames(clip: SequenceClip): FrameRange {
  const fps = effectiveFrameRate(clip.frameRate);
  return {
    start: nearestFrame(clip.beginEndTimestamp.startTime, fps, clip.mediaDuration),
    end: nearestFrame(clip.beginEndTimestamp.endTime, fps, clip.mediaDuration),
  };
}

/**
 * Trims clip `index` to `range` (frames of its media), made valid by the handle kernel (inside the
 * media, at least `minFrames`). The total duration follows, and the playhead is rescaled onto the new
 * sequence: on the trimmed clip it keeps its media frame when that is still inside, else the nearest
 * kept frame; on any other clip it keeps its frame (clips after the trim move with it).
 */
/**
 * Sets clip `index` to `range` (as trim) and its crop window to `framing` (none: it follows the
 * subject) in one edit, as the clip editor's dialog confirms both at once.
 */
export function editClip(
  s: SequenceState,
  index: number,
  range: FrameRange,
  minFrames: number,
  framing: ClipFraming | undefined,
): SequenceState {
  const trimmed = trim(s, index, range, minFrames);
  const clip = trimmed.clips[index];
  if (!clip || sameFraming(clip.framing, framing)) return trimmed;
  const { framing: _, ...rest } = clip;
  const framed: SequenceClip = framing ? { ...rest, framing: { ...framing } } : rest;
  return { ...trimmed, clips: trimmed.clips.map((c, i) => (i === index ? framed : c)) };
}

const sameFraming = (a: ClipFraming | undefined, b: ClipFraming | undefined) => a === b || (!!a && !!b && a.x === b.x && a.y === b.y);

export function trim(s: SequenceState, index: number, range: FrameRange, minFrames: number): SequenceState {
  const clip = s.clips[index];
  if (!clip) return s;
  const fps = effectiveFrameRate(clip.frameRate);
  const r = normalizeRange(range, minFrames, clip.mediaDuration, fps);
  const startTime = frameTime(r.start, fps);
  const endTime = frameTime(r.end, fps);
  if (startTime === clip.beginEndTimestamp.startTime && endTime === clip.beginEndTimestamp.endTime) return s;
  const trimmed = withRange(clip, startTime, endTime);
  const clips = s.clips.map((c, i) => (i === index ? trimmed : c));
  const at = locate(s.clips, s.currentTime)!;
  if (at.index !== index) return { clips, currentTime: follow(clips, at.index, at.offset) };
  const lastFrameOffset = Math.max(0, trimmed.duration - 1 / fps);
  const offset = Math.min(lastFrameOffset, Math.max(0, at.mediaTime - startTime));
  return { clips, currentTime: timeInClip(clips, index, offset) };
}

/** I or O on the current clip: the in (or out) point at the playhead's media frame. */
export function markOnCurrent(s: SequenceState, which: 'in' | 'out', minFrames: number): SequenceState {
  const at = locate(s.clips, s.currentTime);
  if (!at) return s;
  const clip = s.clips[at.index]!;
  const fps = effectiveFrameRate(clip.frameRate);
  const frame = nearestFrame(at.mediaTime, fps, clip.mediaDuration);
  const range = (which === 'in' ? markIn : markOut)(clipFrames(clip), frame, minFrames, clip.mediaDuration, fps);
  return trim(s, at.index, range, minFrames);
}

/** A sequence time moved to the nearest frame boundary of the clip it falls in, inside the sequence. */
export function snapSequenceTime(clips: readonly SequenceClip[], t: number): number {
  const total = sequenceDuration(clips);
  const clamped = Math.max(0, Math.min(total, t));
  const at = locate(clips, clamped);
  if (!at) return 0;
  const clip = clips[at.index]!;
  const fps = effectiveFrameRate(clip.frameRate);
  return timeInClip(clips, at.index, Math.round(at.offset * fps) / fps);
}

/** One frame of the clip under the playhead, in seconds. */
export function frameDurationAt(clips: readonly SequenceClip[], t: number): number {
  const at = locate(clips, t);
  return 1 / effectiveFrameRate(at ? clips[at.index]!.frameRate : 0);
}
