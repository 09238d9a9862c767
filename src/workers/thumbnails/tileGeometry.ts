/** Pixel sizes, crops and cache keys of thumbnail tiles, shared by the worker and the main thread. */

/** HiDPI screens get up to twice the CSS size; more would only cost decode, memory and upload time. */
const MAX_PIXEL_RATIO = 2;

/** Bitmap size in device pixels for a tile of `width` x `height` CSS pixels. */
export function tilePixels(width: number, height: number, devicePixelRatio = 1): { width: number; height: number } {
  const ratio = Math.min(MAX_PIXEL_RATIO, Math.max(1, devicePixelRatio || 1));
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

/** Source rectangle that fills a `dw` x `dh` tile from a `sw` x `sh` picture (cover: keep aspect, crop the overflow centred). */
export function coverRect(sw: number, sh: number, dw: number, dh: number): { x: number; y: number; width: number; height: number } {
  const scale = Math.max(dw / sw, dh / sh);
  const width = Math.min(sw, dw / scale);
  const height = Math.min(sh, dh / scale);
  return { x: (sw - width) / 2, y: (sh - height) / 2, width, height };
}

/** Frame number shown at `time` for a constant `frameRate` (a hair of tolerance so k/fps is frame k). */
export const frameIndexOf = (time: number, frameRate: number) => Math.max(0, Math.floor(time * frameRate + 1e-6));

/**
 * Cache key of a thumbnail: the frame (time quantised to the frame rate, or for keyframe precision
 * the keyframe once the worker has told us where they are), the precision and the pixel size.
 */
export const thumbnailKey = (frame: number | `k${number}`, precision: 'keyframe' | 'exact', width: number, height: number) =>
  `${frame}:${precision}:${width}x${height}`;

/**
 * Index of the keyframe shown at or before `time` in ascending `keyframeTimes` (0 before the
 * first): every keyframe-precision request inside one GOP gets the same picture, so one cache entry.
 */
export function keyframeIndexOf(time: number, keyframeTimes: readonly number[]): number {
  let lo = 0;
  let hi = keyframeTimes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (keyframeTimes[mid]! <= time + 1e-6) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
