import { measureFrame, posterWebp, type FrameStats } from '../../adapters/media/frameStats';

/**
 * The poster of a video (library cards, media thumbnails, the player's picture before it plays) is a
 * representative keyframe, not its first frame: openings are colour bars, slates, title cards and
 * fades from black. Rules, in order:
 * 1. The opening is passed over: a tenth of the video, at most OPENING_MAX_SECONDS (all keyframes
 *    count when a short video has none after it).
 * 2. Of the keyframes after it, in time order, the first picture with detail (FrameStats.detail at
 *    least MIN_DETAIL, and not near-uniform) wins: a title card, a slate or bars that outlast the
 *    opening are passed over too.
 *    When the next keyframes show clearly more contrast (a fade in still under way), the latest of them.
 * 3. Without one among the first MAX_MEASURED (a screen recording, a video of graphics), the first
 *    that is not near-uniform; failing that (a dark video), the one with the most contrast.
 * Measuring takes a few milliseconds a frame and stops at the first that qualifies.
 */
export const POSTER = {
  openingShare: 0.1,
  openingMaxSeconds: 10,
  /** Luma standard deviation under which a frame is near-uniform (black, a fade, a flat colour). */
  minStdev: 8,
  /** Share of detailed pixels above which a frame shows a scene rather than flat graphics (FrameStats.detail). */
  minDetail: 0.2,
  maxMeasured: 24,
  /** A scene whose next keyframe has this much more contrast is still fading in: up to this many keyframes on. */
  fadeGain: 1.2,
  fadeLookahead: 3,
  width: 280,
  quality: 40,
} as const;

export interface PosterCandidate {
  /** Seconds into the media. */
  t: number;
  /** The keyframe's picture (a file path or its bytes). */
  file: string | Buffer;
}

/** Where the opening ends for a media of `duration` seconds. */
export const openingEnd = (duration: number) => Math.min(POSTER.openingMaxSeconds, Math.max(0, duration) * POSTER.openingShare);

/** The keyframe to make the poster from (rules above); null only when there is none. */
export async function choosePosterFrame<F extends PosterCandidate>(
  frames: readonly F[],
  duration: number,
  measure: (file: F['file']) => Promise<FrameStats> = measureFrame,
): Promise<F | null> {
  const inTime = [...frames].sort((a, b) => a.t - b.t);
  const after = inTime.filter((f) => f.t >= openingEnd(duration));
  const candidates = (after.length ? after : inTime).slice(0, POSTER.maxMeasured);
  const measured: Array<{ frame: F; stats: FrameStats }> = [];
  const measureOf = (frame: F) => measure(frame.file).catch(() => null);
  const isScene = (s: FrameStats) => s.stdev >= POSTER.minStdev && s.detail >= POSTER.minDetail;
  for (let i = 0; i < candidates.length; i++) {
    const stats = await measureOf(candidates[i]!);
    if (!stats) continue;
    if (isScene(stats)) {
      // A fade in may still be under way: while the next keyframe shows clearly more contrast, take it.
      let best = { frame: candidates[i]!, stats };
      for (let j = i + 1; j < candidates.length && j <= i + POSTER.fadeLookahead; j++) {
        const next = await measureOf(candidates[j]!);
        if (!next || !isScene(next) || next.stdev < best.stats.stdev * POSTER.fadeGain) break;
        best = { frame: candidates[j]!, stats: next };
      }
      return best.frame;
    }
    measured.push({ frame: candidates[i]!, stats });
  }
  const notUniform = measured.find((m) => m.stats.stdev >= POSTER.minStdev);
  if (notUniform) return notUniform.frame;
  const mostContrast = measured.reduce<(typeof measured)[number] | null>(
    (best, m) => (!best || m.stats.stdev > best.stats.stdev ? m : best),
    null,
  );
  return mostContrast?.frame ?? candidates[0] ?? inTime[0] ?? null;
}

/**
 * The poster (WebP bytes) from a video's keyframes; null when there is no keyframe. `load` turns a
 * candidate's `file` into its picture when it is a reference (a blob key): only the frames looked at are read.
 */
export async function representativePoster(
  frames: readonly PosterCandidate[],
  duration: number,
  load: (file: PosterCandidate['file']) => Promise<string | Buffer> = async (f) => f,
): Promise<Buffer | null> {
  const chosen = await choosePosterFrame(frames, duration, async (f) => measureFrame(await load(f)));
  return chosen ? posterWebp(await load(chosen.file), POSTER.width, POSTER.quality) : null;
}
