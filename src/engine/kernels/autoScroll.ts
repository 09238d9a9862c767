/**
 * Edge auto-scroll: while something is dragged and the pointer is near an edge of the timeline (or
 * past it), the view pans that way, faster the deeper the pointer is.
 */
import { clampViewStart, pxPerSecond, visibleSeconds, type Viewport } from './zoom';

/** The pointer within this many px of an edge, or past it, scrolls. */
export const AUTO_SCROLL_EDGE_PX = 24;
/** Top speed, in view widths per second, reached one edge zone past the edge. */
export const AUTO_SCROLL_MAX_VIEWS_PER_SECOND = 1;
/** Longest step one frame may take (a late frame must not jump the view). */
export const AUTO_SCROLL_MAX_STEP_SECONDS = 0.05;

/**
 * Signed pan speed in px per second for a pointer at `x` (px from the left edge): 0 inside the edge
 * zones, at 100 % and when the view already shows that end of the media; negative towards the start.
 * It grows linearly from 0 at the zone's inner border to the top speed one zone past the edge.
 */
export function edgeScrollSpeed(v: Viewport, x: number): number {
  if (!Number.isFinite(x) || !(v.width > 0) || !(v.duration > 0)) return 0;
  // On a narrow timeline the zones keep to its outer quarters.
  const zone = Math.min(AUTO_SCROLL_EDGE_PX, v.width / 4);
  const depth = x < zone ? x - zone : x > v.width - zone ? x - (v.width - zone) : 0;
  if (depth === 0) return 0;
  const lastStart = Math.max(0, v.duration - visibleSeconds(v.duration, v.zoom));
  if (depth < 0 ? v.viewStart <= 0 : v.viewStart >= lastStart) return 0;
  return Math.sign(depth) * v.width * AUTO_SCROLL_MAX_VIEWS_PER_SECOND * Math.min(1, Math.abs(depth) / (2 * zone));
}

/** The viewport after `dtSeconds` of auto-scroll with the pointer at `x` (clamped to the media). */
export function autoScrollBy(v: Viewport, x: number, dtSeconds: number): Viewport {
  const dt = Math.min(AUTO_SCROLL_MAX_STEP_SECONDS, Math.max(0, Number.isFinite(dtSeconds) ? dtSeconds : 0));
  const px = edgeScrollSpeed(v, x) * dt;
  if (px === 0) return v;
  return { ...v, viewStart: clampViewStart(v.viewStart + px / pxPerSecond(v), v.duration, v.zoom) };
}
