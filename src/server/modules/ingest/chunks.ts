import { SPEECH_PIECE_SECONDS } from '../../adapters/models/pocketsphinx';

/**
 * Long media are indexed in chunks of time (issue 41): the keyframes, visual and speech stages of a
 * media longer than CHUNKED_AFTER_SECONDS run as one job per chunk, so every worker of a cluster
 * takes part, and their results are merged when all are done.
 *
 * Chunk k covers [k*C, (k+1)*C) of a global grid (C = INGEST_CHUNK_SECONDS). Every chain of the
 * pipeline starts again at each grid line for every media, chunked or not: a keyframe is taken at
 * the first frame at or after each line (and the gap to the next counts from it), the picture
 * models' near-duplicate reuse starts afresh, and speech pieces are cut near multiples of their 30 s
 * length, each cut found from the audio around it alone. So a chunk computes exactly what a
 * whole-file run computes over the same seconds, and a chunked index equals a whole one
 * (tests/integration/chunks.test.ts).
 */
export const INGEST_CHUNK_SECONDS = 120;
/** Media longer than this (seconds) are indexed in chunks. */
export const CHUNKED_AFTER_SECONDS = 240;

/** The stages that run in chunks for a long media. */
export const CHUNK_STAGES = ['keyframes', 'visual', 'speech'] as const;
export type ChunkStage = (typeof CHUNK_STAGES)[number];
export const isChunkStage = (s: string): s is ChunkStage => (CHUNK_STAGES as readonly string[]).includes(s);

/** The grid and the length beyond which media are chunked (INGEST_CHUNK_SECONDS, CHUNKED_AFTER_SECONDS). */
export interface Chunking {
  seconds: number;
  after: number;
}

/** Why a chunk length cannot be used, or null: speech pieces must not straddle a grid line. */
export function chunkSecondsProblem(seconds: number): string | null {
  return seconds > 0 && seconds % SPEECH_PIECE_SECONDS === 0
    ? null
    : `must be a positive multiple of ${SPEECH_PIECE_SECONDS} (the speech pieces' length)`;
}

/** One chunk of a media: seconds [from, to), the last to Infinity (its end). */
export interface ChunkRange {
  index: number;
  from: number;
  to: number;
}

/** How many chunks a media of `duration` seconds has, or 0 when it is indexed whole. */
export function chunkCount(duration: number, c: Chunking): number {
  if (!(duration > c.after)) return 0;
  return Math.max(1, Math.ceil(duration / c.seconds));
}

/** Chunk `index` of `count` on a grid of `seconds`. */
export function chunkRange(index: number, count: number, seconds: number): ChunkRange {
  return { index, from: index * seconds, to: index >= count - 1 ? Infinity : (index + 1) * seconds };
}

/** The chunk a time falls in (the same floor(t/C) the keyframe selection uses). */
export const chunkOf = (t: number, seconds: number) => Math.floor(t / seconds);

/** Items in order of time, grouped by chunk of the grid (a new group at every grid line crossed). */
export function byChunk<T extends { t: number }>(items: readonly T[], seconds: number): T[][] {
  const groups: T[][] = [];
  let current = NaN;
  for (const it of items) {
    const k = chunkOf(it.t, seconds);
    if (k !== current) groups.push([]);
    current = k;
    groups[groups.length - 1]!.push(it);
  }
  return groups;
}

/** Shots from keyframes in time order: a new one at the first frame and at every scene score above `threshold`. */
export function shotsOf(frames: ReadonlyArray<{ t: number; scene: number }>, duration: number, threshold: number) {
  const shots: Array<{ start: number; end: number }> = [];
  const shotIdx = frames.map((f, i) => {
    if (i === 0 || f.scene > threshold) shots.push({ start: i === 0 ? 0 : f.t, end: duration });
    if (shots.length > 1) shots[shots.length - 2]!.end = shots[shots.length - 1]!.start;
    return shots.length - 1;
  });
  return { shots, shotIdx };
}
