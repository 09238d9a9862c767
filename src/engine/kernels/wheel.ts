/**
 * Wheel and pinch, as in video editors: ctrl+wheel (how trackpads report a pinch, and how a mouse
 * asks to zoom) zooms at the pointer; a plain wheel, vertical or horizontal, and shift+wheel scroll
 * the timeline sideways.
 */

export type WheelIntent = { type: 'zoom'; factor: number } | { type: 'pan'; px: number };

export interface WheelLike {
  deltaX: number;
  deltaY: number;
  /** 0 pixels, 1 lines, 2 pages (WheelEvent.deltaMode). */
  deltaMode?: number;
  ctrlKey?: boolean;
  shiftKey?: boolean;
}

const LINE_PX = 16;
/** One mouse-wheel notch, in wheel pixels (Chromium reports 100 or 120; anything larger counts as one notch). */
export const WHEEL_NOTCH_PX = 100;
/** Zoom factor of one notch. Trackpad pinches send many small deltas that add up to the same rate per pixel. */
export const ZOOM_PER_NOTCH = 1.2;

/** What a wheel event asks of the timeline, or null when it asks nothing. */
export function wheelIntent(e: WheelLike, pagePx = 800): WheelIntent | null {
  const unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? pagePx : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  if (e.ctrlKey) {
    if (dy === 0) return null;
    // One event zooms by at most one notch, however large its delta (accelerated wheels, line or page deltas).
    const notches = Math.max(-1, Math.min(1, dy / WHEEL_NOTCH_PX));
    return { type: 'zoom', factor: ZOOM_PER_NOTCH ** -notches };
  }
  const px = e.shiftKey ? (dx !== 0 ? dx : dy) : Math.abs(dx) > Math.abs(dy) ? dx : dy;
  return px === 0 ? null : { type: 'pan', px };
}
