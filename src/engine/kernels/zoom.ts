/**
 * Zoom and viewport maths. Zoom is a percentage: 100 shows the whole media across the timeline's
 * width, 10 000 shows a hundredth of it. The viewport is the media time at the left edge.
 */
import { TIMELINE } from '../../contract';

export interface Viewport {
  /** Media duration, seconds. */
  duration: number;
  /** Timeline width, CSS px. */
  width: number;
  /** 100..10 000. */
  zoom: number;
  /** Media time at the left edge, seconds. */
  viewStart: number;
}

/** Zoom clamped to the spec's 100..10 000 %. */
export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return TIMELINE.minZoom;
  return Math.min(TIMELINE.maxZoom, Math.max(TIMELINE.minZoom, zoom));
}

const LOG_RANGE = Math.log(TIMELINE.maxZoom / TIMELINE.minZoom);

/** Logarithmic slider: position 0..1 to zoom, so each slider step multiplies the zoom equally. */
export function sliderToZoom(position: number): number {
  const p = Math.min(1, Math.max(0, Number.isFinite(position) ? position : 0));
  return clampZoom(TIMELINE.minZoom * Math.exp(p * LOG_RANGE));
}

/** Inverse of sliderToZoom. */
export function zoomToSlider(zoom: number): number {
  return Math.log(clampZoom(zoom) / TIMELINE.minZoom) / LOG_RANGE;
}

/** Seconds of media visible across the width at this zoom. */
export function visibleSeconds(duration: number, zoom: number): number {
  return (duration * TIMELINE.minZoom) / clampZoom(zoom);
}

/** CSS px per second of media. */
export function pxPerSecond(v: Pick<Viewport, 'duration' | 'width' | 'zoom'>): number {
  if (!(v.duration > 0)) return 1;
  return Math.max(1, v.width) / visibleSeconds(v.duration, v.zoom);
}

/** viewStart kept inside the media: the view never shows time before 0 or after the end. */
export function clampViewStart(viewStart: number, duration: number, zoom: number): number {
  const max = Math.max(0, duration - visibleSeconds(duration, zoom));
  if (!Number.isFinite(viewStart)) return 0;
  return Math.min(max, Math.max(0, viewStart));
}

/** Media time under x (px from the timeline's left edge). */
export function timeAtX(v: Viewport, x: number): number {
  return v.viewStart + x / pxPerSecond(v);
}

/** x (px from the timeline's left edge) of a media time. */
export function xAtTime(v: Viewport, seconds: number): number {
  return (seconds - v.viewStart) * pxPerSecond(v);
}

/**
 * The viewport after zooming to `zoom` with the time under `anchorX` kept under it (clamping at
 * the media's ends may move it when the anchor is near one).
 */
export function zoomAt(v: Viewport, zoom: number, anchorX: number): Viewport {
  const next = clampZoom(zoom);
  const x = Math.min(Math.max(0, anchorX), Math.max(0, v.width));
  const anchorTime = timeAtX(v, x);
  const span = visibleSeconds(v.duration, next);
  const pps = Math.max(1, v.width) / span;
  return { ...v, zoom: next, viewStart: clampViewStart(anchorTime - x / pps, v.duration, next) };
}

/** The viewport moved by `px` (positive shows later media), clamped to the media. */
export function panBy(v: Viewport, px: number): Viewport {
  return { ...v, viewStart: clampViewStart(v.viewStart + px / pxPerSecond(v), v.duration, v.zoom) };
}

/** The viewport moved as little as possible so that `seconds` is visible (with `marginPx` spare). */
export function reveal(v: Viewport, seconds: number, marginPx = 0): Viewport {
  const pps = pxPerSecond(v);
  const span = Math.max(1, v.width) / pps;
  const margin = Math.min(marginPx / pps, span / 4);
  let start = v.viewStart;
  if (seconds < start + margin) start = seconds - margin;
  else if (seconds > start + span - margin) start = seconds - span + margin;
  return { ...v, viewStart: clampViewStart(start, v.duration, v.zoom) };
}
