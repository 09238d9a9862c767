/** Maths of a windowed list of fixed-height rows: which rows to mount for a scroll position. */
export interface RowWindow {
  /** First row to render (inclusive). */
  start: number;
  /** Row after the last one to render (exclusive). */
  end: number;
  /** Top of the first rendered row, in px from the top of the list. */
  offset: number;
  /** Height of all rows together: the scrollable height. */
  totalHeight: number;
}

export function rowWindow({
  scrollTop,
  viewportHeight,
  rowHeight,
  count,
  overscan = 3,
}: {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  count: number;
  /** Extra rows above and below the visible ones, so fast scrolling shows no gap. */
  overscan?: number;
}): RowWindow {
  const totalHeight = Math.max(0, count) * rowHeight;
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0, totalHeight: 0 };
  // The browser may report a scroll position past the end (elastic scrolling, a list that shrank).
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalHeight - viewportHeight));
  const start = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight) + overscan);
  return { start, end, offset: start * rowHeight, totalHeight };
}

/** The viewport: `maxHeight`, or less when the rows are fewer than fill it. */
export const viewportHeight = (count: number, rowHeight: number, maxHeight: number) => Math.min(maxHeight, Math.max(0, count) * rowHeight);
