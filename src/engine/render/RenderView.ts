/** What every layer draws from: one snapshot of the engine's view per frame. */
export interface RenderView {
  width: number;
  rulerHeight: number;
  rowHeight: number;
  duration: number;
  fps: number;
  viewStart: number;
  pxPerSecond: number;
  time: number;
  /** Range in seconds, or null. */
  range: { start: number; end: number } | null;
  /** Handle under the pointer or being dragged (drawn brighter). */
  activeHandle: 'start' | 'end' | null;
}

/** x in CSS px of a media time in this view. */
export const xOf = (v: RenderView, seconds: number) => (seconds - v.viewStart) * v.pxPerSecond;
