/**
 * Thumbnail tile virtualisation. Tiles are fixed-width (140 px) cells laid along the whole media at
 * the current scale; only those that intersect the view exist.
 */
import { TIMELINE } from '../../contract';

export interface TileSpan {
  /** First and last visible tile index (inclusive); last < first when none. */
  first: number;
  last: number;
  /** Seconds of media one tile covers at this scale. */
  tileSeconds: number;
}

/** The tiles that intersect the view [viewStart, viewStart + width / pps], inside the media. */
export function visibleTiles(
  viewStart: number,
  width: number,
  pxPerSecond: number,
  duration: number,
  tileWidth: number = TIMELINE.thumbnailFrameWidth,
): TileSpan {
  const tileSeconds = tileWidth / pxPerSecond;
  if (!(duration > 0) || !(width > 0)) return { first: 0, last: -1, tileSeconds };
  const viewEnd = Math.min(duration, viewStart + width / pxPerSecond);
  const first = Math.max(0, Math.floor(viewStart / tileSeconds + 1e-9));
  // A tile whose left edge is at or past the media's end would show nothing.
  const lastInMedia = Math.ceil(duration / tileSeconds - 1e-9) - 1;
  const last = Math.min(lastInMedia, Math.ceil(viewEnd / tileSeconds - 1e-9) - 1);
  return { first, last: Math.max(first - 1, last), tileSeconds };
}

/** 'keyframe' when a tile covers a second or more (coarse zoom), 'exact' when finer. */
export function tilePrecision(tileSeconds: number): 'keyframe' | 'exact' {
  return tileSeconds >= 1 ? 'keyframe' : 'exact';
}

/** Tile indices from the centre of [first, last] outwards: what the eye lands on loads first. */
export function centreOut(first: number, last: number): number[] {
  const out: number[] = [];
  if (last < first) return out;
  const mid = Math.floor((first + last) / 2);
  out.push(mid);
  for (let d = 1; out.length < last - first + 1; d++) {
    if (mid + d <= last) out.push(mid + d);
    if (mid - d >= first) out.push(mid - d);
  }
  return out;
}
