/**
 * Merging moments into one compilation (libraries-media-search spec sections 2, 3, 4, 5 and 9):
 * the clip editor's model, the merge rules and their messages, shared by src/engine, src/workers
 * and src/app. Time-line constants (handle limits, CLIP_PRELOAD_SECONDS, VOLUME) are in timeline.ts.
 */
import { MSG_RENDER } from './rendering';

/** Merge is enabled only with 2 or more selected moments, each longer than 0.001 s (section 5). */
export const MERGE_MIN_MOMENTS = 2;
export const MERGE_MIN_CLIP_SECONDS = 0.001;
/** Merging (the clip editor model) needs at least one clip (section 4). */
export const MERGE_MIN_CLIPS = 1;
/** Moment list item width in the merge dialog, px (section 9). */
export const MOMENT_LIST_ITEM_WIDTH = 176;
/** Merge output is MP4 only (sections 5 and 9). */
export const MERGE_FORMATS = ['mp4'] as const;
export type MergeFormat = (typeof MERGE_FORMATS)[number];

/** A media of a library (section 3: extendedMediaId). */
export interface ExtendedMediaId {
  libraryId: string;
  mediaId: string;
}

export interface BeginEndTimestamp {
  startTime: number;
  endTime: number;
}

/** Clip (editor and merge), section 3. */
export interface Clip {
  id: string;
  extendedMediaId: ExtendedMediaId;
  beginEndTimestamp: BeginEndTimestamp;
  /** Seconds: endTime - startTime. */
  duration: number;
  modifications: { trimmed?: { originalTimestamps: BeginEndTimestamp; newTimestamps: BeginEndTimestamp } };
}

/** Timeline (clip editor model), section 3. `thumbnails` maps a clip id to its picture's URL. */
export interface ClipTimeline {
  clips: Clip[];
  thumbnails: Record<string, string>;
  /** Seconds into the whole sequence. */
  currentTime: number;
  /** Seconds: the sum of the clips' durations. */
  duration: number;
  playing: boolean;
  fullscreen: boolean;
  muted: boolean;
  /** 0..100, default 100. */
  volume: number;
  previousVolume: number;
}

/** The merge strings (sections 5 and 8), verbatim where the spec names them. */
export const MSG_MERGE = {
  merge: 'Merge',
  dialogTitle: 'Merge moments',
  mergeImages: MSG_RENDER.mergeImages,
  gifCompilationsSoon: MSG_RENDER.gifCompilationsSoon,
  compilationFailed: MSG_RENDER.compilationFailed,
  // Not named by the spec: why Merge is disabled, and the local preview's states.
  needTwo: `Select at least ${MERGE_MIN_MOMENTS} moments to merge.`,
  tooShort: 'Every moment must be longer than 0.001 s.',
  noClips: 'Add at least one clip to merge.',
  previewBuilding: 'Building the preview…',
  previewFailed: 'The preview could not be built.',
  previewStale: 'This preview shows an earlier edit: the clips, their crop or the shape changed since it was built.',
  previewRebuild: 'Build it again',
} as const;

/** What a moment to merge needs: its media kind and its (effective) range. */
export interface MergeCandidate {
  kind: 'video' | 'image' | undefined;
  startTime: number;
  endTime: number;
}

/**
 * Why the selection cannot be merged (section 5), or null when it can: images first, then
 * at least 2 moments, each longer than 0.001 s.
 */
export function mergeBlockedReason(selected: readonly MergeCandidate[]): string | null {
  if (selected.some((m) => m.kind === 'image')) return MSG_MERGE.mergeImages;
  if (selected.length < MERGE_MIN_MOMENTS) return MSG_MERGE.needTwo;
  if (selected.some((m) => !(m.endTime - m.startTime > MERGE_MIN_CLIP_SECONDS))) return MSG_MERGE.tooShort;
  return null;
}

/** Why the editor's clips cannot be merged (section 4: at least one clip, each longer than 0.001 s). */
export function clipsBlockedReason(clips: readonly Pick<Clip, 'duration'>[]): string | null {
  if (clips.length < MERGE_MIN_CLIPS) return MSG_MERGE.noClips;
  if (clips.some((c) => !(c.duration > MERGE_MIN_CLIP_SECONDS))) return MSG_MERGE.tooShort;
  return null;
}
