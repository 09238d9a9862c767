/**
 * Wheel and pinch: ctrl+wheel (how trackpads report pinch) and a plain vertical wheel zoom at the
 * pointer; horizontal wheel or shift+wheel pans.
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
/** Zoom per wheel pixel: one 100 px mouse-wheel notch zooms by about 22 %. */
export const WHEEL_ZOOM_RATE = 0.002;
/** Pinch deltas are small: zoom faster per pixel. */
export const PINCH_ZOOM_RATE = 0.01;

/** What a wheel event asks of the timeline, or null when it asks nothing. */
export function wheelIntent(e: WheelLike, pagePx = 800): WheelIntent | null {
  const unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? pagePx : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  if (e.ctrlKey) return dy === 0 ? null : { type: 'zoom', factor: Math.exp(-dy * PINCH_ZOOM_RATE) };
  if (e.shiftKey) {
    const px = dx !== 0 ? dx : dy;
    return px === 0 ? null : { type: 'pan', px };
  }
  if (Math.abs(dx) > Math.abs(dy)) return { type: 'pan', px: dx };
  return dy === 0 ? null : { type: 'zoom', factor: Math.exp(-dy * WHEEL_ZOOM_RATE) };
}
